import MessageRuntime

/// Where a selector's signature came from (the signature its responder list uses).
public enum SignatureSource: Sendable, CustomStringConvertible {
  /// The first delegate (in order) that implements the selector.
  case delegate(className: String)
  /// The proxy's protocol.
  case `protocol`(name: String)
  /// Declared with `declare(_:)`, or remembered from a delegate that has left.
  case declared
  /// No signature is known.
  case none

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .delegate(let cls): return "delegate \(cls)"
    case .protocol(let name): return "protocol <\(name)>"
    case .declared: return "declared or remembered"
    case .none: return "none"
    }
  }
}
