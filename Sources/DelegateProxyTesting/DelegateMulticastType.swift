import DelegateProxy
import MessageRuntime

/// What a typed double needs of a `@Delegate` protocol's generated multicast: the
/// protocol's description, its typed handles (`Handles`) and its stand-in. Every
/// multicast `@Delegate` generates conforms (through ``DelegateMulticast``); you do not
/// conform types yourself.
///
/// ```swift
/// let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
/// ```
public protocol DelegateMulticastType: AnyObject {
  /// The protocol's existential (`any SensorDelegate`).
  associatedtype Delegate
  /// The typed handles of the protocol's methods (`\.sensorShouldStart`).
  associatedtype Handles: MessageHandles
  /// The protocol's methods as the runtime sees them.
  static var delegateProtocol: ProtocolDescription<Delegate> { get }
  /// An object conforming to the protocol that sends each call to `target`.
  static func standIn(for target: RuntimeObject) -> Delegate
}

extension DelegateMulticast: DelegateMulticastType {}
