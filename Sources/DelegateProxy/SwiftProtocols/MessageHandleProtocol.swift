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
