import MessageRuntime

/// An error raised by a delegate proxy. Each case names what was wrong.
///
/// Messages a proxy cannot deliver at all raise the runtime's own
/// `RuntimeError.unrecognizedSelector(className:selector:)`, as an
/// `NSProxy` raises `doesNotRecognizeSelector:`.
public enum DelegateProxyError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A delegate being added implements `selector` with a different encoding from a
  /// delegate already present (or from the proxy's protocol). Caught when added, not as
  /// memory corruption when called.
  case signatureConflict(
    selector: Selector, existingEncoding: String, existingOwner: String, newEncoding: String,
    newClass: String)
  /// A reducer cannot produce a value of the message's return type (e.g. ``Reducer/allTrue``
  /// for a `double`).
  case reducerTypeMismatch(reducer: String, returnType: String)
  /// Asynchronous aggregation was asked for a message whose signature no delegate and no
  /// protocol gives.
  case unknownSignature(selector: Selector)
  /// Adding a multicast proxy would make a cycle of proxies: `path` names them (class and
  /// handle) from the proxy being added to, through the members that lead back to it —
  /// `[A, A]` for a proxy added to itself, `[A, B, A]` when `B` contains `A`.
  case cycle(path: [String])
  /// A Swift delegate protocol's method takes or returns a type with no C form (an enum,
  /// a tuple, a `String`, a struct holding references…). `parameter` is nil for the
  /// result. Raised where the protocol's runtime description is asked for: when a
  /// delegate is added to its multicast, or by `ProtocolDescription.runtimeProtocol()`.
  case unsupportedType(
    protocol: String, method: String, parameter: String?, type: String, reason: String)
  /// The C face of a multicast whose protocol did not ask for one was asked for (its
  /// runtime object, an IMP, a callback adapter): C entry points are generated only for a
  /// protocol declared with `@Delegate(cFace: true)`.
  case noCFace(protocol: String)

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .signatureConflict(let sel, let oldEnc, let owner, let newEnc, let cls):
      return
        "signature conflict for \(sel.name): \(cls) implements it as \"\(newEnc)\" but \(owner) has \"\(oldEnc)\""
    case .reducerTypeMismatch(let reducer, let type):
      return "reducer \"\(reducer)\" cannot produce a value of type \"\(type)\""
    case .unknownSignature(let sel):
      return "no delegate and no protocol gives a signature for \(sel.name)"
    case .cycle(let path):
      return "adding the proxy would make a cycle of proxies: \(path.joined(separator: " → "))"
    case .unsupportedType(let proto, let method, let parameter, let type, let reason):
      let which = parameter.map { "parameter '\($0)'" } ?? "result"
      return "\(proto).\(method): \(which) of type \(type) has no C form: \(reason)"
    case .noCFace(let proto):
      return
        "\(proto) has no C face: declare it with @Delegate(cFace: true) to reach its multicast from C"
    }
  }
}
