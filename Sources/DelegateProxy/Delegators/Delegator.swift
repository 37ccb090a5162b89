import Dispatch
import MessageRuntime

/// A delegator with one delegate slot that others may inject secondary delegates into:
/// adopt it by owning a ``DelegateSlot`` and sending delegate messages to
/// ``delegateTarget``.
///
/// ```swift
/// final class ScrollView: Delegator {
///   let delegateSlot = DelegateSlot()
///   func didScroll() throws {
///     if let target = delegateTarget, target.responds(to: didScrollMessage.selector) {
///       try didScrollMessage.send(to: target, nil)
///     }
///   }
/// }
/// scrollView.delegate = controller                 // the owner
/// try scrollView.setSecondaryDelegate(analytics)   // someone else (`secondaryDelegate`)
/// ```
public protocol Delegator: AnyObject {
  /// The delegator's slot.
  var delegateSlot: DelegateSlot { get }
}

extension Delegator {
  /// The delegate the owner set (weak); setting it keeps injected secondaries.
  public var delegate: RuntimeObject? {
    get { delegateSlot.delegate }
    set { delegateSlot.delegate = newValue }
  }

  /// What to send delegate messages to: the delegate, or the proxy that also reaches
  /// the secondaries.
  public var delegateTarget: RuntimeObject? { delegateSlot.target }

  /// The (first) secondary delegate, as the original `secondaryDelegate` property.
  public var secondaryDelegate: RuntimeObject? { delegateSlot.secondaryDelegates.first }

  /// Replaces the secondary delegates with `secondary` (`setSecondaryDelegate:`); nil
  /// removes them and restores the plain delegate.
  public func setSecondaryDelegate(_ secondary: RuntimeObject?) throws(DelegateProxyError) {
    for old in delegateSlot.secondaryDelegates where old !== secondary {
      delegateSlot.removeSecondary(old)
    }
    if let secondary { try delegateSlot.addSecondary(secondary) }
  }

  /// Injects another secondary delegate.
  public func addSecondaryDelegate(_ secondary: RuntimeObject) throws(DelegateProxyError) {
    try delegateSlot.addSecondary(secondary)
  }

  /// Removes an injected secondary delegate.
  public func removeSecondaryDelegate(_ secondary: RuntimeObject) {
    delegateSlot.removeSecondary(secondary)
  }
}

/// What ``DelegateInjection`` and the typed test doubles need of a multicast: every
/// multicast `@Delegate` generates conforms (through ``DelegateMulticast``); you do not
/// conform types yourself.
public protocol DelegateMulticastProtocol: AnyObject, Sendable {
  /// The protocol's existential, `any SensorDelegate`.
  associatedtype Delegate
  /// The typed handles of the protocol's methods (`\.sensorShouldStart`).
  associatedtype Handles: MessageHandles
  /// The protocol's methods as the runtime sees them.
  static var delegateProtocol: ProtocolDescription<Delegate> { get }
  /// An empty multicast.
  init(policy: ReturnPolicy<Any>, options: MulticastOptions)
  /// The multicast itself, as the protocol's existential (it conforms to its protocol).
  var asDelegate: Delegate { get }
  /// Inserts a delegate (see ``DelegateMulticast/insert(_:at:queue:retention:)``).
  @discardableResult
  func insert(_ delegate: Delegate, at index: Int, queue: DispatchQueue?, retention: Retention?)
    -> MemberID
  /// Inserts a plugin whose answers do not count (``DelegateMulticastProtocol/inject(_:into:at:answering:)``).
  func __insertListener(_ delegate: Delegate, at index: Int)
  /// Removes a delegate, waiting for its calls in flight when told to.
  func remove(_ delegate: Delegate, waitingForCallsInFlight: Bool)
}
