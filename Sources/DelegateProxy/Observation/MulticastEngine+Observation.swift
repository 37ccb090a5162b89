import MessageRuntime

/// An observer as a multicast stores it: a ``MessageObserver`` itself (``MulticastProxy``)
/// or a typed observer around one (`@Delegate` multicasts).
protocol RegisteredObserver {
  /// The registration: id, phase, active flag, and how to finish a sequence.
  var registration: MessageObserver { get }
}

extension MessageObserver: RegisteredObserver {
  /// The observer is its own registration.
  var registration: MessageObserver { self }
}

extension TypedObserver: RegisteredObserver {}

/// The state of a multicast with observers, keyed as it names a method.
protocol ObservedEngineState: MulticastEngineState {
  /// The observer record the multicast's dispatches call.
  associatedtype Observer: RegisteredObserver
  var observers: [MethodKey: [Observer]] { get set }
}

/// Observation, written once for both faces: each face makes its own observer (a snapshot
/// handler, a typed handler, a sequence's feed) and hands it here.
extension MulticastEngine where State: ObservedEngineState {
  /// THE registration of an observer of the method `key` (named `selector`): the next
  /// table calls it. The observation returned removes it when cancelled or dropped (it
  /// holds the multicast weakly).
  func register(
    _ observer: State.Observer, forKey key: State.MethodKey, selector: Selector
  ) -> MessageObservation {
    update { $0.observers[key, default: []].append(observer) }
    return MessageObservation(observer: observer.registration, selector: selector) {
      [weak self] id in
      self?.update { s in
        s.observers[key]?.removeAll { $0.registration.id == id }
        if s.observers[key]?.isEmpty == true { s.observers[key] = nil }
      }
    }
  }

  /// What a report (``MulticastProxy/report(for:)``, `DelegateMulticast.report(for:)`)
  /// says of the method `key` on both faces: the policy in force and whether it is the
  /// method's own, how many active observers hear it before and after delivery, and the
  /// members not removed, in order. Each face adds what only it knows (responders,
  /// signatures) and renders it.
  func reportFacts(forKey key: State.MethodKey) -> MethodReportFacts<State.Record, State.Policy> {
    let (policy, isOverride, observers) = state.withLock { s in
      (
        s.overrides[key] ?? s.defaultPolicy, s.overrides[key] != nil,
        (s.observers[key] ?? []).map(\.registration)
      )
    }
    return MethodReportFacts(
      policy: policy, isOverride: isOverride,
      observers: (
        observers.count { $0.isActive && $0.phase == .before },
        observers.count { $0.isActive && $0.phase == .after }
      ),
      members: publishedMembers.filter { !$0.isRemoved })
  }

  /// Ends every observer's sequence: the multicast is going away (called by its deinit).
  func finishObservers() {
    for observer in state.withLock({ $0.observers.values.flatMap { $0 } }) {
      observer.registration.finish?()
    }
  }
}

/// The facts a report gives of one method on either face (see
/// ``MulticastEngine/reportFacts(forKey:)``).
struct MethodReportFacts<Record, Policy> {
  /// The policy in force.
  let policy: Policy
  /// Whether ``policy`` is the method's own rather than the default.
  let isOverride: Bool
  /// How many active observers are called before and after delivery.
  let observers: (before: Int, after: Int)
  /// The members not removed, in order.
  let members: [Record]
}
