import Dispatch
import MessageRuntime

/// Membership of a ``MulticastProxy``: adding, inserting and removing delegates, the
/// cycle check for nested proxies, and the signature checks every change of membership,
/// protocol or declaration makes.
extension MulticastProxy {
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
  /// and counts them. First in the lock order (see `MulticastProxy.state`): the cycle walk
  /// reads other proxies' tables, and the insertion takes this proxy's `state`. (A value with storage: ThreadSanitizer misreads the exclusive access
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
    "\(runtimeClass.name) <0x\(String(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(rawValue))), radix: 16))>"
  }

  private func insertEntry(
    _ delegate: RuntimeObject, queue: DispatchQueue?, retention: Retention,
    at position: ([DelegateEntry]) -> Int
  ) throws(DelegateProxyError) {
    let entry = DelegateEntry(delegate: delegate, queue: queue, retention: retention)
    try state.withLock { s throws(DelegateProxyError) in
      compact(&s)
      if s.options.contains(.unique), s.entries.contains(where: { $0.holds(delegate) }) { return }
      // Checked and published under the callback adapters' lock: an adapter made at the
      // same time sees the new member, or the member sees the adapter.
      try withCallbackRequirements { adapters throws(DelegateProxyError) in
        if let conflict = conflict(adding: entry, to: s)
          ?? Self.adapterConflict(entry.methods, entry.delegateClass.name, adapters)
        {
          throw conflict
        }
        s.entries.insert(entry, at: position(s.entries))
        for (sel, sig) in entry.methods { s.declared[sel] = sig }
        rebuildResponders(&s)
      }
    }
  }

  /// The conflict `entry` would bring: a selector it implements with another signature
  /// than a live static member or the protocol. Members agree with each other, so the
  /// first live responder in the current table speaks for all of them.
  private func conflict(adding entry: DelegateEntry, to s: State) -> DelegateProxyError? {
    for (sel, sig) in entry.methods {
      if let conflict = protocolConflict(sel, sig, entry.delegateClass.name, in: s) {
        return conflict
      }
      for other in s.table.list(for: sel).responders
      where !other.isForwarder && !other.isRemoved && other.isAlive {
        if let existing = other.methods[sel],
          let conflict = Self.signatureConflict(
            sel, existing, other.delegateClass.name, new: sig, entry.delegateClass.name)
        {
          return conflict
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
      try withCallbackRequirements { adapters throws(DelegateProxyError) in
        compact(&s)
        var seen: [Selector: (MethodSignature, String)] = [:]
        var fresh: [(DelegateEntry, [Selector: MethodSignature])] = []
        for e in s.entries {
          guard let d = e.delegate else { continue }
          let methods = DelegateEntry.implementedMethods(of: d)
          for (sel, sig) in methods {
            if let conflict = protocolConflict(sel, sig, e.delegateClass.name, in: s) {
              throw conflict
            }
            if let (first, owner) = seen[sel],
              let conflict = Self.signatureConflict(
                sel, first, owner, new: sig, e.delegateClass.name)
            {
              throw conflict
            }
            if seen[sel] == nil { seen[sel] = (sig, e.delegateClass.name) }
          }
          if let conflict = Self.adapterConflict(methods, e.delegateClass.name, adapters) {
            throw conflict
          }
          fresh.append((e, methods))
        }
        for (e, methods) in fresh { e.setMethods(methods) }
        rebuildResponders(&s)
      }
    }
  }

  // MARK: Signature conflicts

  /// THE signature check: the conflict between the signature `existingOwner` has for
  /// `selector` and the one `newOwner` brings, or nil when they are the same (interned)
  /// signature. Every membership, protocol and declaration change asks it.
  static func signatureConflict(
    _ selector: Selector, _ existing: MethodSignature, _ existingOwner: String,
    new: MethodSignature, _ newOwner: String
  ) -> DelegateProxyError? {
    guard existing !== new else { return nil }
    return .signatureConflict(
      selector: selector, existingEncoding: existing.encoding, existingOwner: existingOwner,
      newEncoding: new.encoding, newClass: newOwner)
  }

  /// The conflict `owner`'s `methods` would bring with a live `CallbackAdapter` that sends
  /// to this proxy: a selector the adapter's calls decode with other types. Its
  /// `existingOwner` describes the adapter.
  static func adapterConflict(
    _ methods: [Selector: MethodSignature], _ owner: String, _ adapters: CallbackRequirementsView
  ) -> DelegateProxyError? {
    for (sel, sig) in methods {
      if let (expected, adapter) = adapters.conflict(sel, sig) {
        return .signatureConflict(
          selector: sel, existingEncoding: expected.encoding, existingOwner: adapter,
          newEncoding: sig.encoding, newClass: owner)
      }
    }
    return nil
  }

  /// The conflict between the proxy's protocol and `owner`'s signature for `selector`.
  func protocolConflict(
    _ selector: Selector, _ signature: MethodSignature, _ owner: String, in s: State
  ) -> DelegateProxyError? {
    guard let proto = s.protocolDescription, let r = proto.requirement(for: selector) else {
      return nil
    }
    return Self.signatureConflict(
      selector, r.signature, "protocol <\(proto.name)>", new: signature, owner)
  }
}
