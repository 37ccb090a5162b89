import Dispatch

extension DelegateMulticast {
  /// Adds `delegate` at the end, held as `retention` says — by default as
  /// ``defaultRetention`` says: weakly for a class-bound protocol, strongly otherwise; with
  /// `queue`, it is called on that queue (`addDelegate:delegateQueue:`). Adding an
  /// object that is already a member does nothing and returns its membership, with
  /// ``MemberID/isNew`` false — unless the multicast was made with
  /// ``MulticastOptions/allowsDuplicates``.
  ///
  /// A value — a struct or an enum, for a protocol that is not class-bound — is held by
  /// value, as a hand-written multiplexer's array holds it (`retention` does not apply):
  /// the multicast keeps its own copy, which its `mutating` requirements change (see
  /// ``MemberID`` for what names it afterwards; `unique` compares `Equatable` values with
  /// `==`).
  ///
  /// Adding a multicast into itself — directly, or into one it contains, directly or
  /// through others — is a programming error (each call would recurse for ever): it stops
  /// the process with a message naming the cycle, as an index out of range does. A
  /// well-typed program has nothing else that can fail here, so `add` does not throw.
  @discardableResult
  public final func add(
    _ delegate: Delegate, queue: DispatchQueue? = nil, retention: Retention? = nil
  ) -> MemberID {
    insert(delegate, at: .end, queue: queue, retention: retention)
  }

  /// Inserts `delegate` at `index` among the members (clamped to `0...count`); a
  /// multicast that would contain itself stops the process, as for ``add(_:queue:retention:)``.
  @discardableResult
  public final func insert(
    _ delegate: Delegate, at index: Int, queue: DispatchQueue? = nil, retention: Retention? = nil
  ) -> MemberID {
    insert(delegate, at: .index(index), queue: queue, retention: retention)
  }

  /// Inserts `delegate` before `other`; at the end when `other` is nil or not a member
  /// (`AIMultiDelegate`'s rule).
  @discardableResult
  public final func insert(
    _ delegate: Delegate, before other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention? = nil
  ) -> MemberID {
    insert(
      delegate, at: .before(other.map { $0 as AnyObject }), queue: queue, retention: retention)
  }

  /// Inserts `delegate` after `other`; at the beginning when `other` is nil or not a
  /// member (`AIMultiDelegate`'s rule).
  @discardableResult
  public final func insert(
    _ delegate: Delegate, after other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention? = nil
  ) -> MemberID {
    insert(
      delegate, at: .after(other.map { $0 as AnyObject }), queue: queue, retention: retention)
  }

  /// Used by injection: inserts `delegate` held weakly as a member that hears every
  /// call but whose answers do not count. Not for direct use.
  public final func __insertListener(_ delegate: Delegate, at index: Int) {
    _ = insert(delegate, at: .index(index), queue: nil, retention: .weak, answers: false)
  }

  /// How an object is held when `add` is not told: weakly for a class-bound protocol
  /// (`protocol P: AnyObject`, the delegate convention — a delegator does not own its
  /// delegates), strongly for one that is not, as `[any P]` would hold it. The rule does
  /// not depend on the conformer: a class conforming to a protocol that structs may
  /// conform to lives as long as the multicast holds it, like a struct.
  public static var defaultRetention: Retention {
    SwiftRuntimeLayout.isClassExistential(Delegate.self) ? .weak : .strong
  }

  private func insert(
    _ delegate: Delegate, at position: MemberPosition, queue: DispatchQueue?,
    retention: Retention?, answers: Bool = true
  ) -> MemberID {
    let retention = retention ?? Self.defaultRetention
    if let queue { QueueMarks.mark(queue) }
    let member: SwiftMember<Delegate>
    var nested: (any MulticastNode)? = nil
    if Self.isObject(delegate) {
      let object = delegate as AnyObject
      member = SwiftMember(
        delegate, object: object, retention: retention, queue: queue, answers: answers)
      nested = object as? any MulticastNode
    } else {
      // A value: held by the multicast (a protocol that is not class-bound).
      member = SwiftMember(value: delegate, queue: queue, answers: answers)
    }
    do {
      let record = try insertMember(
        member, at: position, nesting: nested, sameAs: Self.matching(delegate))
      return MemberID(record.id, isNew: record === member)
    } catch {
      // A cycle, the only error without an admission check: a programming error (see add).
      preconditionFailure("\(error)")
    }
  }

  /// Whether `delegate` is a class instance (else a value the multicast holds).
  static func isObject(_ delegate: Delegate) -> Bool {
    type(of: delegate as Any) is AnyObject.Type
  }

  /// What finds `delegate` among the members: an object by identity; a value by `==` when
  /// its type is `Equatable`, else nothing (a value has no identity: its ``MemberID`` names
  /// its membership).
  static func matching(_ delegate: Delegate) -> (SwiftMember<Delegate>) -> Bool {
    if isObject(delegate) {
      let object = delegate as AnyObject
      return { !$0.isValue && $0.holds(object) }
    }
    guard let value = delegate as? any Equatable else { return { _ in false } }
    return { $0.isValue && value.isEqual(toMember: $0.existential.pointee) }
  }

  /// Removes every membership of `delegate`. Without `waitingForCallsInFlight` (the
  /// default) it waits for nothing: a dispatch that begins after it returns never calls
  /// `delegate`; a call already running — on another thread, or the caller's own (a
  /// delegate may remove itself) — may finish, as after Boost.Signals2's `disconnect` or
  /// `NotificationCenter.removeObserver`. Removing a non-member does nothing.
  ///
  /// With `waitingForCallsInFlight`, it then waits until no other thread is inside a call
  /// to `delegate` made by this multicast (the Linux kernel's `del_timer_sync`): after it
  /// returns, no call to `delegate` from this multicast runs or starts anywhere but in the
  /// caller's own call stack. It waits for nothing else — not for other members, not for
  /// other multicasts — and never for the caller's own call (a delegate removing itself
  /// returns at once). The rule that comes with it: do not call it while holding a lock,
  /// or from code, that the delegate's running call may be waiting for — that is a
  /// deadlock, as with `del_timer_sync` under the timer's lock.
  ///
  /// A value member is found by `==` when its type is `Equatable` (every member equal to
  /// `delegate` goes); a value of another type is never found this way — remove it by the
  /// ``MemberID`` that `add` returned.
  public final func remove(_ delegate: Delegate, waitingForCallsInFlight: Bool = false) {
    removeMembers(waitingForCallsInFlight: waitingForCallsInFlight, where: Self.matching(delegate))
  }

  /// Removes `delegate`'s membership on `queue` only (`removeDelegate:delegateQueue:`).
  public final func remove(_ delegate: Delegate, queue: DispatchQueue) {
    let matches = Self.matching(delegate)
    removeMembers { matches($0) && $0.queue === queue }
  }

  /// Removes the membership `member` names (as `add` returned it), with ``remove(_:waitingForCallsInFlight:)``'s
  /// guarantee; a membership already gone does nothing.
  public final func remove(_ member: MemberID) {
    removeMembers { $0.id == member.rawValue }
  }

  /// Removes every live member for which `predicate` is true (given each member: an object,
  /// or a copy of a value), with ``remove(_:waitingForCallsInFlight:)``'s guarantee.
  public final func removeAll(where predicate: (Delegate) -> Bool) {
    let ids = Set(
      currentMembers.compactMap { m -> UInt64? in
        guard !m.isRemoved, let d = m.delegate, predicate(d) else { return nil }
        return m.id
      })
    guard !ids.isEmpty else { return }
    removeMembers { ids.contains($0.id) }
  }

  /// Removes every delegate, with ``remove(_:waitingForCallsInFlight:)``'s guarantee.
  public final func removeAll() { removeMembers { _ in true } }

  /// Mutes `delegate` without removing it (GObject's `g_signal_handler_block`, libsigc++'s
  /// `connection.block()`): every membership of it stays in place — position, queue,
  /// retention — but no path calls it (Swift, C callers, queues) and ``responds(to:)``
  /// no longer counts it. Blocks count: blocked twice, it needs two ``unblock(_:)``.
  /// Dispatches that start after this returns skip it; one already running may still
  /// reach it. Observers keep hearing the method. Blocking a non-member does nothing.
  public final func block(_ delegate: Delegate) {
    changeBlock(by: 1, where: Self.matching(delegate))
  }

  /// Undoes one ``block(_:)``; the delegate is called again once every block is undone.
  /// Unblocking a delegate that is not blocked does nothing.
  public final func unblock(_ delegate: Delegate) {
    changeBlock(by: -1, where: Self.matching(delegate))
  }

  /// Whether `delegate` is a member and blocked.
  public final func isBlocked(_ delegate: Delegate) -> Bool {
    isBlocked(where: Self.matching(delegate))
  }
}

extension Equatable {
  /// Whether `member` (a member's stored value) is a `Self` equal to this one.
  fileprivate func isEqual(toMember member: Any) -> Bool {
    guard let other = member as? Self else { return false }
    return other == self
  }
}

// MARK: Nesting

extension DelegateMulticast: MulticastNode {
  /// How a multicast is named in a cycle: its type and identity.
  var cycleName: String { "\(type(of: self)) <\(ObjectIdentifier(self))>" }
}
