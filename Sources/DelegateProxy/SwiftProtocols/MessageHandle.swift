/// A typed handle on one method of a Swift delegate protocol: `Arguments` is the
/// method's parameter types (a tuple when there are several), `Result` its result, and
/// `invoke` calls the method on one delegate.
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
  @usableFromInline package let invoke: @Sendable (Delegate, Arguments) -> Result
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

/// What every typed handle on a Swift delegate protocol's method is: its position in
/// the protocol, its argument and result types. ``MessageHandle`` (a plain method),
/// ``ThrowingMessageHandle`` (`throws`) and ``AsyncMessageHandle`` (`async`, with or
/// without `throws`) conform, so the per-method API of a multicast — policies,
/// ``DelegateMulticast/responds(to:)``, observers, introspection — takes a key path to
/// any of them and is written once.
public protocol MessageHandleProtocol<Delegate, Arguments, Result>: Sendable {
  /// The protocol's existential (`any SensorDelegate`).
  associatedtype Delegate
  /// The method's parameter types (a tuple when there are several).
  associatedtype Arguments
  /// The method's result type.
  associatedtype Result
  /// The method's position in its protocol's declaration order.
  var index: Int { get }
  /// For a method with `inout` parameters: the arguments with each ``DelegateInout``
  /// replaced by a copy that owns its value (what observers and message sequences get);
  /// nil when the method has none.
  var detach: (@Sendable (Arguments) -> Arguments)? { get }
}

extension MessageHandle: MessageHandleProtocol {}

/// The typed handle on a `throws` method of a Swift delegate protocol: as
/// ``MessageHandle``, with an `invoke` that throws what the delegate throws.
///
/// `@Delegate` generates one per throwing method. A multicast calls such a method under
/// the method's ``DelegateErrorPolicy`` (see ``DelegateMulticast/setErrorPolicy(_:for:)-(_,KeyPath<Handles,ThrowingMessageHandle<Delegate,Arguments,Result>>)``).
public struct ThrowingMessageHandle<Delegate, Arguments, Result>: MessageHandleProtocol {
  /// The method's position in its protocol's declaration order.
  public let index: Int
  /// Calls the method on `delegate` with `arguments`.
  @usableFromInline package let invoke: @Sendable (Delegate, Arguments) throws -> Result
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

/// The typed handle on an `async` method of a Swift delegate protocol (throwing or not):
/// as ``MessageHandle``, with an `invoke` that awaits the delegate.
///
/// `@Delegate` generates one per `async` method. A multicast awaits such a method's
/// delegates under its ``DelegateConcurrency`` and, when it throws, its
/// ``DelegateErrorPolicy``.
public struct AsyncMessageHandle<Delegate, Arguments, Result>: MessageHandleProtocol {
  /// The method's position in its protocol's declaration order.
  public let index: Int
  /// Whether the method is declared `throws` (when it is not, `invoke` never throws).
  @usableFromInline package let isThrowing: Bool
  /// Calls the method on `delegate` with `arguments`, awaiting its answer.
  @usableFromInline package let invoke: @Sendable (Delegate, Arguments) async throws -> Result
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
