import MessageRuntime

/// Where a route's signature came from.
public enum SignatureSource: Sendable, CustomStringConvertible {
  /// The first delegate (in order) that implements the selector.
  case delegate(className: String)
  /// The proxy's protocol.
  case `protocol`(name: String)
  /// Declared with `declare(_:)`, or remembered from a delegate that has left.
  case declared
  /// No signature is known.
  case none

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    switch self {
    case .delegate(let cls): return "delegate \(cls)"
    case .protocol(let name): return "protocol <\(name)>"
    case .declared: return "declared or remembered"
    case .none: return "none"
    }
  }
}

/// One selector's entry in a ``ResponderTable``: the delegates that implement it, in
/// order, the signature messages to it have, the policy in force and its observers.
struct Route: Sendable {
  let selector: Selector
  /// Records that implement the selector, in membership order. Forwarders (which are
  /// asked at each message) are interleaved in their place.
  let responders: [DelegateEntry]
  /// The signature: the first static responder's, else the protocol's, else declared.
  let signature: MethodSignature?
  let signatureSource: SignatureSource
  let policy: ReturnPolicy
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
final class ResponderTable: Sendable {
  /// Bumped by every rebuild; see `MulticastProxy.generation`.
  let generation: UInt64
  /// Every record, in order, at the time of the rebuild.
  let members: [DelegateEntry]
  /// The records whose answers are dynamic (forwarding proxies).
  let forwarders: [DelegateEntry]
  let routes: [Selector: Route]
  let defaultPolicy: ReturnPolicy
  let silentWhenEmpty: Bool
  let protocolDescription: RuntimeProtocol?

  /// The table of a proxy with nothing in it.
  init(generation: UInt64, defaultPolicy: ReturnPolicy, silentWhenEmpty: Bool) {
    self.generation = generation
    members = []
    forwarders = []
    routes = [:]
    self.defaultPolicy = defaultPolicy
    self.silentWhenEmpty = silentWhenEmpty
    protocolDescription = nil
  }

  /// Builds the table for a proxy's state: one pass over the members to collect
  /// selectors, one to fill each selector's responder list in order.
  init(
    generation: UInt64, members: [DelegateEntry], protocolDescription: RuntimeProtocol?,
    defaultPolicy: ReturnPolicy, overrides: [Selector: ReturnPolicy], silentWhenEmpty: Bool,
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

    var lists: [Selector: [DelegateEntry]] = [:]
    var firstSignature: [Selector: (MethodSignature, String)] = [:]
    for (entry, methods) in zip(members, methodsOf) {
      if entry.isForwarder {
        for s in selectors { lists[s, default: []].append(entry) }
        continue
      }
      for (s, signature) in methods {
        lists[s, default: []].append(entry)
        if firstSignature[s] == nil { firstSignature[s] = (signature, entry.delegateClass.name) }
      }
    }
    var requirementFor: [Selector: MethodSignature] = [:]
    for r in requirements { requirementFor[r.selector] = r.signature }

    var built: [Selector: Route] = [:]
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
      built[s] = Route(
        selector: s, responders: lists[s] ?? [], signature: signature, signatureSource: source,
        policy: overrides[s] ?? defaultPolicy, policyIsOverride: overrides[s] != nil,
        before: all.filter { $0.phase == .before }, after: all.filter { $0.phase == .after })
    }
    routes = built
  }

  /// The route for `selector`; a selector no member implements goes to the forwarders
  /// only (usually none).
  func route(for selector: Selector) -> Route {
    if let r = routes[selector] { return r }
    return Route(
      selector: selector, responders: forwarders, signature: nil, signatureSource: .none,
      policy: defaultPolicy, policyIsOverride: false, before: [], after: [])
  }

  /// Whether some record is still a live member.
  var hasLiveMembers: Bool { members.contains { !$0.isRemoved && $0.isAlive } }
}
