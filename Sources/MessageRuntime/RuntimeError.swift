/// An error raised by the message runtime. Every case names what was wrong: the class,
/// the selector, the encoding, the position.
public enum RuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `doesNotRecognizeSelector:` — the receiver has no method and no signature for it.
  case unrecognizedSelector(className: String, selector: Selector)
  /// A type encoding could not be parsed or laid out.
  case invalidEncoding(TypeEncodingError)
  /// An encoding that parses but cannot be a method signature (e.g. fewer than two
  /// arguments, a void argument, a type with no size passed by value).
  case invalidSignature(encoding: String, reason: String)
  /// libffi refused to prepare a call for a signature.
  case ffiPreparationFailed(encoding: String, status: Int32)
  /// `class_addMethod` when the class already defines the selector.
  case methodAlreadyExists(className: String, selector: Selector)
  /// A class with this name is already registered.
  case classAlreadyExists(name: String)
  /// A typed message was used with an implementation or a method whose encoding differs.
  case signatureMismatch(selector: Selector, expected: String, found: String)
  /// An Invocation argument index outside `0..<count`, where `count` is the message's
  /// number of arguments (indices count the message's own arguments from 0, without
  /// `self` and `_cmd`).
  case argumentIndexOutOfRange(index: Int, count: Int, signature: String)
  /// An Invocation value accessed as a Swift type whose encoding differs from the
  /// signature's at that position: a message argument index (from 0, without `self` and
  /// `_cmd`), or -1 for the return value.
  case typeMismatch(position: Int, expected: String, found: String)
  /// An Invocation was invoked with no target or no selector set.
  case invocationIncomplete(String)
  /// A Swift type does not have the size/alignment its declared encoding says.
  case layoutMismatch(type: String, encoding: String, swiftSize: Int, encodedSize: Int)
  /// A libffi closure could not be allocated.
  case closureAllocationFailed(encoding: String)
  /// The arguments of a signature take more than `limit` bytes of frame (`size`): a call
  /// would put that much on the stack
  /// (1 MiB).
  case frameTooLarge(encoding: String, size: Int, limit: Int)

  public var description: String {
    switch self {
    case .unrecognizedSelector(let cls, let sel):
      return "-[\(cls) \(sel.name)]: unrecognized selector"
    case .invalidEncoding(let e):
      return "invalid type encoding: \(e)"
    case .invalidSignature(let enc, let reason):
      return "invalid method signature \"\(enc)\": \(reason)"
    case .ffiPreparationFailed(let enc, let status):
      return "libffi could not prepare a call for \"\(enc)\" (ffi_status \(status))"
    case .methodAlreadyExists(let cls, let sel):
      return "class \(cls) already has a method for \(sel.name)"
    case .classAlreadyExists(let name):
      return "a class named \(name) is already registered"
    case .signatureMismatch(let sel, let expected, let found):
      return "\(sel.name): signature \"\(found)\" does not match \"\(expected)\""
    case .argumentIndexOutOfRange(let index, let count, let sig):
      return "argument index \(index) out of range 0..<\(count) for \"\(sig)\""
    case .typeMismatch(let position, let expected, let found):
      return
        "type mismatch at argument \(position): signature has \"\(expected)\", accessed as \"\(found)\""
    case .invocationIncomplete(let what):
      return "invocation incomplete: \(what)"
    case .layoutMismatch(let type, let enc, let swiftSize, let encSize):
      return "\(type) has size \(swiftSize) but its encoding \"\(enc)\" has size \(encSize)"
    case .closureAllocationFailed(let enc):
      return "libffi could not allocate a closure for \"\(enc)\""
    case .frameTooLarge(let enc, let size, let limit):
      return
        "method signature \"\(enc)\": its arguments take \(size) bytes of frame; the limit is \(limit) bytes"
    }
  }
}
