/// A typed handle on one method of a Swift delegate protocol: `Arguments` is the
/// method's parameter types (a tuple when there are several), `Result` its result.
///
/// `@Delegate` generates one per method as a property of the multicast's `Messages`,
/// so per-method configuration names a method with a key path the compiler checks,
/// never a string:
///
/// ```swift
/// try proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
/// proxy.responds(to: \.sensorDidStop)
/// ```
public struct DelegateMessage<Arguments, Result>: Sendable, Hashable {
  /// The method's position in its protocol's declaration order.
  public let index: Int

  /// The handle on the method at `index` (generated code only; use the `Messages`
  /// key paths).
  public init(index: Int) { self.index = index }
}

/// The typed handles of a Swift delegate protocol's methods (`@Delegate` generates the
/// conforming `Messages` struct of each multicast).
public protocol DelegateMessages: Sendable {
  /// The handles (they hold no state).
  init()
}
