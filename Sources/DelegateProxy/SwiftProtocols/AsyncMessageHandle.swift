/// The typed handle on an `async` method of a Swift delegate protocol (throwing or not):
/// as ``MessageHandle``, with an ``invoke`` that awaits the delegate.
///
/// `@Delegate` generates one per `async` method. A multicast awaits such a method's
/// delegates under its ``DelegateConcurrency`` and, when it throws, its
/// ``DelegateErrorPolicy``.
public struct AsyncMessageHandle<Delegate, Arguments, Result>: MessageHandleProtocol {
  /// The method's position in its protocol's declaration order.
  public let index: Int
  /// Whether the method is declared `throws` (when it is not, `invoke` never throws).
  public let isThrowing: Bool
  /// Calls the method on `delegate` with `arguments`, awaiting its answer.
  public let invoke: @Sendable (Delegate, Arguments) async throws -> Result
  /// For a method with `inout` parameters: copies them (see ``MessageHandle/detach``).
  public let detach: (@Sendable (Arguments) -> Arguments)?

  /// The handle on the method at `index`, called by `invoke`; `detach` copies its `inout`
  /// arguments (generated code).
  public init(
    index: Int, isThrowing: Bool, detach: (@Sendable (Arguments) -> Arguments)? = nil,
    invoke: @escaping @Sendable (Delegate, Arguments) async throws -> Result
  ) {
    self.index = index
    self.isThrowing = isThrowing
    self.detach = detach
    self.invoke = invoke
  }
}
