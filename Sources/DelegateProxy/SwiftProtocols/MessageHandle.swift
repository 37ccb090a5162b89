/// A typed handle on one method of a Swift delegate protocol: `Arguments` is the
/// method's parameter types (a tuple when there are several), `Result` its result, and
/// ``invoke`` calls the method on one delegate.
///
/// `@Delegate` generates one per method as a property of the multicast's `Handles`,
/// so per-method configuration names a method with a key path the compiler checks,
/// never a string:
///
/// ```swift
/// proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
/// proxy.responds(to: \.sensorDidStop)
/// let watching = proxy.observe(\.sensorDidRead) { sensor, reading in print(reading) }
/// ```
public struct MessageHandle<Delegate, Arguments, Result>: Sendable {
  /// The method's position in its protocol's declaration order.
  public let index: Int
  /// Calls the method on `delegate` with `arguments`.
  public let invoke: @Sendable (Delegate, Arguments) -> Result
  /// For a method with `inout` parameters: `arguments` with each ``DelegateInout``
  /// replaced by a ``DelegateInout/detached()`` copy (what observers keep); nil otherwise.
  public let detach: (@Sendable (Arguments) -> Arguments)?

  /// The handle on the method at `index`, called by `invoke`; `detach` copies its `inout`
  /// arguments (generated code).
  public init(
    index: Int, detach: (@Sendable (Arguments) -> Arguments)? = nil,
    invoke: @escaping @Sendable (Delegate, Arguments) -> Result
  ) {
    self.index = index
    self.detach = detach
    self.invoke = invoke
  }
}

/// The typed handles of a Swift delegate protocol's methods (`@Delegate` generates the
/// conforming `Handles` struct of each multicast).
public protocol MessageHandles: Sendable {
  /// The handles of the methods C callers can reach: those whose parameter and result
  /// types have a C form (``MulticastCFace/imp(for:)`` takes only these, so asking for
  /// the C face of another method does not compile). `@Delegate` generates it.
  associatedtype CHandles: MessageHandles = Self
  /// The handles (they hold no state).
  init()
}
