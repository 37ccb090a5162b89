import MessageRuntime

/// A secondary delegate injected into a delegator's one delegate slot, beside the
/// delegate already there (the `secondaryDelegate` proxy of `UIScrollView`'s category),
/// for delegators written in Swift with an ordinary `weak var delegate: P?`.
///
/// ```swift
/// let injection = SensorDelegateMulticast.inject(analytics, into: device, at: \.delegate)
/// // device.delegate is now a multicast: the original delegate, then analytics.
/// injection.remove()        // or drop the injection: device.delegate is the original again
/// ```
///
/// The injection owns the multicast it puts in the slot (a weak slot would not keep it):
/// keep the injection for as long as the secondary should hear the delegator. Both
/// delegates are held weakly and hear every call, the primary first (so an out-pointer
/// or `inout` argument reaches the secondary as the primary left it, as in the
/// reference).
///
/// **Who answers.** A value-returning call is answered by the primary — the delegator's
/// own delegate — as if nothing had been injected; with no primary, by what the method
/// declares for no delegates (`@Default`). A secondary that should answer instead says so
/// when injected (`answering: true`): then its answer wins, the last invoked, as the
/// reference's proxy does. A primary set later
/// through ``setPrimary(_:)`` keeps the secondary; one assigned to the slot directly
/// replaces the multicast, and the injection then leaves the slot alone.
public final class DelegateInjection<Delegator: AnyObject, Multicast: DelegateMulticastProtocol>:
  @unchecked Sendable
{
  // @unchecked Sendable: `delegator` is only read and its slot only written through
  // `slot` under `lock`; the multicast is thread-safe.
  private weak var delegator: Delegator?
  private let slot: ReferenceWritableKeyPath<Delegator, Multicast.Delegate?>
  /// The multicast in the slot: the primary (if any), then the secondary.
  public let multicast: Multicast
  /// The primary, held weakly as the multicast holds it (the reference's "weak primary +
  /// weak secondary"): the injection must not keep a dropped primary alive.
  private let lock = Lock<WeakPrimary>(WeakPrimary())

  private struct WeakPrimary {
    weak var object: AnyObject?
    var delegate: Multicast.Delegate? { object.flatMap { $0 as? Multicast.Delegate } }
  }

  init(
    delegator: Delegator, slot: ReferenceWritableKeyPath<Delegator, Multicast.Delegate?>,
    primary: Multicast.Delegate?, multicast: Multicast
  ) {
    self.delegator = delegator
    self.slot = slot
    self.multicast = multicast
    lock.withLock { $0.object = primary.map { $0 as AnyObject } }
  }

  deinit { remove() }

  /// The primary delegate (what the slot held before the injection, or was given by
  /// ``setPrimary(_:)``).
  public var primary: Multicast.Delegate? { lock.withLock { $0.delegate } }

  /// Replaces the primary delegate, keeping the secondary (a late primary).
  public func setPrimary(_ primary: Multicast.Delegate?) {
    let old = lock.withLock { p in
      defer { p.object = primary.map { $0 as AnyObject } }
      return p.delegate
    }
    if let old { multicast.remove(old, waitingForCallsInFlight: false) }
    if let primary { multicast.insert(primary, at: 0, queue: nil, retention: .weak) }
  }

  /// Puts the primary delegate back in the slot (if the slot still holds this
  /// injection's multicast). Idempotent; dropping the injection does it too.
  public func remove() {
    guard let delegator else { return }
    lock.withLock { primary in
      guard let current = delegator[keyPath: slot],
        (current as AnyObject) === (multicast.asDelegate as AnyObject)
      else {
        return
      }
      delegator[keyPath: slot] = primary.delegate
    }
    self.delegator = nil
  }
}

extension DelegateMulticast: DelegateMulticastProtocol {
  /// The multicast as its protocol's existential: itself, or for
  /// `@Delegate(for:object:)` its `object`. Traps if neither conforms (`@Delegate`
  /// multicasts always do).
  public var asDelegate: Delegate {
    guard let d = self as? Delegate ?? state.withLock({ $0.object }) as? Delegate else {
      fatalError("\(Self.self) does not conform to \(protocolDescription.name)")
    }
    return d
  }
}

extension DelegateMulticastProtocol {
  /// Injects `secondary` into `delegator`'s delegate slot beside the delegate it holds
  /// now: the slot then holds a new multicast of the two (primary first). Keep the
  /// returned injection; dropping it puts the primary back.
  ///
  /// The primary answers value-returning calls, as before the injection (the method's
  /// `@Default` when there is none); with `answering: true` the secondary's answer wins
  /// instead (the reference proxy's behaviour: the last invoked).
  public static func inject<Delegator: AnyObject>(
    _ secondary: Delegate, into delegator: Delegator,
    at slot: ReferenceWritableKeyPath<Delegator, Delegate?>, answering: Bool = false
  ) -> DelegateInjection<Delegator, Self> {
    let primary = delegator[keyPath: slot]
    // Two roles, not two copies of one: the primary answers, the secondary listens, even
    // when one object plays both.
    let multicast = Self(policy: .lastResponder, options: .allowsDuplicates)
    if let primary { multicast.insert(primary, at: 0, queue: nil, retention: .weak) }
    if answering {
      multicast.insert(secondary, at: 1, queue: nil, retention: .weak)
    } else {
      multicast.__insertListener(secondary, at: 1)
    }
    let injection = DelegateInjection(
      delegator: delegator, slot: slot, primary: primary, multicast: multicast)
    delegator[keyPath: slot] = multicast.asDelegate
    return injection
  }
}
