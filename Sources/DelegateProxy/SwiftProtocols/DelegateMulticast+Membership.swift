import Dispatch
import MessageRuntime

extension DelegateMulticast {
  /// Adds `delegate` at the end, held weakly unless `retention` is ``Retention/strong``;
  /// with `queue`, it is called on that queue (`addDelegate:delegateQueue:`). With
  /// ``MulticastOptions/unique``, adding a member again does nothing.
  ///
  /// Adding a multicast into itself — directly, or into one it contains, directly or
  /// through others — is a programming error (each call would recurse for ever): it stops
  /// the process with a message naming the cycle, as an index out of range does. A
  /// well-typed program has nothing else that can fail here, so `add` does not throw.
  public final func add(
    _ delegate: Delegate, queue: DispatchQueue? = nil, retention: Retention = .weak
  )
  {
    insert(delegate, at: .end, queue: queue, retention: retention)
  }

  /// Inserts `delegate` at `index` among the members (clamped to `0...count`); a
  /// multicast that would contain itself stops the process, as for ``add(_:queue:retention:)``.
  public final func insert(
    _ delegate: Delegate, at index: Int, queue: DispatchQueue? = nil, retention: Retention = .weak
  ) {
    insert(delegate, at: .index(index), queue: queue, retention: retention)
  }

  /// Inserts `delegate` before `other`; at the end when `other` is nil or not a member
  /// (`AIMultiDelegate`'s rule).
  public final func insert(
    _ delegate: Delegate, before other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) {
    insert(
      delegate, at: .before(other.map { $0 as AnyObject }), queue: queue, retention: retention)
  }

  /// Inserts `delegate` after `other`; at the beginning when `other` is nil or not a
  /// member (`AIMultiDelegate`'s rule).
  public final func insert(
    _ delegate: Delegate, after other: Delegate?, queue: DispatchQueue? = nil,
    retention: Retention = .weak
  ) {
    insert(
      delegate, at: .after(other.map { $0 as AnyObject }), queue: queue, retention: retention)
  }

  /// Used by injection: inserts `delegate` held weakly as a member that hears every
  /// call but whose answers do not count. Not for direct use.
  public final func __insertListener(_ delegate: Delegate, at index: Int) {
    insert(delegate, at: .index(index), queue: nil, retention: .weak, answers: false)
  }

  private func insert(
    _ delegate: Delegate, at position: MemberPosition, queue: DispatchQueue?,
    retention: Retention, answers: Bool = true
  ) {
    // Members are class instances (a `@Delegate` protocol is class-bound): dispatch reads
    // a member's existential as a class reference (SwiftResponder.unretainedDelegate).
    precondition(
      type(of: delegate as Any) is AnyObject.Type,
      "\(Self.self) holds class instances; a \(type(of: delegate as Any)) is not one")
    let object = delegate as AnyObject
    if let queue { QueueMarks.mark(queue) }
    let member = SwiftMember(
      delegate, object: object, retention: retention, queue: queue, answers: answers)
    MulticastNesting.insertOrStop(adding: object as? any MulticastNode, to: self) {
      update { s in
        if s.options.contains(.unique), s.members.contains(object) { return }
        s.members.insert(member, at: position)
      }
    }
  }

  /// Removes every membership of `delegate`. When it returns, no new call to `delegate`
  /// starts on any thread or queue (a call already running may finish; a delegate may
  /// remove itself while being called). Removing a non-member does nothing.
  public final func remove(_ delegate: Delegate) {
    let object = delegate as AnyObject
    removeMembers { $0.holds(object) }
  }

  /// Removes `delegate`'s membership on `queue` only (`removeDelegate:delegateQueue:`).
  public final func remove(_ delegate: Delegate, queue: DispatchQueue) {
    let object = delegate as AnyObject
    removeMembers { $0.holds(object) && $0.queue === queue }
  }

  /// Removes every delegate, with ``remove(_:)``'s guarantee.
  public final func removeAll() { removeMembers { _ in true } }

  /// Mutes `delegate` without removing it (GObject's `g_signal_handler_block`, libsigc++'s
  /// `connection.block()`): every membership of it stays in place — position, queue,
  /// retention — but no path calls it (Swift, C callers, queues) and ``responds(to:)``
  /// no longer counts it. Blocks count: blocked twice, it needs two ``unblock(_:)``.
  /// Dispatches that start after this returns skip it; one already running may still
  /// reach it. Observers keep hearing the method. Blocking a non-member does nothing.
  public final func block(_ delegate: Delegate) {
    changeBlock(of: delegate, by: 1)
  }

  /// Undoes one ``block(_:)``; the delegate is called again once every block is undone.
  /// Unblocking a delegate that is not blocked does nothing.
  public final func unblock(_ delegate: Delegate) {
    changeBlock(of: delegate, by: -1)
  }

  /// Whether `delegate` is a member and blocked.
  public final func isBlocked(_ delegate: Delegate) -> Bool {
    let object = delegate as AnyObject
    return state.withLock { s in
      s.members.records.contains { !$0.isRemoved && $0.holds(object) && $0.isBlocked }
    }
  }

  private func changeBlock(of delegate: Delegate, by step: Int) {
    let object = delegate as AnyObject
    let found = state.withLock { s in
      s.members.records.contains { !$0.isRemoved && $0.holds(object) }
    }
    guard found else { return }
    // A new table leaves blocked members out (the hot path checks nothing for them).
    update { s in
      for m in s.members.records where !m.isRemoved && m.holds(object) {
        m.blockCount = max(0, m.blockCount + step)
      }
    }
  }

  private func removeMembers(where match: (SwiftMember<Delegate>) -> Bool) {
    let found = state.withLock { s in s.members.records.contains(where: match) }
    guard found else { return }
    update { s in _ = s.members.remove(where: match) }
  }
}

// MARK: Nesting

extension DelegateMulticast: MulticastNode {
  var nestedMulticasts: [any MulticastNode] {
    currentMembers.compactMap { m in
      guard !m.isRemoved, let d = m.delegate else { return nil }
      return (d as AnyObject) as? any MulticastNode
    }
  }

  var cycleName: String { "\(type(of: self)) <\(ObjectIdentifier(self))>" }
}
