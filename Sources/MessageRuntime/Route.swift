// Public: a membership's removed check is inlined into Swift dispatch loops.
public import DelegateProxyCFFIShim
import Synchronization

/// How the results of a route's targets reducer into the sender's result.
package enum RouteReducer: Sendable, Hashable, CustomStringConvertible {
  /// Every target is called; the last one's result is returned.
  case last
  /// Only the first target still present is called; its result is returned.
  case first
  /// Every target is called; the result is 1 if every result is nonzero (an empty
  /// route answers 1). Integer, boolean and pointer results only.
  case allTrue
  /// Every target is called; the result is 1 if any result is nonzero.
  case anyTrue
  /// Every target is called; the first nonzero result is returned (0 if none).
  case firstNonNil

  var raw: dp_reducer {
    switch self {
    case .last: DP_REDUCER_LAST
    case .first: DP_REDUCER_FIRST
    case .allTrue: DP_REDUCER_ALL_TRUE
    case .anyTrue: DP_REDUCER_ANY_TRUE
    case .firstNonNil: DP_REDUCER_FIRST_NON_NIL
    }
  }

  package var description: String {
    switch self {
    case .last: "last"
    case .first: "first"
    case .allTrue: "all true"
    case .anyTrue: "any true"
    case .firstNonNil: "first non-nil"
    }
  }
}

/// Which machinery a route runs on.
public enum RoutePath: Sendable, Hashable {
  /// A static C entry that replays the caller's argument registers to each target.
  case registers
  /// A static C entry that replays the caller's argument registers, its stack-argument
  /// area and its result pointer to each target (x86-64: arguments past the registers,
  /// structs over 16 bytes, up to 16 words of stack arguments).
  case registersAndMemory
  /// A libffi closure per signature that calls each target with `ffi_call` (what no
  /// static entry can replay: a `long double` result, larger stack areas, other ABIs).
  case libffi
}

/// One target's membership in routes: the flag that, once set, stops every dispatch from
/// calling the target — including a dispatch already running on the current thread.
/// Share one membership among all the routes a target is in; mark it removed and publish
/// the new target lists: dispatches that start later skip it, and one already calling it
/// may finish (``Quiescence/waitForCalls(to:)`` waits for those, when a caller must).
///
/// A membership also keeps, for each route the target is in, the closure-backed method the
/// route calls (a method replaced on the target stays callable until the route is set
/// again). It lets go of them — once the route's readers are done, never on the caller's
/// thread — when
/// it is marked removed, when a route stops listing it, or when the route goes: a method
/// closure that captures its proxy makes no cycle once its target is dead or removed.
// @unchecked Sendable: `node` is an immutable pointer to a C record whose one field (the
// removed flag) is atomic, freed after a grace period; the rest is locks.
@usableFromInline
package final class RouteMembership: @unchecked Sendable {
  @usableFromInline package let node: OpaquePointer
  /// What the membership's routes left with it, made by the first route that does: most
  /// memberships — every value member of a `@Delegate` multicast, made again with each copy
  /// of it — never join a C route, and pay no allocation and no deinit work for it.
  private let lazyRoutes = AtomicLazyReference<RouteRecords>()

  struct Weak: Sendable { weak var object: RuntimeObject? }

  /// A membership's receivers and kept methods, under one lock.
  final class RouteRecords: Sendable {
    struct State {
      /// The receivers whose deallocation marks this membership removed.
      var watched: [ObjectIdentifier: (receiver: Weak, token: UInt64)] = [:]
      /// The closure-backed method each route (by identity) calls for this target, and
      /// the route's domain (its receiver's handle, as a number), where it is retired.
      var kept: [ObjectIdentifier: (method: Method, domain: UInt)] = [:]
    }
    let state = Lock(State())
  }

  /// The route records, made on first use (every thread gets the same).
  private var routes: Lock<RouteRecords.State> {
    if let records = lazyRoutes.load() { return records.state }
    return lazyRoutes.storeIfNil(RouteRecords()).state
  }

  /// The domain of the read sections that read the flag (its multicast's, set when it
  /// joins one; the wildcard before that, or once two multicasts share it): where the
  /// flag's C record is retired, so a delegate running long in another multicast does not
  /// delay it.
  private let domain = Atomic<UInt>(0)

  /// A membership that is not removed.
  package init() { node = dp_route_node_create() }

  /// Notes that the read sections of `domain` read this flag (call before the table that
  /// lists it is published).
  package func adopt(domain readers: UnsafeRawPointer) {
    let value = UInt(bitPattern: readers)
    let (exchanged, original) = domain.compareExchange(
      expected: 0, desired: value, ordering: .relaxed)
    if !exchanged && original != value { domain.store(1, ordering: .relaxed) }  // the wildcard
  }

  deinit {
    if let records = lazyRoutes.load() {
      let left = records.state.withLock { $0 }
      for (_, entry) in left.watched {
        entry.receiver.object?.removeDeallocationHandler(entry.token)
      }
      // A route that listed this membership may still be dispatching on another thread.
      Self.release(left.kept.values)
    }
    dp_route_node_retire(node, readDomain)
  }

  /// Keeps `method` (if closure-backed) as what `route` calls for this target, letting go
  /// of what it kept for `route` before; nil lets go. Nothing is kept once removed.
  /// Called after the route's new target list is published.
  func keep(_ method: Method?, forRoute route: ObjectIdentifier, domain: UnsafeRawPointer) {
    // Nothing to let go of and nothing to keep: no records made.
    if method?.closure == nil && lazyRoutes.load() == nil { return }
    let dropped = routes.withLock { r -> (method: Method, domain: UInt)? in
      guard let method, method.closure != nil, !isRemoved else {
        return r.kept.removeValue(forKey: route)
      }
      let old = r.kept.updateValue((method, UInt(bitPattern: domain)), forKey: route)
      return old?.method.closure === method.closure ? nil : old
    }
    if let dropped { Self.release([dropped]) }
  }

  /// Lets go of kept methods once their routes' readers are done.
  private static func release(
    _ methods: some Sequence<(method: Method, domain: UInt)>
  ) {
    for (method, domain) in methods {
      DeferredRelease.release([method], in: UnsafeRawPointer(bitPattern: domain)!)
    }
  }

  /// Marks this membership removed when `receiver` is deallocated, and waits for the
  /// receiver's own calls in flight from routes on other threads before its handle is
  /// freed: a route calls its targets without a reference (the scoped wait,
  /// ``Quiescence/waitForCalls(to:)``; no other member's calls). Idempotent.
  func watch(_ receiver: RuntimeObject) {
    let id = ObjectIdentifier(receiver)
    guard routes.withLock({ $0.watched[id] == nil }) else { return }
    // Weak: a membership going away at the same time needs no marking.
    // The node's address is the identity the wait needs, even once this membership is
    // gone.
    let node = UInt(bitPattern: UnsafeRawPointer(self.node))
    let token = receiver.addDeallocationHandler { [weak self] _ in
      let readers = self?.readDomain ?? Quiescence.everyDomain
      self?.markRemoved()
      Quiescence.waitForCalls(to: UnsafeRawPointer(bitPattern: node)!, in: readers)
    }
    routes.withLock { $0.watched[id] = (Weak(object: receiver), token) }
  }

  /// Stops every dispatch from calling the target from now on. The methods kept for the
  /// target's routes are released after a grace period.
  package func markRemoved() {
    dp_route_node_mark_removed(node)
    // After the flag: `keep` checks it under the same lock, so nothing is kept after this
    // (the records are made here if no route made them yet, so that lock is this one).
    let dropped = routes.withLock { r -> [(method: Method, domain: UInt)] in
      defer { r.kept.removeAll() }
      return Array(r.kept.values)
    }
    Self.release(dropped)
  }

  /// The read sections' domain this flag was adopted by (the wildcard when unknown or
  /// shared): where its calls are made.
  package var readDomain: UnsafeRawPointer {
    let readers = domain.load(ordering: .relaxed)
    return UnsafeRawPointer(bitPattern: readers == 0 ? 1 : readers)!
  }

  /// Whether ``markRemoved()`` was called.
  @inlinable package var isRemoved: Bool { dp_route_node_is_removed_inline(node) }

  /// The flag alone, for dispatch loops that copy it into their tables: valid while this
  /// membership lives (plus a grace period).
  @inlinable package var removedFlag: RemovedFlag { RemovedFlag(node: node) }
}

/// A target of a route: the receiver the message is replayed to, and its membership.
package struct RouteTarget: Sendable {
  /// The receiver. The route keeps only its handle and does not keep it alive; when the
  /// receiver is deallocated its membership is marked removed (and dispatches in flight
  /// on other threads waited out) before the handle is freed.
  package let receiver: RuntimeObject
  /// The flag that gates calls to the receiver.
  package let membership: RouteMembership

  /// A target.
  package init(_ receiver: RuntimeObject, membership: RouteMembership) {
    self.receiver = receiver
    self.membership = membership
  }
}

/// Serialises route writers (see `setRoute`); the value counts route updates.
private let routeWriters = Lock<UInt64>(0)

/// The C route a per-object method serves; retired (freed after a grace period) when
/// the method is replaced or removed.
// @unchecked Sendable: `raw` is a C route whose target list C publishes to dispatches
// atomically (dp_route_set_targets, called only under the route writers' lock) and frees
// once its readers are done; `domain` is an immutable address used only as an identity;
// every other stored property is a `let` of a Sendable type or a lock.
final class RouteBox: @unchecked Sendable {
  let raw: OpaquePointer
  let signature: MethodSignature
  let reducer: RouteReducer
  let path: RoutePath
  /// Whether an emptied route runs the forwarding path (see `setRoute`).
  let forwardsWhenEmpty: Bool
  /// The receiver the route is installed on (its handle): the domain of the read sections
  /// that read the route, where what it lets go of is retired.
  let domain: UnsafeRawPointer
  /// The memberships of the published target list: they own the removed flags the C
  /// list points at and keep the closure methods it calls (`RouteMembership.keep`).
  private let memberships = Lock<[RouteMembership]>([])

  init(
    raw: OpaquePointer, signature: MethodSignature, reducer: RouteReducer, path: RoutePath,
    forwardsWhenEmpty: Bool, domain: UnsafeRawPointer
  ) {
    self.domain = domain
    self.raw = raw
    self.signature = signature
    self.reducer = reducer
    self.path = path
    self.forwardsWhenEmpty = forwardsWhenEmpty
  }

  /// Publishes a new target list, then has each target's membership keep the method it
  /// calls, and members no longer listed let go of theirs (after a grace period: a
  /// dispatch may still run over the old list). Called under the route writers' lock.
  func setTargets(_ targets: [RouteTarget], imps: [dp_imp?], methods: [Method?]) {
    var handles: [dp_id?] = targets.map { $0.receiver.rawValue }
    var nodes: [OpaquePointer?] = targets.map { $0.membership.node }
    var imps = imps
    handles.withUnsafeMutableBufferPointer { h in
      imps.withUnsafeMutableBufferPointer { i in
        nodes.withUnsafeMutableBufferPointer { n in
          dp_route_set_targets(
            raw, UInt32(targets.count), h.baseAddress, i.baseAddress, n.baseAddress)
        }
      }
    }
    let id = ObjectIdentifier(self)
    for (target, method) in zip(targets, methods) {
      target.membership.keep(method, forRoute: id, domain: domain)
    }
    let listed = targets.map(\.membership)
    let old = memberships.withLock { m in
      defer { m = listed }
      return m
    }
    for m in old where !listed.contains(where: { $0 === m }) {
      m.keep(nil, forRoute: id, domain: domain)
    }
  }

  deinit {
    let id = ObjectIdentifier(self)
    for m in memberships.withLock({ $0 }) { m.keep(nil, forRoute: id, domain: domain) }
    dp_route_retire(raw)
  }
}

extension RuntimeObject {
  /// Whether messages with `signature` can be routed with `reducer`, and on which path;
  /// nil when they cannot (a boolean rule on a result that is not an integer or
  /// pointer, a rule other than `.last`/`.first` on the libffi path, or a signature
  /// libffi 3.4.4 cannot call directly).
  package static func routePath(for signature: MethodSignature, reducer: RouteReducer) -> RoutePath?
  {
    let path: RoutePath =
      signature.registerPlan != nil
      ? .registers : signature.memoryReplay != nil ? .registersAndMemory : .libffi
    return canRoute(signature, reducer: reducer, on: path) ? path : nil
  }

  /// Whether a route for `signature` and `reducer` can run on `path`.
  static func canRoute(_ signature: MethodSignature, reducer: RouteReducer, on path: RoutePath)
    -> Bool
  {
    switch path {
    case .registers: if signature.registerPlan == nil { return false }
    case .registersAndMemory: if signature.memoryReplay == nil { return false }
    case .libffi:
      // libffi 3.4.4 misplaces a float for these calls (see SplitFFICall); the route's C
      // loop calls ffi_call directly, so leave them to the general path.
      if signature.splitCall != nil { return false }
    }
    switch reducer {
    case .last, .first:
      return true
    case .allTrue, .anyTrue, .firstNonNil:
      // Boolean readings of word 0 happen in the replay entries, on integer results.
      if signature.returnsVoid { return true }
      return path != .libffi && signature.returnLayout.size <= 8
        && FFIType.scalarCode(signature.returnType) != nil
        && signature.returnType != .float && signature.returnType != .double
    }
  }

  /// Routes `selector`: from now on a message with that selector sent to this object —
  /// from Swift or from C — is replayed, with the sender's own arguments, to each target
  /// in order, and their results reducer by `reducer`. No closure, lock, allocation or
  /// Swift code runs per message on the register path.
  ///
  /// Setting a route again for the same selector, signature and rule swaps its target
  /// list in place. Each target's method is looked up now (a target that forwards is
  /// called through its forwarding IMP); a target changing its methods later is seen when
  /// the route is set again. Throws when a target's method has other types, a target
  /// does not handle the selector, or the rule cannot be routed (see
  /// ``routePath(for:reducer:)``).
  ///
  /// `path` asks for a particular machinery instead of the fastest one the signature
  /// can take — `.libffi` works for every routable signature, which is how tests compare
  /// the paths; asking for a path the signature cannot take throws.
  ///
  /// With `forwardWhenEmpty`, a message that finds every target removed is not answered
  /// with zero but takes this object's forwarding path (`methodSignature(for:)` and
  /// `forwardInvocation(_:)`), as if the selector were not routed: from C through the
  /// forwarding IMP, from Swift senders with their thrown errors. (A Swift sender racing the
  /// removal of the last target may still reach the forwarding IMP, whose errors trap.)
  @discardableResult
  package func setRoute(
    _ selector: Selector, signature: MethodSignature, targets: [RouteTarget], reducer: RouteReducer,
    path: RoutePath? = nil, forwardWhenEmpty: Bool = false
  ) throws(RuntimeError) -> RoutePath {
    // Route changes are rare; one lock keeps a route's list and what it keeps alive in step.
    try routeWriters.withLock { updates throws(RuntimeError) -> RoutePath in
      updates &+= 1
      return try setRouteLocked(
        selector, signature: signature, targets: targets, reducer: reducer, path: path,
        forwardWhenEmpty: forwardWhenEmpty)
    }
  }

  private func setRouteLocked(
    _ selector: Selector, signature: MethodSignature, targets: [RouteTarget], reducer: RouteReducer,
    path requested: RoutePath?, forwardWhenEmpty: Bool
  ) throws(RuntimeError) -> RoutePath {
    let chosen = requested.flatMap {
      RuntimeObject.canRoute(signature, reducer: reducer, on: $0) ? $0 : nil
    }
    guard
      let path = requested == nil
        ? RuntimeObject.routePath(for: signature, reducer: reducer) : chosen
    else {
      let machinery = requested.map { " on the \($0) path" } ?? ""
      throw .invalidSignature(
        encoding: signature.encoding,
        reason: "the \(reducer) rule cannot be routed\(machinery) for this signature")
    }
    var imps: [dp_imp?] = []
    var methods: [Method?] = []
    for target in targets {
      switch try Runtime.dispatch(target.receiver.rawValue, selector) {
      case .method(let imp, let types):
        guard signature.matches(cTypes: types) else {
          throw .signatureMismatch(
            selector: selector, expected: signature.encoding,
            found: types.map { String(cString: $0) } ?? "?")
        }
        imps.append(imp.rawValue)
        methods.append(target.receiver.method(for: selector))
      case .forward(_, let declared):
        guard declared === signature else {
          throw .signatureMismatch(
            selector: selector, expected: signature.encoding, found: declared.encoding)
        }
        imps.append(try Runtime.forwardingIMP(for: signature).rawValue)
        methods.append(nil)  // the forwarding IMP lives as long as the signature
      case .resend(let other):
        // The forwarding IMP re-sends to the forwarding target at each call.
        let declared = other.methodSignature(for: selector)
        guard declared === signature else {
          throw .signatureMismatch(
            selector: selector, expected: signature.encoding, found: declared?.encoding ?? "?")
        }
        imps.append(try Runtime.forwardingIMP(for: signature).rawValue)
        methods.append(nil)
      }
    }
    for target in targets { target.membership.watch(target.receiver) }
    let (box, isNew) = try routeBox(
      for: selector, signature: signature, reducer: reducer, path: path,
      forwardWhenEmpty: forwardWhenEmpty)
    box.setTargets(targets, imps: imps, methods: methods)
    // A new route is installed only now, with its targets: installed first, it would
    // answer messages sent meanwhile with no target at all.
    if isNew {
      let entry = IMP(dp_route_entry(box.raw)!)
      setOwn(Method(selector: selector, signature: signature, imp: entry, route: box))
    }
    return path
  }

  /// The route serving `selector` if it has this signature and rule, else a new one
  /// (`isNew`) for the caller to install as this object's own method for `selector` once
  /// its targets are set.
  private func routeBox(
    for selector: Selector, signature: MethodSignature, reducer: RouteReducer, path: RoutePath,
    forwardWhenEmpty: Bool
  ) throws(RuntimeError) -> (box: RouteBox, isNew: Bool) {
    if let existing = ownMethod(for: selector)?.route, existing.signature === signature,
      existing.reducer == reducer, existing.path == path,
      existing.forwardsWhenEmpty == forwardWhenEmpty
    {
      return (existing, false)
    }
    let fallback = forwardWhenEmpty ? try Runtime.forwardingIMP(for: signature).rawValue : nil
    var ffiEntry: dp_imp? = nil
    if path == .libffi { ffiEntry = try RuntimeObject.libffiRouteEntry(for: signature).rawValue }
    let replay = path == .registersAndMemory ? signature.memoryReplay : nil
    let rc = dp_return_class(signature.registerPlan?.returnClass ?? replay?.returnClass ?? 0)
    guard
      let raw = dp_route_create(
        reducer.raw, rc, UInt32(signature.returnLayout.size),
        UInt32(signature.registerPlan?.fpCount ?? replay?.fpCount ?? Int(DP_FP_REGS)),
        UInt32(replay?.stackWords ?? 0), replay?.indirectResult ?? false,
        path == .libffi ? signature.cif : nil, ffiEntry, fallback, UnsafeRawPointer(rawValue))
    else {
      throw .invalidSignature(
        encoding: signature.encoding, reason: "no route entry for this return class")
    }
    let box = RouteBox(
      raw: raw, signature: signature, reducer: reducer, path: path,
      forwardsWhenEmpty: forwardWhenEmpty, domain: UnsafeRawPointer(rawValue))
    return (box, true)
  }

  private static func libffiRouteEntry(for signature: MethodSignature) throws(RuntimeError) -> IMP {
    try signature.routeEntry.withLock { made throws(RuntimeError) -> IMP in
      if let made { return made }
      var closure: UnsafeMutableRawPointer? = nil
      guard let code = dp_route_ffi_entry_create(signature.cif, &closure) else {
        throw .closureAllocationFailed(encoding: signature.encoding)
      }
      // Lives as long as the (interned, immortal) signature.
      made = IMP(code)
      return made!
    }
  }

  /// Removes the route for `selector` (the class's method, or forwarding, answers again).
  /// Dispatches already running finish on the old route (its memory is reclaimed after
  /// them; nothing waits).
  package func removeRoute(_ selector: Selector) {
    routeWriters.withLock { updates in
      if ownMethod(for: selector)?.route != nil {
        updates &+= 1
        removeMethod(selector)
      }
    }
  }

  /// The path of the route serving `selector`, or nil when it is not routed.
  package func routePath(for selector: Selector) -> RoutePath? {
    ownMethod(for: selector)?.route?.path
  }

  /// How many targets the route for `selector` has (nil when not routed).
  package func routeTargetCount(for selector: Selector) -> Int? {
    ownMethod(for: selector)?.route.map { Int(dp_route_target_count($0.raw)) }
  }
}
