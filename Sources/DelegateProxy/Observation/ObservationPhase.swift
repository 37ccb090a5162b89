import MessageRuntime

/// When an observer hears a message: before it is delivered to the delegates (RxCocoa's
/// `sentMessage`) or after (RxCocoa's `methodInvoked`).
public enum ObservationPhase: Sendable, Hashable, CustomStringConvertible {
  /// Before any delegate is called.
  case before
  /// After every delegate called on the sender's thread has returned (delegates on
  /// queues may still be running).
  case after

  /// A readable rendering, for logs and diagnostics.
  public var description: String { self == .before ? "before" : "after" }
}
