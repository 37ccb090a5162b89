import Dispatch
import MessageRuntime

/// What ``DelegateInjection`` needs of a multicast (every `@Delegate` multicast has it).
public protocol DelegateMulticastProtocol: AnyObject, Sendable {
  /// The protocol's existential, `any SensorDelegate`.
  associatedtype Delegate
  /// An empty multicast.
  init(policy: ReturnPolicy<Any>, options: MulticastOptions)
  /// The multicast itself, as the protocol's existential (it conforms to its protocol).
  var asDelegate: Delegate { get }
  /// Inserts a delegate (see ``DelegateMulticast/insert(_:at:queue:retention:)``).
  @discardableResult
  func insert(_ delegate: Delegate, at index: Int, queue: DispatchQueue?, retention: Retention)
    -> MemberID
  /// Inserts a plugin whose answers do not count (``DelegateMulticastProtocol/inject(_:into:at:answering:)``).
  func __insertListener(_ delegate: Delegate, at index: Int)
  /// Removes a delegate.
  func remove(_ delegate: Delegate)
}
