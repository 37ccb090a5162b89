import MessageRuntime

/// One selector's responder list in a ``ProxyMemberTable``: the delegates that implement it,
/// in order, the signature messages to it have, the policy in force and its observers.
/// (A *route* is something else: the C dispatch MessageRuntime installs for a selector,
/// built from a responder list; see FastRoutes.swift.)
struct ProxyResponderList: Sendable {
  let selector: Selector
  /// Records that implement the selector, in membership order. Forwarders (which are
  /// asked at each message) are interleaved in their place.
  let responders: [ProxyMember]
  /// The signature: the first static responder's, else the protocol's, else declared.
  let signature: MethodSignature?
  let signatureSource: SignatureSource
  let policy: ReturnPolicy<ReturnValue>
  /// Whether `policy` is a per-selector override rather than the default.
  let policyIsOverride: Bool
  let before: [MessageObserver]
  let after: [MessageObserver]

  var hasObservers: Bool { !before.isEmpty || !after.isEmpty }
}

/// An immutable snapshot of a proxy's membership, indexed by selector: what a dispatch
/// reads to send a message straight to the delegates that implement it, without asking
/// each member `responds(to:)` ("cost follows responders, not members").
///
/// A proxy builds a new table in one place (`MulticastProxy.rebuildResponders`) whenever
/// membership, protocol, policies, declarations or observers change, and publishes it
/// whole; a dispatch keeps the table it started with (a snapshot) and checks each
/// record's removed flag before calling it.
final class ProxyMemberTable: Sendable {
  /// Bumped by every rebuild; see `MulticastProxy.generation`.
  let generation: UInt64
  /// Every record, in order, at the time of the rebuild.
  let members: [ProxyMember]
  /// The records whose answers are dynamic (forwarding proxies).
  let forwarders: [ProxyMember]
  /// Each selector's responder list.
  let lists: [Selector: ProxyResponderList]
  let defaultPolicy: ReturnPolicy<ReturnValue>
  let silentWhenEmpty: Bool
  let protocolDescription: RuntimeProtocol?

  /// The table of a proxy with nothing in it.
  init(generation: UInt64, defaultPolicy: ReturnPolicy<ReturnValue>, silentWhenEmpty: Bool) {
    self.generation = generation
    members = []
    forwarders = []
    lists = [:]
    self.defaultPolicy = defaultPolicy
    self.silentWhenEmpty = silentWhenEmpty
    protocolDescription = nil
  }

  /// Builds the table for a proxy's state: one pass over the members to collect
  /// selectors, one to fill each selector's responder list in order.
  init(
    generation: UInt64, members: [ProxyMember], protocolDescription: RuntimeProtocol?,
    defaultPolicy: ReturnPolicy<ReturnValue>, overrides: [Selector: ReturnPolicy<ReturnValue>], silentWhenEmpty: Bool,
    observers: [Selector: [MessageObserver]], declared: [Selector: MethodSignature]
  ) {
    self.generation = generation
    self.members = members
    self.defaultPolicy = defaultPolicy
    self.silentWhenEmpty = silentWhenEmpty
    self.protocolDescription = protocolDescription
    forwarders = members.filter(\.isForwarder)

    let methodsOf = members.map(\.methods)
    var selectors = Set<Selector>()
    for m in methodsOf { selectors.formUnion(m.keys) }
    let requirements = protocolDescription?.allRequirements ?? []
    for r in requirements { selectors.insert(r.selector) }
    selectors.formUnion(overrides.keys)
    selectors.formUnion(observers.keys)
    selectors.formUnion(declared.keys)

    var respondersOf: [Selector: [ProxyMember]] = [:]
    var firstSignature: [Selector: (MethodSignature, String)] = [:]
    for (entry, methods) in zip(members, methodsOf) {
      // A blocked member stays a member but responds to nothing until unblocked.
      if entry.isBlocked { continue }
      if entry.isForwarder {
        for s in selectors { respondersOf[s, default: []].append(entry) }
        continue
      }
      for (s, signature) in methods {
        respondersOf[s, default: []].append(entry)
        if firstSignature[s] == nil { firstSignature[s] = (signature, entry.delegateClass.name) }
      }
    }
    var requirementFor: [Selector: MethodSignature] = [:]
    for r in requirements { requirementFor[r.selector] = r.signature }

    var built: [Selector: ProxyResponderList] = [:]
    built.reserveCapacity(selectors.count)
    for s in selectors {
      let signature: MethodSignature?
      let source: SignatureSource
      if let (sig, cls) = firstSignature[s] {
        (signature, source) = (sig, .delegate(className: cls))
      } else if let sig = requirementFor[s], let p = protocolDescription {
        (signature, source) = (sig, .protocol(name: p.name))
      } else if let sig = declared[s] {
        (signature, source) = (sig, .declared)
      } else {
        (signature, source) = (nil, .none)
      }
      let all = observers[s] ?? []
      built[s] = ProxyResponderList(
        selector: s, responders: respondersOf[s] ?? [], signature: signature,
        signatureSource: source,
        policy: overrides[s] ?? defaultPolicy, policyIsOverride: overrides[s] != nil,
        before: all.filter { $0.phase == .before }, after: all.filter { $0.phase == .after })
    }
    lists = built
  }

  /// The responder list for `selector`; a selector no member implements goes to the
  /// forwarders only (usually none).
  func list(for selector: Selector) -> ProxyResponderList {
    if let l = lists[selector] { return l }
    return ProxyResponderList(
      selector: selector, responders: forwarders, signature: nil, signatureSource: .none,
      policy: defaultPolicy, policyIsOverride: false, before: [], after: [])
  }

  /// Whether some record is still a live member.
  var hasLiveMembers: Bool { members.contains { !$0.isRemoved && $0.isAlive } }
}
