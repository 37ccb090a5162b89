import Dispatch
import MessageRuntime
import Synchronization

/// One object that stands in for an ordered list of delegates: it answers
/// `responds(to:)` for what any of them implements and forwards every message it
/// receives — whatever its signature, from Swift or from C — to the delegates that
/// implement it, under a ``ReturnPolicy`` (`NSProxy` + `forwardInvocation:` multicast).
///
/// ```swift
/// let proxy = MulticastProxy()                      // AIMultiDelegate: last responder wins
/// try proxy.add(tableController)
/// try proxy.add(analytics)                          // held weakly
/// scrollView.delegate = proxy                       // one delegate slot, many listeners
/// ```
///
/// Each reference system is a configuration:
///
/// | system | configuration |
/// | --- | --- |
/// | `AIMultiDelegate` | `MulticastProxy()` (``ReturnPolicy/lastResponder``), ``silentWhenEmpty`` as needed |
/// | `LBDelegateMatrioska` | `MulticastProxy(delegates:policy:)` with ``ReturnPolicy/firstResponder`` |
/// | `GCDMulticastDelegate` | `MulticastProxy(options: .silentWhenEmpty)`, `add(_:queue:)`, `aggregate` / `collect` with a ``Reducer``, ``delegateEnumerator(ofClass:respondingTo:)`` |
/// | `secondaryDelegate` | ``DelegateSlot`` / ``Delegator`` |
/// | `NSHashTable` delegator | `MulticastProxy(options: [.unique, .silentWhenEmpty])` |
///
/// **Membership.** Delegates are held weakly unless added with ``Retention/strong``.
/// A deallocated delegate is skipped at once and its record compacted away at the next
/// change of membership, or right after a dispatch that met it.
///
/// **Dispatch.** Messages go through a per-selector responder table rebuilt whenever
/// membership changes, so a message reaches only the delegates that implement it. A
/// dispatch runs over the table it started with: a delegate added during a dispatch is
/// not called by it; a delegate removed (or deallocated) during a dispatch is not called
/// by it from then on. After ``remove(_:)`` returns, no new call to the removed delegate
/// starts on any thread; a call already running may finish.
///
/// **Nesting.** A multicast proxy may be a member of another (a matrioska). Adding one
/// that would close a cycle — the proxy itself, or a proxy that contains this one directly
/// or through other multicast proxies — throws ``DelegateProxyError/cycle(path:)`` and
/// changes nothing, so no message can recurse through the cycle. Forwarders of other kinds
/// (`ForwardingProxy` subclasses of your own) cannot be looked into: a cycle closed through
/// one of them is not detected, and a message sent into it recurses until the stack
/// overflows, as it would between two `NSProxy` objects forwarding to each other.
///
/// **Methods are read when a delegate is added.** Call ``reloadMethods()`` after giving a
/// member (or its class) new methods. Forwarding members (`ForwardingProxy` subclasses,
/// such as a nested `MulticastProxy`) are asked `responds(to:)` at each message instead.
///
/// All methods are thread-safe. No lock is held while a delegate is called.
// @unchecked Sendable (restating RuntimeObject's): every stored property is a `let` of a
// Sendable type, a `Lock` or an `Atomic`; all mutable state is behind those.
public final class MulticastProxy: ForwardingProxy, RespondsToGeneration, @unchecked Sendable {
  /// Options that change membership and empty-proxy behaviour.
  public struct Options: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt8
    /// Creates options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Each delegate is a member at most once: adding it again does nothing (the
    /// `NSHashTable` delegator's rule).
    public static let unique = Options(rawValue: 1 << 0)
    /// With ``ReturnPolicy/lastResponder``, a message no delegate answers is dropped
    /// instead of raising an unrecognized-selector error (`AIMultiDelegate`'s
    /// `silentWhenEmpty`).
    public static let silentWhenEmpty = Options(rawValue: 1 << 1)
  }

  /// The runtime class of multicast proxies (a root class with no methods), so errors
  /// read `-[MulticastProxy selector]`.
  public static let multicastClass: RuntimeClass = try! RuntimeClass(name: "MulticastProxy")

  struct State {
    var entries: [DelegateEntry] = []
    var options: Options
    var protocolDescription: RuntimeProtocol?
    var defaultPolicy: ReturnPolicy
    var overrides: [Selector: ReturnPolicy] = [:]
    var observers: [Selector: [MessageObserver]] = [:]
    /// Signatures declared, or remembered from delegates that were members.
    var declared: [Selector: MethodSignature] = [:]
    var generation: UInt64 = 0
    var deliveryErrorHandler: (@Sendable (any Error, DelegateEntry) -> Void)?
    /// The table last built from this state (the one published).
    var table: ResponderTable
    /// Selectors served by a C route (see FastRoutes.swift).
    var routed: Set<Selector> = []
  }

  let state: Lock<State>
  /// The table dispatches read. Written only by `rebuildResponders`.
  private let published: Lock<ResponderTable>
  private let generationValue = Atomic<UInt64>(0)
  /// Set by a dispatch that met a deallocated delegate; cleared by compaction.
  let needsCompaction = Atomic<Bool>(false)

  // MARK: Creating

  /// An empty proxy. `policy` is the default return policy; `protocol`, when given,
  /// supplies signatures for its methods even when no delegate implements them.
  public init(
    policy: ReturnPolicy = .lastResponder, options: Options = [],
    protocol proto: RuntimeProtocol? = nil,
    proxyClass: RuntimeClass = MulticastProxy.multicastClass
  ) {
    let empty = ResponderTable(
      generation: 0, defaultPolicy: policy, silentWhenEmpty: options.contains(.silentWhenEmpty))
    state = Lock(
      State(options: options, protocolDescription: proto, defaultPolicy: policy, table: empty))
    published = Lock(empty)
    super.init(proxyClass: proxyClass)
    state.withLock { rebuildResponders(&$0) }
  }

  /// A proxy with `delegates`, in order (`initWithDelegates:`). Throws when two of them
  /// implement a selector with different signatures.
  public convenience init(
    delegates: [RuntimeObject], policy: ReturnPolicy = .lastResponder, options: Options = [],
    protocol proto: RuntimeProtocol? = nil, retention: Retention = .weak
  ) throws(DelegateProxyError) {
    self.init(policy: policy, options: options, protocol: proto)
    for d in delegates { try add(d, retention: retention) }
  }

  deinit {
    // Messages that still arrive through the handle while it is being deallocated — on a
    // C route, whose entry runs no Swift code — reach no delegate and answer zero.
    let (entries, observers) = state.withLock { ($0.entries, $0.observers.values.flatMap { $0 }) }
    for e in entries { e.markRemoved() }
    for o in observers { o.finish?() }
  }

  // MARK: Configuration

  /// The policy for selectors without an override of their own.
  public var defaultPolicy: ReturnPolicy {
    get { state.withLock { $0.defaultPolicy } }
    set { configure { $0.defaultPolicy = newValue } }
  }

  /// Sets the policy for one selector (nil returns it to the default).
  public func setPolicy(_ policy: ReturnPolicy?, for selector: Selector) {
    configure { $0.overrides[selector] = policy }
  }

  /// The policy in force for `selector`.
  public func policy(for selector: Selector) -> ReturnPolicy {
    currentTable.route(for: selector).policy
  }

  /// Whether a message no delegate answers is dropped instead of raising an
  /// unrecognized-selector error under ``ReturnPolicy/lastResponder`` (`AIMultiDelegate`).
  public var silentWhenEmpty: Bool {
    get { state.withLock { $0.options.contains(.silentWhenEmpty) } }
    set {
      configure { s in
        if newValue {
          s.options.insert(.silentWhenEmpty)
        } else {
          s.options.remove(.silentWhenEmpty)
        }
      }
    }
  }

  /// The proxy's options.
  public var options: Options { state.withLock { $0.options } }

  /// The protocol whose method signatures the proxy knows without any delegate.
  public var declaredProtocol: RuntimeProtocol? { state.withLock { $0.protocolDescription } }

  /// Sets (or clears) the protocol. Throws when a member implements one of its methods
  /// with another signature.
  public func setProtocol(_ proto: RuntimeProtocol?) throws(DelegateProxyError) {
    try state.withLock { s throws(DelegateProxyError) in
      if let proto {
        for r in proto.allRequirements {
          for e in s.entries where !e.isRemoved && e.isAlive {
            if let sig = e.methods[r.selector], sig !== r.signature {
              throw .signatureConflict(
                selector: r.selector, existingEncoding: sig.encoding,
                existingOwner: e.delegateClass.name,
                newEncoding: r.signature.encoding, newClass: "protocol <\(proto.name)>")
            }
          }
        }
      }
      s.protocolDescription = proto
      rebuildResponders(&s)
    }
  }

  /// Declares the signature messages named `selector` have, so the proxy can accept
  /// them (and drop them when ``silentWhenEmpty``) even when no delegate implements
  /// them. Throws when a member implements it with another signature.
  public func declare(_ selector: Selector, signature: MethodSignature) throws(DelegateProxyError) {
    try state.withLock { s throws(DelegateProxyError) in
      for e in s.entries where !e.isRemoved && e.isAlive {
        if let sig = e.methods[selector], sig !== signature {
          throw .signatureConflict(
            selector: selector, existingEncoding: sig.encoding, existingOwner: e.delegateClass.name,
            newEncoding: signature.encoding, newClass: "declaration")
        }
      }
      s.declared[selector] = signature
      rebuildResponders(&s)
    }
  }

  /// Declares a typed message's signature (see ``declare(_:signature:)``).
  public func declare<R, each A: MessageArgument>(_ message: Message<R, repeat each A>)
    throws(DelegateProxyError)
  {
    try declare(message.selector, signature: message.signature)
  }

  /// Called with errors a delegate raises when called on its queue (there is no sender
  /// to receive them). Nil (the default) drops them.
  public var deliveryErrorHandler: (@Sendable (any Error, DelegateEntry) -> Void)? {
    get { state.withLock { $0.deliveryErrorHandler } }
    set { state.withLock { $0.deliveryErrorHandler = newValue } }
  }

  // MARK: Membership

  /// Adds `delegate` at the end (`addDelegate:`). With `queue`, the delegate is called
  /// asynchronously on that queue (`addDelegate:delegateQueue:`). Throws
  /// ``DelegateProxyError/signatureConflict(selector:existingEncoding:existingOwner:newEncoding:newClass:)``
  /// when it implements a selector with another signature than the members present.
  /// With ``Options/unique``, adding a member again does nothing. Throws
  /// ``DelegateProxyError/cycle(path:)`` when `delegate` is this proxy or a multicast
  /// proxy that contains it (see *Nesting*).
  public func add(
    _ delegate: RuntimeObject, queue: DispatchQueue? = nil, retention: Retention = .weak
  )
    throws(DelegateProxyError)
  {
    try insert(delegate, queue: queue, retention: retention) { entries in entries.count }
  }

  /// Inserts `delegate` before `other` (`addDelegate:beforeDelegate:`); when `other` is
  /// nil or not a member, at the end — `AIMultiDelegate`'s rule.
  public func insert(
    _ delegate: RuntimeObject, before other: RuntimeObject?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, queue: queue, retention: retention) { entries in
      other.flatMap { o in entries.firstIndex { $0.holds(o) } } ?? entries.count
    }
  }

  /// Inserts `delegate` after `other` (`addDelegate:afterDelegate:`); when `other` is nil
  /// or not a member, at the beginning — `AIMultiDelegate`'s rule.
  public func insert(
    _ delegate: RuntimeObject, after other: RuntimeObject?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, queue: queue, retention: retention) { entries in
      other.flatMap { o in entries.firstIndex { $0.holds(o) }.map { $0 + 1 } } ?? 0
    }
  }

  /// Inserts `delegate` at `index` among the live members (clamped to `0...count`).
  public func insert(
    _ delegate: RuntimeObject, at index: Int, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, queue: queue, retention: retention) { entries in
      min(max(index, 0), entries.count)
    }
  }

  private func insert(
    _ delegate: RuntimeObject, queue: DispatchQueue?, retention: Retention,
    at position: ([DelegateEntry]) -> Int
  ) throws(DelegateProxyError) {
    guard let nested = delegate as? MulticastProxy else {
      try insertEntry(delegate, queue: queue, retention: retention, at: position)
      return
    }
    // A multicast proxy as a member: refuse a cycle. One process-wide lock covers the
    // check and the insertion, so two threads cannot each close half of a cycle. The
    // proxies the walk reached are released after the lock (one may be deallocated then).
    var reached: [MulticastProxy] = []
    try MulticastProxy.nesting.withLock { insertions throws(DelegateProxyError) in
      if let cycle = cycle(adding: nested, reached: &reached) {
        throw .cycle(path: cycle.map(\.cycleName))
      }
      try insertEntry(delegate, queue: queue, retention: retention, at: position)
      insertions &+= 1
    }
    withExtendedLifetime(reached) {}
  }

  /// Serialises the insertions of multicast proxies into multicast proxies (see `insert`),
  /// and counts them. (A value with storage: ThreadSanitizer misreads the exclusive access
  /// to a zero-sized `Lock<()>` value as a race.)
  private static let nesting = Lock<UInt64>(0)

  /// The cycle adding `nested` would make: the proxies from this one through `nested` and
  /// its member multicast proxies (depth first, in order) back to this one; nil if none.
  /// Members of other kinds are not looked into: a `ForwardingProxy` subclass is opaque.
  private func cycle(adding nested: MulticastProxy, reached: inout [MulticastProxy])
    -> [MulticastProxy]?
  {
    var visited: Set<ObjectIdentifier> = []
    func walk(_ proxy: MulticastProxy, _ path: [MulticastProxy]) -> [MulticastProxy]? {
      if proxy === self { return path + [proxy] }
      guard visited.insert(ObjectIdentifier(proxy)).inserted else { return nil }
      for entry in proxy.currentTable.members where !entry.isRemoved {
        guard let member = entry.delegate as? MulticastProxy else { continue }
        reached.append(member)
        if let found = walk(member, path + [proxy]) { return found }
      }
      return nil
    }
    return walk(nested, [self])
  }

  /// How a proxy is named in a cycle: its class and handle.
  var cycleName: String {
    "\(runtimeClass.name) <0x\(String(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(cObject))), radix: 16))>"
  }

  private func insertEntry(
    _ delegate: RuntimeObject, queue: DispatchQueue?, retention: Retention,
    at position: ([DelegateEntry]) -> Int
  ) throws(DelegateProxyError) {
    let entry = DelegateEntry(delegate: delegate, queue: queue, retention: retention)
    try state.withLock { s throws(DelegateProxyError) in
      compact(&s)
      if s.options.contains(.unique), s.entries.contains(where: { $0.holds(delegate) }) { return }
      if let conflict = conflict(adding: entry, to: s) { throw conflict }
      s.entries.insert(entry, at: position(s.entries))
      for (sel, sig) in entry.methods { s.declared[sel] = sig }
      rebuildResponders(&s)
    }
  }

  /// The conflict `entry` would bring: a selector it implements with another signature
  /// than a live static member or the protocol. Members agree with each other, so the
  /// first live responder in the current table speaks for all of them.
  private func conflict(adding entry: DelegateEntry, to s: State) -> DelegateProxyError? {
    for (sel, sig) in entry.methods {
      if let r = s.protocolDescription?.requirement(for: sel), r.signature !== sig {
        return .signatureConflict(
          selector: sel, existingEncoding: r.signature.encoding,
          existingOwner: "protocol <\(s.protocolDescription!.name)>",
          newEncoding: sig.encoding, newClass: entry.delegateClass.name)
      }
      for other in s.table.route(for: sel).responders
      where !other.isForwarder && !other.isRemoved && other.isAlive {
        if let existing = other.methods[sel], existing !== sig {
          return .signatureConflict(
            selector: sel, existingEncoding: existing.encoding,
            existingOwner: other.delegateClass.name,
            newEncoding: sig.encoding, newClass: entry.delegateClass.name)
        }
        break
      }
    }
    return nil
  }

  /// Removes every membership of `delegate` (`removeDelegate:`). When it returns, no new
  /// call to `delegate` starts on any thread (a call already running may finish; a
  /// delegate may remove itself while being called). Removing a non-member does nothing.
  public func remove(_ delegate: RuntimeObject) {
    removeEntries { $0.holds(delegate) }
  }

  /// Removes `delegate`'s membership on `queue` only (`removeDelegate:delegateQueue:`).
  public func remove(_ delegate: RuntimeObject, queue: DispatchQueue) {
    removeEntries { $0.holds(delegate) && $0.queue === queue }
  }

  /// Removes every delegate (`removeAllDelegates`), with ``remove(_:)``'s guarantee.
  public func removeAll() {
    removeEntries { _ in true }
  }

  /// Marks the matching records removed and publishes a table without them (under the
  /// lock), then waits — outside any lock — until no dispatch that could still see them
  /// is running on another thread. The records and the old table (the last strong
  /// references to strongly held delegates) are released only then: a delegate's deinit
  /// waits out dispatches too, and one of them may be waiting for this proxy's lock.
  private func removeEntries(where match: (DelegateEntry) -> Bool) {
    let released = state.withLock { s -> (gone: [DelegateEntry], old: ResponderTable)? in
      let gone = s.entries.filter(match)
      guard !gone.isEmpty else { return nil }
      for e in gone { e.markRemoved() }
      let old = s.table
      rebuildResponders(&s)
      return (gone, old)
    }
    guard let released else { return }
    Quiescence.synchronize()
    withExtendedLifetime(released) {}
  }

  /// Re-reads what every member implements, after methods were added to or removed from
  /// a member or its class. Throws (changing nothing) when members now disagree.
  public func reloadMethods() throws(DelegateProxyError) {
    try state.withLock { s throws(DelegateProxyError) in
      compact(&s)
      var seen: [Selector: (MethodSignature, String)] = [:]
      var fresh: [(DelegateEntry, [Selector: MethodSignature])] = []
      for e in s.entries {
        guard let d = e.delegate else { continue }
        let methods = DelegateEntry.implementedMethods(of: d)
        for (sel, sig) in methods {
          if let r = s.protocolDescription?.requirement(for: sel), r.signature !== sig {
            throw .signatureConflict(
              selector: sel, existingEncoding: r.signature.encoding,
              existingOwner: "protocol <\(s.protocolDescription!.name)>",
              newEncoding: sig.encoding, newClass: e.delegateClass.name)
          }
          if let (first, owner) = seen[sel], first !== sig {
            throw .signatureConflict(
              selector: sel, existingEncoding: first.encoding, existingOwner: owner,
              newEncoding: sig.encoding,
              newClass: e.delegateClass.name)
          }
          if seen[sel] == nil { seen[sel] = (sig, e.delegateClass.name) }
        }
        fresh.append((e, methods))
      }
      for (e, methods) in fresh { e.setMethods(methods) }
      rebuildResponders(&s)
    }
  }

  // MARK: Queries

  /// The live delegates, in order (a delegate added twice appears twice).
  public var delegates: [RuntimeObject] {
    currentTable.members.compactMap { $0.isRemoved ? nil : $0.delegate }
  }

  /// The membership records, in order, dead ones included until compacted.
  public var members: [DelegateEntry] { currentTable.members.filter { !$0.isRemoved } }

  /// How many live memberships the proxy has (`count`).
  public var count: Int { liveEntries.count }

  /// How many live delegates are instances of `cls` or a subclass (`countOfClass:`).
  public func count(ofClass cls: RuntimeClass) -> Int {
    liveEntries.count { $0.delegate?.runtimeClass.isSubclass(of: cls) ?? false }
  }

  /// How many live delegates implement `selector` (`countForSelector:`).
  public func count(respondingTo selector: Selector) -> Int {
    currentTable.route(for: selector).responders.count { responds($0, to: selector) }
  }

  /// Whether some live delegate implements `selector` (`hasDelegateThatRespondsToSelector:`).
  public func hasDelegate(respondingTo selector: Selector) -> Bool {
    currentTable.route(for: selector).responders.contains { responds($0, to: selector) }
  }

  /// Whether `delegate` is a live member.
  public func contains(_ delegate: RuntimeObject) -> Bool {
    currentTable.members.contains { !$0.isRemoved && $0.holds(delegate) }
  }

  private var liveEntries: [DelegateEntry] {
    currentTable.members.filter { !$0.isRemoved && $0.isAlive }
  }

  /// Whether a record's delegate is alive, not removed and answers `selector`.
  func responds(_ entry: DelegateEntry, to selector: Selector) -> Bool {
    guard !entry.isRemoved, let d = entry.delegate else { return false }
    return !entry.isForwarder || d.responds(to: selector)
  }

  /// A number that changes whenever the proxy's answers to `responds(to:)` may have
  /// changed (membership, protocol, declarations, observers). Delegators that cache
  /// `responds(to:)` (as UIKit does) re-ask when it differs from the one they saw.
  public var generation: UInt64 { generationValue.load(ordering: .acquiring) }

  /// ``generation``, for ``RespondsToGeneration``.
  public var respondsToGeneration: UInt64 { generation }

  // MARK: Forwarding hooks

  /// The signature for `selector`: the proxy's own method's, else the first delegate's
  /// that implements it, else the protocol's, else a declared or remembered one. An
  /// empty ``silentWhenEmpty`` proxy accepts any message as `void` with object arguments
  /// (`AIMultiDelegate`'s "any signature") — declare a protocol to be exact.
  public override func methodSignature(for selector: Selector) -> MethodSignature? {
    let table = currentTable
    if let known = knownSignature(for: selector, in: table) { return known }
    if table.silentWhenEmpty && !table.hasLiveMembers {
      return try? MethodSignature.make(
        returnType: .void,
        arguments: [.object, .selector] + Array(repeating: .object, count: selector.argumentCount))
    }
    return nil
  }

  /// The signature for a message a Swift sender declared (a typed `Message`, an
  /// `Invocation`): what ``methodSignature(for:)`` knows, else — under
  /// ``silentWhenEmpty`` — the sender's own, so that a message no member implements is
  /// dropped whatever its argument types, members present or not.
  public override func methodSignature(for selector: Selector, proposed: MethodSignature)
    -> MethodSignature?
  {
    let table = currentTable
    if let known = knownSignature(for: selector, in: table) { return known }
    return table.silentWhenEmpty ? proposed : methodSignature(for: selector)
  }

  /// The proxy's own method's signature, else the selector's in `table` (protocol,
  /// declared or remembered), else the first live responder's.
  private func knownSignature(for selector: Selector, in table: ResponderTable)
    -> MethodSignature?
  {
    if let own = super.methodSignature(for: selector) { return own }
    let route = table.route(for: selector)
    if let signature = route.signature { return signature }
    for f in route.responders where responds(f, to: selector) {
      if let signature = f.delegate?.methodSignature(for: selector) { return signature }
    }
    return nil
  }

  /// True when a live delegate implements `selector`, when the proxy has a method of its
  /// own for it, or when it is a void method with a known signature that has observers.
  public override func responds(to selector: Selector) -> Bool {
    let route = currentTable.route(for: selector)
    if route.responders.contains(where: { responds($0, to: selector) }) { return true }
    if route.hasObservers, let sig = route.signature, sig.returnsVoid { return true }
    return ownResponds(to: selector)
  }

  private func ownResponds(to selector: Selector) -> Bool {
    // Route entries are per-object methods too, but they answer for the delegates.
    runtimeClass.instancesRespond(to: selector)
      || (ownMethods.contains { $0.selector == selector } && routePath(for: selector) == nil)
  }

  /// True when the proxy's protocol inherits from `proto`, the proxy itself declares it,
  /// or a live delegate conforms (`LBDelegateMatrioska`).
  public override func conforms(to proto: RuntimeProtocol) -> Bool {
    if super.conforms(to: proto) { return true }
    let table = currentTable
    if let p = table.protocolDescription, p.inherits(from: proto) { return true }
    return table.members.contains { !$0.isRemoved && ($0.delegate?.conforms(to: proto) ?? false) }
  }

  /// Delivers a message to the responders under the selector's policy (see
  /// `deliver(_:route:silentWhenEmpty:gathering:)`).
  public override func forwardInvocation(_ invocation: Invocation) throws {
    guard let selector = invocation.selector else {
      throw RuntimeError.invocationIncomplete("the selector is not set")
    }
    let table = currentTable
    let route = table.route(for: selector)
    try Quiescence.readSection { () throws -> Void in
      try deliver(invocation, route: route, silentWhenEmpty: table.silentWhenEmpty, gathering: nil)
    }
    compactIfNeeded()
  }

  // MARK: The responder table

  /// The table dispatches read now.
  var currentTable: ResponderTable { published.withLock { $0 } }

  /// Drops removed and dead records (marking dead ones removed). Called under the lock.
  private func compact(_ s: inout State) {
    s.entries.removeAll { e in
      if e.isRemoved { return true }
      if !e.isAlive {
        e.markRemoved()
        return true
      }
      return false
    }
  }

  /// THE place a proxy's responder table is rebuilt and published: after every change
  /// of membership (add, insert, remove, compaction), protocol, policy, declaration or
  /// observers. Called with the state lock held; never calls a delegate.
  func rebuildResponders(_ s: inout State) {
    compact(&s)
    needsCompaction.store(false, ordering: .relaxed)
    s.generation &+= 1
    let table = ResponderTable(
      generation: s.generation, members: s.entries, protocolDescription: s.protocolDescription,
      defaultPolicy: s.defaultPolicy, overrides: s.overrides,
      silentWhenEmpty: s.options.contains(.silentWhenEmpty),
      observers: s.observers, declared: s.declared)
    s.table = table
    published.withLock { $0 = table }
    // The fast path: selectors whose every responder can be called directly get a C
    // route; the rest keep forwardInvocation.
    s.routed = installRoutes(from: table, replacing: s.routed)
    generationValue.store(s.generation, ordering: .releasing)
  }

  /// Applies a configuration change and rebuilds.
  private func configure(_ change: (inout State) -> Void) {
    state.withLock { s in
      change(&s)
      rebuildResponders(&s)
    }
  }

  /// Compacts if a dispatch met a deallocated delegate (lazy compaction).
  func compactIfNeeded() {
    guard needsCompaction.load(ordering: .relaxed) else { return }
    state.withLock { s in
      guard needsCompaction.exchange(false, ordering: .relaxed) else { return }
      rebuildResponders(&s)
    }
  }

  /// The proxy and its members — class, weak or strong, queue, alive — one per line
  /// (see ``report(for:)`` for one selector).
  public override var description: String { membersDescription }

  // MARK: Observers (storage)

  func addObserver(_ observer: MessageObserver, for selector: Selector) {
    configure { $0.observers[selector, default: []].append(observer) }
  }

  func removeObserver(_ id: UInt64, for selector: Selector) {
    configure { s in
      s.observers[selector]?.removeAll { $0.id == id }
      if s.observers[selector]?.isEmpty == true { s.observers[selector] = nil }
    }
  }
}
