import MessageRuntime
import Synchronization

/// The C face of a ``DelegateMulticast``: a ``MulticastProxy`` kept in step with the
/// multicast — its protocol, the same policy per method, the same members in the same
/// order, each a ``DelegateCAdapter`` — so C code that calls the proxy's IMPs reaches
/// the plain Swift delegates through the proxy's C routes.
///
/// Removal needs no step from here to hold: an adapter checks its member's removed flag
/// and liveness right before each call. Keeping in step only keeps the routes short and
/// the results right (a gone member's adapter leaves the routes at once, see
/// ``dropGone(_:)``).
final class DelegateCFace<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: `adapters` and `syncing` are locks; `appliedPolicies` and
  // `bridged` are touched only by the one sync running (see `sync`).

  /// The runtime face C messages.
  let proxy: MulticastProxy
  let methods: DelegateCMethods
  let flags = DelegateCFaceFlags()
  /// Adapters by member id. A leaf lock: nothing is called while it is held.
  private let adapters = Lock<[UInt64: DelegateCAdapter<Delegate>]>([:])
  /// One sync at a time, without blocking: a sync requested while one runs sets `dirty`
  /// and returns; the running one goes round again. (Blocking could deadlock: a sync
  /// waits out dispatches, and a delegate called by one may change the multicast.)
  private let syncing = Lock<(running: Bool, dirty: Bool)>((false, false))
  private var appliedPolicies: [String?]
  /// By method index: reads a C call's arguments as the method's `Arguments`.
  private let arguments: [@Sendable (DelegateCFrame) -> Any]
  /// The multicast's typed observers registered on the proxy, by the typed observer's
  /// id: the proxy's observer that decodes each C call for it. Touched only by the one
  /// sync running.
  private var bridged: [UInt64: (index: Int, observer: MessageObserver)] = [:]

  init(
    description: DelegateProtocol<Delegate>, calls: [DelegateCCall<Delegate>],
    entries: [DelegateCEntry?], arguments: [@Sendable (DelegateCFrame) -> Any],
    options: MulticastProxy.Options
  ) throws(DelegateProxyError) {
    let proto = try description.runtimeProtocol()
    guard calls.count == description.methods.count else {
      fatalError(
        "\(description.name): the multicast has \(calls.count) C calls for \(description.methods.count) methods; declare the protocol with @Delegate"
      )
    }
    let plans = description.methods.map { m in
      DelegateCMethod(m, signature: proto.requirement(for: m.selector)!.signature)
    }
    // An entry whose guesses do not fit (a parameter it took for a class instance is a
    // struct) is not used: that method's calls go through frames.
    let fitting = description.methods.indices.map { i -> DelegateCEntry? in
      guard i < entries.count, let entry = entries[i], entry.fits(description.methods[i]) else {
        return nil
      }
      return entry
    }
    methods = DelegateCMethods(plans: plans, calls: calls, entries: fitting)
    self.arguments = arguments.count == plans.count ? arguments : []
    appliedPolicies = Array(repeating: nil, count: plans.count)
    proxy = MulticastProxy(options: options.intersection(.silentWhenEmpty), protocol: proto)
  }

  /// Takes the adapters of removed and deallocated `members` out of the routes at once
  /// (called under the multicast's lock, when it publishes).
  func dropGone(_ members: [DelegateMember<Delegate>]) {
    let gone = members.filter { $0.isRemoved || !$0.isAlive }
    guard !gone.isEmpty else { return }
    let memberships = adapters.withLock { a in gone.compactMap { a[$0.id] } }.map {
      $0.membership.withLock { $0 }
    }
    for m in memberships { m?.markRemoved() }
  }

  /// Brings the proxy in step with what `snapshot` reads from the multicast. Never
  /// blocks on another sync (see `syncing`); called with no lock held.
  func sync(_ snapshot: () -> DelegateCSnapshot<Delegate>) {
    let starts = syncing.withLock { s -> Bool in
      if s.running {
        s.dirty = true
        return false
      }
      s = (true, false)
      return true
    }
    guard starts else { return }
    while true {
      flags.needsSync.store(false, ordering: .relaxed)
      apply(snapshot())
      let again = syncing.withLock { s -> Bool in
        if s.dirty {
          s.dirty = false
          return true
        }
        s.running = false
        return false
      }
      if !again { return }
    }
  }

  private func apply(_ snapshot: DelegateCSnapshot<Delegate>) {
    for (index, plan) in methods.plans.enumerated() {
      var policy = snapshot.overrides[index] ?? snapshot.defaultPolicy
      // A Swift multicast's void methods are always silent with no responder; on the
      // proxy only last responder raises (C callers would abort), and any policy calls
      // every responder of a void message.
      if plan.signature.returnsVoid { policy = .firstResponder }
      if appliedPolicies[index] != policy.description {
        proxy.setPolicy(policy, for: plan.selector)
        appliedPolicies[index] = policy.description
        var allTrue = false
        if case .reduce(let reducer) = policy, reducer.routeCombine == .allTrue { allTrue = true }
        plan.goneAnswersTrue.store(allTrue, ordering: .relaxed)
      }
    }
    bridgeObservers(snapshot.observers)
    let live = snapshot.members.filter { !$0.isRemoved && $0.isAlive }
    let liveIDs = Set(live.map(\.id))
    let gone = adapters.withLock { a -> [DelegateCAdapter<Delegate>] in
      let gone = a.filter { !liveIDs.contains($0.key) }
      for id in gone.keys { a[id] = nil }
      return Array(gone.values)
    }
    for adapter in gone {
      adapter.membership.withLock { $0 }?.markRemoved()
      proxy.remove(adapter)
    }
    // Optional methods a class turned out to lack since the last sync.
    var reload = false
    for adapter in adapters.withLock({ Array($0.values) }) where adapter.installMethods() {
      reload = true
    }
    if reload { try? proxy.reloadMethods() }
    // New members, each after the adapter of the live member before it.
    var previous: DelegateCAdapter<Delegate>? = nil
    for member in live {
      if let existing = adapters.withLock({ $0[member.id] }) {
        previous = existing
        continue
      }
      let adapter = DelegateCAdapter(member: member, methods: methods, face: flags)
      do {
        try proxy.insert(adapter, after: previous, queue: member.queue, retention: .strong)
      } catch {
        continue  // the protocol's signatures are the adapter's: no conflict can arise
      }
      let membership = proxy.members.last { $0.delegate === adapter }?.membership
      adapter.membership.withLock { $0 = membership }
      adapters.withLock { $0[member.id] = adapter }
      previous = adapter
    }
    // Released here, after the proxy let go of them (their deinit waits out dispatches).
    withExtendedLifetime(gone) {}
  }
}

extension DelegateCFace {
  /// Registers on the proxy, for each typed observer of the multicast, an observer that
  /// hands it the typed arguments of each C call (in its phase), and removes those of
  /// observers gone since the last sync. A call from Swift never reaches the proxy, so
  /// no observer hears a call twice.
  private func bridgeObservers(_ observers: [Int: [DelegateObserver]]) {
    guard !arguments.isEmpty else { return }
    var wanted: [UInt64: (Int, DelegateObserver)] = [:]
    for (index, list) in observers {
      for o in list where o.isActive { wanted[o.registration.id] = (index, o) }
    }
    for (id, entry) in bridged where wanted[id] == nil {
      entry.observer.deactivate()
      proxy.removeObserver(entry.observer.id, for: methods.plans[entry.index].selector)
      bridged[id] = nil
    }
    // In registration order (ids only grow), so C calls reach observers in the order Swift
    // calls do; a dictionary's order differs from run to run.
    for (id, (index, typed)) in wanted.sorted(by: { $0.key < $1.key }) where bridged[id] == nil {
      let plan = methods.plans[index]
      let decode = arguments[index]
      // Holds the typed observer, not the multicast (the proxy is the multicast's).
      let observer = MessageObserver(phase: typed.phase) { snapshot in
        typed.notify(decode(DelegateCFrame(method: plan, invocation: snapshot.invocation)))
      }
      proxy.addObserver(observer, for: plan.selector)
      bridged[id] = (index, observer)
    }
  }
}

/// What the C face reads from its multicast to keep in step.
struct DelegateCSnapshot<Delegate> {
  var members: [DelegateMember<Delegate>]
  var defaultPolicy: ReturnPolicy
  var overrides: [Int: ReturnPolicy]
  var observers: [Int: [DelegateObserver]]
}

/// Flags the adapters of one C face raise for it.
final class DelegateCFaceFlags: Sendable {
  /// A call found its member gone or learned a missing optional method: the next
  /// ``DelegateMulticast/imp(for:)`` or change of the multicast syncs the face.
  let needsSync = Atomic<Bool>(false)
}
