/// How a multicast awaits the delegates of an `async` method, chosen per method with
/// ``DelegateMulticast/setConcurrency(_:for:)``.
public enum DelegateConcurrency: Sendable, Equatable, CustomStringConvertible {
  /// The default: one delegate after another, in order, each awaited before the next is
  /// called. A cancelled task calls no further delegate.
  case sequential
  /// Every responder at once, each in a child task of a task group; the answers are
  /// folded in delegate order once all have answered. Cancelling the caller's task
  /// cancels the children. The arguments are shared by the child tasks: pass values,
  /// or objects safe to use from several tasks at once (as for delegates on queues).
  /// Under ``ReturnPolicy/firstResponder`` only the first responder is called, so this
  /// has no effect there; nor on a method with `inout` parameters (see ``DelegateInout``),
  /// whose delegates each read what the previous one wrote.
  case concurrent

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .sequential: "sequential"
    case .concurrent: "concurrent"
    }
  }
}
