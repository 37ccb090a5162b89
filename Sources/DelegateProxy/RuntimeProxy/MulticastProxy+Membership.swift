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
  /// With ``MulticastOptions/unique``, adding a member again does nothing. Throws
  /// ``DelegateProxyError/cycle(path:)`` when `delegate` is this proxy or a multicast
  /// proxy that contains it (see *Nesting*).
  public func add(
    _ delegate: RuntimeObject, queue: DispatchQueue? = nil, retention: Retention = .weak
  )
    throws(DelegateProxyError)
  {
    try insert(delegate, at: .end, queue: queue, retention: retention)
  }

  /// Inserts `delegate` before `other` (`addDelegate:beforeDelegate:`); when `other` is
  /// nil or not a member, at the end — `AIMultiDelegate`'s rule.
  public func insert(
    _ delegate: RuntimeObject, before other: RuntimeObject?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, at: .before(other), queue: queue, retention: retention)
  }

  /// Inserts `delegate` after `other` (`addDelegate:afterDelegate:`); when `other` is nil
  /// or not a member, at the beginning — `AIMultiDelegate`'s rule.
  public func insert(
    _ delegate: RuntimeObject, after other: RuntimeObject?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, at: .after(other), queue: queue, retention: retention)
  }

  /// Inserts `delegate` at `index` among the live members (clamped to `0...count`).
  public func insert(
    _ delegate: RuntimeObject, at index: Int, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) throws(DelegateProxyError) {
    try insert(delegate, at: .index(index), queue: queue, retention: retention)
  }

  private func insert(
    _ delegate: RuntimeObject, at position: MemberPosition, queue: DispatchQueue?,
    retention: Retention
  ) throws(DelegateProxyError) {
    try insertMember(
      ProxyMember(delegate: delegate, queue: queue, retention: retention), at: position,
      nesting: delegate as? any MulticastNode, sameAs: { $0.holds(delegate) })
  }

  /// The runtime face's check of a new member (see ``MulticastEngine/insertMember(_:at:nesting:sameAs:)``):
  /// its signatures agree with the members', the protocol's and the live callback
  /// adapters' — checked and published under the adapters' lock, so an adapter made at
  /// the same time sees the new member, or the member sees the adapter. Its signatures
  /// are remembered as declared.
  func admit(
    _ member: ProxyMember, to s: inout State, _ adapters: CallbackRequirementsView
  ) throws(DelegateProxyError) {
    if let conflict = conflict(adding: member, to: s)
      ?? Self.adapterConflict(member.methods, member.delegateClass.name, adapters)
    {
      throw conflict
    }
    for (sel, sig) in member.methods { s.declared[sel] = sig }
  }

  /// The conflict `entry` would bring: a selector it implements with another signature
  /// than a live static member or the protocol. Members agree with each other, so the
  /// first live responder in the current table speaks for all of them.
  private func conflict(adding entry: ProxyMember, to s: State) -> DelegateProxyError? {
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

  /// Removes every membership of `delegate` (`removeDelegate:`). When it returns, no call
  /// to `delegate` from this proxy runs or starts on another thread: the proxy's C routes
  /// call their targets without a reference, so — unlike a `@Delegate` multicast's
  /// `remove` — this waits for `delegate`'s own calls in flight (and for nothing else: not
  /// other members, not other multicasts, never the caller's own call; a delegate may
  /// remove itself while being called). Then the caller may drop the object at once. The
  /// `del_timer_sync` rule applies: do not call it holding a lock that a running call of
  /// `delegate` waits for. With `waitingForCallsInFlight` false it does not wait (and
  /// the caller must then keep `delegate` alive until its calls are done). Removing a
  /// non-member does nothing.
  public func remove(_ delegate: RuntimeObject, waitingForCallsInFlight: Bool = true) {
    removeMembers(waitingForCallsInFlight: waitingForCallsInFlight) { $0.holds(delegate) }
  }

  /// Removes `delegate`'s membership on `queue` only (`removeDelegate:delegateQueue:`).
  public func remove(_ delegate: RuntimeObject, queue: DispatchQueue) {
    removeMembers(waitingForCallsInFlight: true) { $0.holds(delegate) && $0.queue === queue }
  }

  /// Removes every delegate (`removeAllDelegates`), with ``remove(_:waitingForCallsInFlight:)``'s guarantee.
  public func removeAll() {
    removeMembers(waitingForCallsInFlight: true) { _ in true }
  }

  /// Mutes `delegate` without removing it (GObject's `g_signal_handler_block`): its
  /// memberships keep their place, queue and retention, but its responder lists leave it
  /// out — no Swift or C path calls it, `respondsToSelector:` does not count it — until
  /// as many ``unblock(_:)`` calls. Dispatches that start after this returns skip it.
  public func block(_ delegate: RuntimeObject) { changeBlock(by: 1) { $0.holds(delegate) } }

  /// Undoes one ``block(_:)``.
  public func unblock(_ delegate: RuntimeObject) { changeBlock(by: -1) { $0.holds(delegate) } }

  /// Whether `delegate` is a member and blocked.
  public func isBlocked(_ delegate: RuntimeObject) -> Bool {
    isBlocked(where: { $0.holds(delegate) })
  }

  /// Re-reads what every member implements, after methods were added to or removed from
  /// a member or its class. Throws (changing nothing) when members now disagree.
  public func reloadMethods() throws(DelegateProxyError) {
    try updateMembership { s, adapters throws(DelegateProxyError) in
      s.members.compact()
      var seen: [Selector: (MethodSignature, String)] = [:]
      var fresh: [(ProxyMember, [Selector: MethodSignature])] = []
      for e in s.members.records {
        guard let d = e.delegate else { continue }
        let methods = ProxyMember.implementedMethods(of: d)
        for (sel, sig) in methods {
          if let conflict = protocolConflict(sel, sig, e.delegateClass.name, in: s) {
            throw conflict
          }
          if let (first, owner) = seen[sel],
            let conflict = Self.signatureConflict(sel, first, owner, new: sig, e.delegateClass.name)
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

  /// The conflict between `owner`'s `methods` and what a live callback adapter to this
  /// proxy needs of them (see `CallbackAdapter`), or nil.
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

extension MulticastProxy: MulticastNode {
  /// How a proxy is named in a cycle: its class and handle.
  var cycleName: String {
    "\(runtimeClass.name) <0x\(String(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(rawValue))), radix: 16))>"
  }
}
