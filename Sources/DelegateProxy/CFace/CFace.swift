import MessageRuntime

/// The C face of a ``DelegateMulticast``: the runtime object C code messages, a
/// ``MulticastProxy`` whose members are the multicast's own members, each seen through a
/// ``CFaceReceiver`` (a receiver whose methods are C functions into Swift) and sharing
/// its record's removed flag — so a removal, or a member found gone by either path, stops
/// the Swift loops and the C routes at the same moment.
///
/// The face keeps no membership of its own: each time the multicast publishes a table it
/// hands the face its members, policies and observers (``adopt(_:)``, under the
/// multicast's lock), and the proxy rebuilds its routes from them in the same step.
final class CFace<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: `adapters`, `bridged` and `appliedPolicies` are touched only
  // under the owning multicast's `state` lock (by `adopt`); the rest is immutable.

  /// The runtime face C messages.
  let proxy: MulticastProxy
  let methods: CFaceMethods
  /// By member id: the member's adapter and the proxy's record of it.
  private var adapters: [UInt64: (adapter: CFaceReceiver<Delegate>, member: ProxyMember)] =
    [:]
  /// By method index: reads a C call's arguments as the method's `Arguments`.
  private let arguments: [@Sendable (__CFaceFrame) -> Any]
  /// The multicast's typed observers as the proxy's observers, by the typed observer's
  /// id: each decodes a C call's arguments for it. A call from Swift never reaches the
  /// proxy, so no observer hears a call twice.
  private var bridged: [UInt64: (index: Int, observer: MessageObserver)] = [:]
  /// The rebuild request of the multicast, raised by adapters.
  private let rebuild: RebuildRequest

  init(
    description: DelegateProtocol<Delegate>, calls: [__CFaceCall<Delegate>],
    entries: [__CFaceFunction?], arguments: [@Sendable (__CFaceFrame) -> Any],
    rebuild: RebuildRequest
  ) throws(DelegateProxyError) {
    let proto = try description.runtimeProtocol()
    guard calls.count == description.methods.count else {
      fatalError(
        "\(description.name): the multicast has \(calls.count) C calls for \(description.methods.count) methods; declare the protocol with @Delegate"
      )
    }
    let plans = description.methods.map { m in
      CFaceMethod(m, signature: proto.requirement(for: m.selector)!.signature)
    }
    // An entry whose guesses do not fit (a parameter it took for a class instance is a
    // struct) is not used: that method's calls go through frames.
    let fitting = description.methods.indices.map { i -> __CFaceFunction? in
      guard i < entries.count, let entry = entries[i], entry.fits(description.methods[i]) else {
        return nil
      }
      return entry
    }
    methods = CFaceMethods(plans: plans, calls: calls, entries: fitting)
    self.arguments = arguments.count == plans.count ? arguments : []
    self.rebuild = rebuild
    // Silent when empty: a C call nobody answers answers zero, as a Swift call answers the
    // method's empty value — a normal state is never a trap, from either face.
    proxy = MulticastProxy(
      policy: .lastResponder, options: .silentWhenEmpty, protocol: proto,
      proxyClass: MulticastProxy.multicastClass, awaitsQueuedAnswers: true)
  }

  /// Gives the proxy the multicast's members (as adapters, in order), its policies and its
  /// observers, in one rebuild of the proxy's table and routes. Called under the
  /// multicast's `state` lock each time it publishes; returns what to do after that lock
  /// (retire the proxy's old table, release adapters of members gone).
  func adopt<Messages>(_ s: DelegateMulticast<Delegate, Messages>.State) -> @Sendable () -> Void {
    var listed: [ProxyMember] = []
    var live = Set<UInt64>()
    for member in s.members.records where !member.isRemoved {
      live.insert(member.id)
      // A blocked member keeps its adapter but is not listed: no C route reaches it.
      if member.isBlocked { continue }
      if let known = adapters[member.id] {
        // Optional methods its class turned out to lack since the last publication.
        if known.adapter.installMethods() {
          known.member.setMethods(ProxyMember.implementedMethods(of: known.adapter))
        }
        listed.append(known.member)
        continue
      }
      let adapter = CFaceReceiver(member: member, methods: methods, rebuild: rebuild)
      // Its calls may decline (a member found gone, a class lacking an optional method).
      member.flag.allowDeclines()
      let record = ProxyMember(
        delegate: adapter, queue: member.queue, retention: .strong, sharing: member)
      adapters[member.id] = (adapter, record)
      listed.append(record)
    }
    let gone = adapters.filter { !live.contains($0.key) }
    for id in gone.keys { adapters[id] = nil }

    var overrides: [Selector: ReturnPolicy<ReturnValue>] = [:]
    for (index, plan) in methods.plans.enumerated() {
      let policy = s.overrides[index] ?? s.defaultPolicy
      // A void method reaches every responder whatever the policy; first responder on the
      // runtime proxy keeps that and, as for a Swift caller, raises nothing when there is
      // no responder (last responder would: AIMultiDelegate's unrecognized selector).
      overrides[plan.selector] = plan.signature.returnsVoid ? .firstResponder : policy
    }
    let retired = proxy.adopt(
      members: listed, overrides: overrides, observers: bridgeObservers(s.observers))
    // The adapters of members gone are released after the proxy's old table (which may
    // still list them) is retired.
    let released = UncheckedSendable(Array(gone.values))
    return {
      retired.release()
      withExtendedLifetime(released) {}
    }
  }

  /// The proxy's observers for the multicast's typed observers: each hands its typed
  /// observer the arguments of each C call, in its phase.
  private func bridgeObservers(_ observers: [Int: [TypedObserver]]) -> [Selector: [MessageObserver]]
  {
    guard !arguments.isEmpty else { return [:] }
    var wanted: [UInt64: (Int, TypedObserver)] = [:]
    for (index, list) in observers {
      for o in list where o.isActive { wanted[o.registration.id] = (index, o) }
    }
    for (id, entry) in bridged where wanted[id] == nil {
      entry.observer.deactivate()
      bridged[id] = nil
    }
    for (id, (index, typed)) in wanted where bridged[id] == nil {
      let plan = methods.plans[index]
      let decode = arguments[index]
      // Holds the typed observer, not the multicast (the proxy is the multicast's).
      let observer = MessageObserver(phase: typed.phase) { snapshot in
        typed.notify(boxed: decode(__CFaceFrame(method: plan, invocation: snapshot.invocation)))
      }
      bridged[id] = (index, observer)
    }
    var bySelector: [Selector: [MessageObserver]] = [:]
    for (_, entry) in bridged.sorted(by: { $0.key < $1.key }) {
      bySelector[methods.plans[entry.index].selector, default: []].append(entry.observer)
    }
    return bySelector
  }
}
