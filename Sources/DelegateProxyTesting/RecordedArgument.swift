import DelegateProxy
import MessageRuntime

/// One argument of a recorded call: its declared type, its bytes as they arrived, and —
/// when the double was made from a Swift protocol — its Swift name and type.
///
/// Object arguments are recorded as their handle and a description taken when the call
/// arrived; the double does not keep them alive (a delegator passes itself, and a double
/// that retained it would close a cycle through the delegator's delegate) — except the
/// Swift arguments a `@Delegate` protocol's stand-in hands over, class instances
/// included, which the double keeps until its calls are reset (the stand-in holds the
/// double weakly: no cycle). C strings are copied (at most 256 bytes: a library may pass
/// a `char *` with a separate length).
public struct RecordedArgument: Sendable, Equatable, CustomStringConvertible {
  /// The declared type (qualifiers removed).
  public let type: TypeEncoding
  /// The argument's bytes, exactly as the caller passed them (its C size).
  public let bytes: [UInt8]
  /// The parameter's name in the Swift protocol, when known.
  public let name: String?
  /// The parameter's Swift type name, when known (e.g. `Int32`, `Reading`).
  package let swiftType: String?
  /// The argument as text, made when the call arrived: numbers, `nil`, an object's class
  /// and handle, a selector's name, a C string's contents, a struct's fields.
  public let text: String
  /// The C string's contents when the argument is a non-null `char *`.
  public let string: String?
  /// The parameter's Swift type, for a double made from a `@Delegate` protocol.
  let valueType: DelegateValueType?
  /// A Swift value with no C form (`String`, an enum, an array, a closure…), as its
  /// ``SwiftValueObject`` carried it: the double's own copy.
  let swiftCopy: KeptValue?
  /// For a double made from a `@Delegate` protocol: the argument as a Swift value of the
  /// parameter's type — the stand-in's own argument (a class instance as itself), or the
  /// value its C form carried; a copy of an `inout` argument as it arrived; nil for a
  /// non-escaping closure (lent for the call only) and for a class instance a C caller
  /// passed (an address).
  let swiftArgument: KeptValue?

  init(
    type: TypeEncoding, bytes: [UInt8], name: String?, swiftType: String?, text: String,
    string: String?, valueType: DelegateValueType? = nil, swiftCopy: Any? = nil,
    swiftArgument: Any? = nil
  ) {
    self.type = type
    self.bytes = bytes
    self.name = name
    self.swiftType = swiftType
    self.text = text
    self.string = string
    self.valueType = valueType
    self.swiftCopy = swiftCopy.map(KeptValue.init)
    self.swiftArgument = swiftArgument.map(KeptValue.init)
  }

  /// The argument as the Swift value it was sent as, for a double made from a
  /// `@Delegate` protocol: `call.arguments[1].swiftValue(as: Reading.self)`,
  /// `swiftValue(as: String.self)`. A value with no C form is the double's own copy of
  /// it; a class instance a stand-in sent is the instance (the double keeps it until
  /// ``DelegateDouble/resetCalls()``). Nil when `T` is not the parameter's type, or for a
  /// class instance a C caller passed (an unretained address: see ``pointer``).
  public func swiftValue<T>(as _: T.Type = T.self) -> T? {
    if let swiftArgument { return swiftArgument.value as? T }
    if let swiftCopy { return swiftCopy.value as? T }
    return valueType?.swiftValue(fromC: bytes, as: T.self)
  }

  /// Whether two recorded arguments have the same type, bytes, names and text.
  public static func == (a: RecordedArgument, b: RecordedArgument) -> Bool {
    a.type == b.type && a.bytes == b.bytes && a.name == b.name && a.swiftType == b.swiftType
      && a.text == b.text && a.string == b.string
  }

  /// The argument as `T`, which must have the argument's size and a compatible encoding.
  /// An object argument is read from its handle: only while the object lives.
  /// Throws ``DoubleError/argumentTypeMismatch(selector:position:expected:found:)``
  /// otherwise (with `position` -1: this value does not know its position).
  public func value<T: MessageArgument>(as _: T.Type = T.self) throws(DoubleError) -> T {
    guard EncodingCheck.fits(T.typeEncoding, size: MemoryLayout<T>.size, into: type) else {
      throw .argumentTypeMismatch(
        selector: Selector("?"), position: -1, expected: type.canonicalString,
        found: "\(T.self) (\(T.typeEncoding.canonicalString))")
    }
    return bytes.withUnsafeBytes { T.load(from: $0.baseAddress!) }
  }

  /// The argument as an integer of any width (sign-extended for signed types); nil for
  /// other types.
  public var integer: Int64? { ValueText.integer(bytes, type) }

  /// The argument as a floating-point number; nil for other types.
  package var floatingPoint: Double? { ValueText.floatingPoint(bytes, type) }

  /// The pointer value of a pointer, object, class, selector or C string argument.
  public var pointer: UnsafeRawPointer? {
    guard bytes.count == MemoryLayout<UInt>.size, ValueText.isPointerSized(type) else {
      return nil
    }
    return UnsafeRawPointer(bitPattern: bytes.withUnsafeBytes { $0.load(as: UInt.self) })
  }

  /// `name: text`, or the text alone.
  public var description: String { name.map { "\($0): \(text)" } ?? text }
}

extension RecordedArgument {
  /// The argument as Swift writes its value, for a `@Delegate` protocol's method: a
  /// string quoted, a struct or enum as Swift describes it, a class instance as its type
  /// (`<Sensor>`) unless it describes itself; the recorded ``text`` otherwise.
  var swiftText: String {
    guard let value = swiftArgument?.value else { return text }
    return SwiftValueText.of(value, typeName: swiftType)
  }
}
