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
/// by it from then on. After ``remove(_:waitingForCallsInFlight:)`` returns, no new call to the removed delegate
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
public final class MulticastProxy: ForwardingProxy, Generational, @unchecked Sendable {
  /// The runtime class of multicast proxies (a root class with no methods), so errors
  /// read `-[MulticastProxy selector]`.
  @usableFromInline package static let multicastClass: RuntimeClass = try! RuntimeClass(
    name: "MulticastProxy")

  struct State {
    var members = MemberList<ProxyMember>()
    var options: MulticastOptions
    var protocolDescription: RuntimeProtocol?
    var defaultPolicy: ReturnPolicy<ReturnValue>
    var overrides: [Selector: ReturnPolicy<ReturnValue>] = [:]
    var observers: [Selector: [MessageObserver]] = [:]
    /// Signatures declared, or remembered from delegates that were members.
    var declared: [Selector: MethodSignature] = [:]
    var generation: UInt64 = 0
    /// The sum of the nested proxies' generations when `generation` last looked.
    var nestedGenerations: UInt64 = 0
    var deliveryErrorHandler: (@Sendable (any Error, RuntimeObject?) -> Void)?
    /// The table last built from this state (the one published).
    var table: ProxyMemberTable
    /// Selectors served by a C route (see FastRoutes.swift).
    var routed: Set<Selector> = []
  }

  // Lock order — take them only in this order, never one on the left while holding one
  // on its right (two past concurrency bugs were ordering bugs):
  //
  //   1. `MulticastNesting.lock` (process-wide; inserting a multicast into a multicast)
  //   2. `state` (this proxy's configuration and membership)
  //   3. the callback adapters' lock (`withCallbackRequirements`, MessageRuntime), taken
  //      under `state` by changes of membership
  //   4. the route writers' lock inside `setRoute`/`removeRoute` (MessageRuntime), taken
  //      briefly under `state` by `rebuildResponders`
  //   5. a delegate's or route's own locks (a `RuntimeObject`'s methods, a
  //      `ProxyMember`'s methods, a `RouteMembership`'s kept methods)
  //
  // No lock is held while a delegate is called, and nothing that may run a delegate's or
  // a proxy's deinit is released under `state` (see `update`): a deinit waits out
  // dispatches, and a dispatch may be waiting for one of these locks. Closure methods a
  // route let go of are released on a queue of their own for the same reason.

  /// The configuration and membership; see the lock order above.
  let state: Lock<State>
  /// The table dispatches read, published lock-free. Replaced only by
  /// `rebuildResponders`, under `state`.
  let published: Publication<ProxyMemberTable>
  /// Set by a dispatch that met a deallocated delegate; cleared by compaction.
  let needsCompaction = Atomic<Bool>(false)

  // MARK: Creating

  /// An empty proxy. `policy` is the default return policy; `protocol`, when given,
  /// supplies signatures for its methods even when no delegate implements them.
  public init(
    policy: ReturnPolicy<ReturnValue> = .lastResponder, options: MulticastOptions = [],
    protocol proto: RuntimeProtocol? = nil,
    proxyClass: RuntimeClass = MulticastProxy.multicastClass
  ) {
    let empty = ProxyMemberTable(
      generation: 0, defaultPolicy: policy, silentWhenEmpty: options.contains(.silentWhenEmpty))
    state = Lock(
      State(options: options, protocolDescription: proto, defaultPolicy: policy, table: empty))
    // Readers retain the table: the forwarding path keeps it across delegate calls.
    published = Publication(empty)
    super.init(proxyClass: proxyClass)
    published.share(domain: UnsafeRawPointer(rawValue))
    update { _ in }
  }

  /// A proxy with `delegates`, in order (`initWithDelegates:`). Throws when two of them
  /// implement a selector with different signatures.
  public convenience init(
    delegates: [RuntimeObject], policy: ReturnPolicy<ReturnValue> = .lastResponder,
    options: MulticastOptions = [],
    protocol proto: RuntimeProtocol? = nil, retention: Retention = .weak
  ) throws(DelegateProxyError) {
    self.init(policy: policy, options: options, protocol: proto)
    for d in delegates { try add(d, retention: retention) }
  }

  deinit {
    // Messages that still arrive through the handle while it is being deallocated — on a
    // C route, whose entry runs no Swift code — reach no delegate and answer zero.
    for m in state.withLock({ $0.members.records }) { m.markRemoved() }
    finishObservers()
  }

  // MARK: Configuration

  /// The policy for selectors without an override of their own.
  public var defaultPolicy: ReturnPolicy<ReturnValue> {
    get { enginePolicy }
    set { enginePolicy = newValue }
  }

  /// Sets the policy for one selector (nil returns it to the default).
  public func setPolicy(_ policy: ReturnPolicy<ReturnValue>?, for selector: Selector) {
    setPolicy(policy, forKey: selector)
  }

  /// The policy in force for `selector`.
  public func policy(for selector: Selector) -> ReturnPolicy<ReturnValue> {
    policy(forKey: selector)
  }

  /// Whether a message no delegate answers is dropped instead of raising an
  /// unrecognized-selector error under ``ReturnPolicy/lastResponder`` (`AIMultiDelegate`).
  public var silentWhenEmpty: Bool {
    get { state.withLock { $0.options.contains(.silentWhenEmpty) } }
    set {
      update { s in
        if newValue {
          s.options.insert(.silentWhenEmpty)
        } else {
          s.options.remove(.silentWhenEmpty)
        }
      }
    }
  }

  /// The proxy's options.
  public var options: MulticastOptions { state.withLock { $0.options } }

  /// The protocol whose method signatures the proxy knows without any delegate.
  public var declaredProtocol: RuntimeProtocol? { state.withLock { $0.protocolDescription } }

  /// Sets (or clears) the protocol. Throws when a member implements one of its methods
  /// with another signature.
  public func setProtocol(_ proto: RuntimeProtocol?) throws(DelegateProxyError) {
    try update { s throws(DelegateProxyError) in
      if let proto {
        for r in proto.allRequirements {
          for e in s.members.records where !e.isRemoved && e.isAlive {
            if let sig = e.methods[r.selector],
              let conflict = Self.signatureConflict(
                r.selector, sig, e.delegateClass.name, new: r.signature, "protocol <\(proto.name)>")
            {
              throw conflict
            }
          }
        }
      }
      s.protocolDescription = proto
    }
  }

  /// Declares the signature messages named `selector` have, so the proxy can accept
  /// them (and drop them when ``silentWhenEmpty``) even when no delegate implements
  /// them. Throws when a member implements it with another signature.
  public func declare(_ selector: Selector, signature: MethodSignature) throws(DelegateProxyError) {
    try update { s throws(DelegateProxyError) in
      for e in s.members.records where !e.isRemoved && e.isAlive {
        if let sig = e.methods[selector],
          let conflict = Self.signatureConflict(
            selector, sig, e.delegateClass.name, new: signature, "declaration")
        {
          throw conflict
        }
      }
      s.declared[selector] = signature
    }
  }

  /// Declares a typed message's signature (see ``declare(_:signature:)``).
  public func declare<R, each A: MessageArgument>(_ message: Message<R, repeat each A>)
    throws(DelegateProxyError)
  {
    try declare(message.selector, signature: message.signature)
  }

  /// Called with errors a delegate raises when called on its queue (there is no sender
  /// to receive them), with that delegate (nil once it is gone). Nil (the default) drops
  /// them.
  public var deliveryErrorHandler: (@Sendable (any Error, RuntimeObject?) -> Void)? {
    get { state.withLock { $0.deliveryErrorHandler } }
    set { state.withLock { $0.deliveryErrorHandler = newValue } }
  }

  // MARK: Queries

  /// The live delegates, in order (a delegate added twice appears twice).
  public var delegates: [RuntimeObject] { liveDelegates }

  /// The live delegates that are instances of `type` (a runtime object's Swift class or a
  /// subclass), in order: code that added its own object finds it again.
  public func members<T: RuntimeObject>(ofType type: T.Type) -> [T] {
    liveDelegates(ofType: type)
  }

  /// The first live delegate that is an instance of `type` (see ``members(ofType:)``).
  public func first<T: RuntimeObject>(ofType type: T.Type) -> T? {
    firstLiveDelegate(ofType: type)
  }

  /// The membership records, in order, dead ones included until compacted.
  package var members: [ProxyMember] { currentTable.members.filter { !$0.isRemoved } }

  /// How many live memberships the proxy has (`count`).
  public var count: Int { liveCount }

  /// How many live delegates are instances of `cls` or a subclass (`countOfClass:`).
  public func count(ofClass cls: RuntimeClass) -> Int {
    liveEntries.count { $0.delegate?.runtimeClass.isSubclass(of: cls) ?? false }
  }

  /// How many live delegates implement `selector` (`countForSelector:`).
  public func count(respondingTo selector: Selector) -> Int {
    currentTable.list(for: selector).responders.count { responds($0, to: selector) }
  }

  /// Whether some live delegate implements `selector` (`hasDelegateThatRespondsToSelector:`).
  public func hasDelegate(respondingTo selector: Selector) -> Bool {
    currentTable.list(for: selector).responders.contains { responds($0, to: selector) }
  }

  /// Whether `delegate` is a live member.
  public func contains(_ delegate: RuntimeObject) -> Bool {
    containsLive { $0.holds(delegate) }
  }

  private var liveEntries: [ProxyMember] {
    currentTable.members.filter { !$0.isRemoved && $0.isAlive }
  }

  /// Whether a record's delegate is alive, not removed and answers `selector`.
  func responds(_ entry: ProxyMember, to selector: Selector) -> Bool {
    guard !entry.isRemoved, let d = entry.delegate else { return false }
    return !entry.isForwarder || d.responds(to: selector)
  }

  /// A number that changes whenever the proxy's answers to `responds(to:)` may have
  /// changed (membership, protocol, declarations, observers). Delegators that cache
  /// `responds(to:)` (as UIKit does) re-ask when it differs from the one they saw.
  public var generation: UInt64 { engineGeneration }

  // MARK: Forwarding hooks

  /// The signature for `selector`: the proxy's own method's, else the first delegate's
  /// that implements it, else the protocol's, else a declared or remembered one. An
  /// empty ``silentWhenEmpty`` proxy accepts any message as `void` with object arguments
  /// (`AIMultiDelegate`'s "any signature") — declare a protocol to be exact.
  public override func methodSignature(for selector: Selector) -> MethodSignature? {
    let table = currentTable
    if let known = knownSignature(for: selector, in: table) { return known }
    if table.silentWhenEmpty && !table.hasLiveMembers {
      return MulticastOptions.silentSignature(for: selector)
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
  private func knownSignature(for selector: Selector, in table: ProxyMemberTable)
    -> MethodSignature?
  {
    if let own = super.methodSignature(for: selector) { return own }
    let list = table.list(for: selector)
    if let signature = list.signature { return signature }
    for f in list.responders where responds(f, to: selector) {
      if let signature = f.delegate?.methodSignature(for: selector) { return signature }
    }
    return nil
  }

  /// True when a live delegate implements `selector`, when the proxy has a method of its
  /// own for it, or when it is a void method with a known signature that has observers.
  public override func responds(to selector: Selector) -> Bool {
    let list = currentTable.list(for: selector)
    if list.responders.contains(where: { responds($0, to: selector) }) { return true }
    if list.hasObservers, let sig = list.signature, sig.returnsVoid { return true }
    return ownResponds(to: selector)
  }

  private func ownResponds(to selector: Selector) -> Bool {
    // Route entries are per-object methods too, but they answer for the delegates.
    runtimeClass.instancesRespond(to: selector) || Runtime.answersForItself(selector)
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
  /// `deliver(_:list:silentWhenEmpty:gathering:)`).
  public override func forwardInvocation(_ invocation: Invocation) throws {
    guard let selector = invocation.selector else {
      throw RuntimeError.invocationIncomplete("the selector is not set")
    }
    let table = currentTable
    let list = table.list(for: selector)
    try Quiescence.readSection(published.domain) { () throws -> Void in
      try deliver(invocation, list: list, silentWhenEmpty: table.silentWhenEmpty, gathering: nil)
    }
    compactIfNeeded()
  }

  // MARK: The responder table

  /// The table dispatches read now.
  var currentTable: ProxyMemberTable { published.current }

  /// THE way the proxy changes: applies `change` under the lock, rebuilds and publishes
  /// the responder table, then — outside any lock — retires the table it replaced after a
  /// grace period (see ``Publication``): the records only it held, the last strong
  /// references to removed delegates, are released only then.
  @discardableResult
  func update<R, E: Error>(_ change: (inout State) throws(E) -> R) throws(E) -> R {
    let (result, retired) = try state.withLock { s throws(E) in
      let result = try change(&s)
      return (result, rebuildResponders(&s))
    }
    retired.release()
    return result
  }

  /// `update`, with the change and the rebuild also under the callback adapters' lock
  /// (after `state` in the lock order): a change of membership checks what live adapters
  /// to this proxy need (`CallbackRequirementsView`, passed to `change`).
  func updateMembership<R>(
    _ change: (inout State, CallbackRequirementsView) throws(DelegateProxyError) -> R
  ) throws(DelegateProxyError) -> R {
    let (result, retired) = try state.withLock { s throws(DelegateProxyError) in
      try withCallbackRequirements { adapters throws(DelegateProxyError) in
        let result = try change(&s, adapters)
        return (result, rebuildResponders(&s))
      }
    }
    retired.release()
    return result
  }

  /// THE place a proxy's responder table is rebuilt and published: after every change
  /// of membership (add, insert, remove, compaction), protocol, policy, declaration or
  /// observers. Called by `update`, under the state lock; never calls a delegate.
  private func rebuildResponders(_ s: inout State) -> Retired<ProxyMemberTable> {
    s.members.compact()
    for m in s.members.records { m.flag.adopt(domain: published.domain) }
    needsCompaction.store(false, ordering: .relaxed)
    s.generation &+= 1
    let table = ProxyMemberTable(
      generation: s.generation, members: s.members.records,
      protocolDescription: s.protocolDescription,
      defaultPolicy: s.defaultPolicy, overrides: s.overrides,
      silentWhenEmpty: s.options.contains(.silentWhenEmpty),
      observers: s.observers, declared: s.declared)
    s.table = table
    let retired = published.replace(with: table)
    // The fast path: selectors whose every responder can be called directly get a C
    // route; the rest keep forwardInvocation.
    s.routed = installRoutes(from: table, replacing: s.routed)
    return retired
  }

  /// Compacts if a dispatch met a deallocated delegate (lazy compaction).
  func compactIfNeeded() {
    guard needsCompaction.exchange(false, ordering: .relaxed) else { return }
    update { _ in }
  }

  /// The proxy and its members — class, weak or strong, queue, alive — one per line
  /// (see ``report(for:)`` for one selector).
  public override var description: String { membersDescription }
}

extension MulticastProxy.State: ObservedEngineState {
  /// Every addition is a membership (`AIMultiDelegate`'s rule) unless `.unique` is set.
  func keepsUnique(_ record: ProxyMember) -> Bool {
    options.contains(.unique) && !options.contains(.allowsDuplicates)
  }
}

extension MulticastProxy: MulticastEngine {
  var publishedMembers: [ProxyMember] { currentTable.members }
}
