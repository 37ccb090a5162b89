/// The typed handle on a `throws` method of a Swift delegate protocol: as
/// ``MessageHandle``, with an ``invoke`` that throws what the delegate throws.
///
/// `@Delegate` generates one per throwing method. A multicast calls such a method under
/// the method's ``DelegateErrorPolicy`` (see ``DelegateMulticast/setErrorPolicy(_:for:)-(_,KeyPath<Handles,ThrowingMessageHandle<Delegate,Arguments,Result>>)``).
public struct ThrowingMessageHandle<Delegate, Arguments, Result>: MessageHandleProtocol {
  /// The method's position in its protocol's declaration order.
  public let index: Int
  /// Calls the method on `delegate` with `arguments`.
  public let invoke: @Sendable (Delegate, Arguments) throws -> Result
  /// For a method with `inout` parameters: copies them (see ``MessageHandle/detach``).
  public let detach: (@Sendable (Arguments) -> Arguments)?

  /// The handle on the method at `index`, called by `invoke`; `detach` copies its `inout`
  /// arguments (generated code).
  public init(
    index: Int, detach: (@Sendable (Arguments) -> Arguments)? = nil,
    invoke: @escaping @Sendable (Delegate, Arguments) throws -> Result
  ) {
    self.index = index
    self.detach = detach
    self.invoke = invoke
  }
}
