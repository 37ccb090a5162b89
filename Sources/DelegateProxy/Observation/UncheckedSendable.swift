/// A value handed across threads as the reference systems hand delegate arguments across
/// queues: the sender vouches for it (see ``DelegateMulticast/messages(_:_:bufferingPolicy:)``).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
  // @unchecked Sendable: used only for a delegate call's arguments and results crossing to
  // a delegate's queue or an observer's task — the caller of add(_:queue:) or messages(_:)
  // chooses to share them, as GCDMulticastDelegate and RxCocoa do; an `async` method's
  // dispatch, which holds them for its one task or shares them with its child tasks
  // (documented on DelegateConcurrency.concurrent).
  /// The value.
  @usableFromInline let value: Value
  /// Wraps `value`.
  @inlinable init(_ value: Value) { self.value = value }
}
