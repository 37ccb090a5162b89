import MessageRuntime

/// What a multicast's state holds that the shared operations read and change: its
/// members, and its policies keyed as the multicast names a method (a selector, a method
/// index).
protocol MulticastEngineState {
  /// The member record (``ProxyMember``, `SwiftMember`).
  associatedtype Record: Member
  /// How the multicast names a method.
  associatedtype MethodKey: Hashable
  /// A method's return policy, as the multicast stores it.
  associatedtype Policy
  var members: MemberList<Record> { get set }
  var defaultPolicy: Policy { get set }
  var overrides: [MethodKey: Policy] { get set }
}

/// The one engine under both multicasts, ``MulticastProxy`` (runtime objects) and
/// `DelegateMulticast` (Swift delegates): removal, blocking, counting, membership tests
/// and policies are written here once. Each face keeps only its own typed signature (a
/// `RuntimeObject` or a `Delegate`, a selector or a handle) and says which records a
/// delegate matches. Not on any dispatch path.
protocol MulticastEngine: AnyObject {
  associatedtype State: MulticastEngineState
  /// The configuration and membership, changed only through ``update(_:)``.
  var state: Lock<State> { get }
  /// The members of the table dispatches read now, in order.
  var publishedMembers: [State.Record] { get }
  /// Applies `change` under the lock, publishes the table for the new state, then —
  /// outside any lock — retires the table it replaced after a grace period.
  func update<R, E: Error>(_ change: (inout State) throws(E) -> R) throws(E) -> R
}

extension MulticastEngine {
  /// Marks the matching records removed and publishes a table without them; ``update(_:)``
  /// then waits — outside any lock — until no dispatch that could still see them is
  /// running on another thread, and releases the old table (the last strong references
  /// to strongly held delegates) only then: a delegate's deinit waits out dispatches too,
  /// and one of them may be waiting for the multicast's lock. Nothing matching: nothing
  /// published.
  func removeMembers(where match: (State.Record) -> Bool) {
    let found = state.withLock { s in s.members.records.contains(where: match) }
    guard found else { return }
    update { s in _ = s.members.remove(where: match) }
  }

  /// Blocks (`step` 1) or unblocks (`step` -1) every live matching record; a new table
  /// (and, for ``MulticastProxy``, new routes) leaves blocked members out, so the hot
  /// paths check nothing for them.
  func changeBlock(by step: Int, where match: (State.Record) -> Bool) {
    let found = state.withLock { s in
      s.members.records.contains { !$0.isRemoved && match($0) }
    }
    guard found else { return }
    update { s in
      for m in s.members.records where !m.isRemoved && match(m) {
        m.blockCount = max(0, m.blockCount + step)
      }
    }
  }

  /// Whether a live matching record is blocked.
  func isBlocked(where match: (State.Record) -> Bool) -> Bool {
    state.withLock { s in
      s.members.records.contains { !$0.isRemoved && match($0) && $0.isBlocked }
    }
  }

  /// How many live memberships there are.
  var liveCount: Int { publishedMembers.count { !$0.isRemoved && $0.isAlive } }

  /// Whether a live membership matches.
  func containsLive(where match: (State.Record) -> Bool) -> Bool {
    publishedMembers.contains { !$0.isRemoved && $0.isAlive && match($0) }
  }

  /// The policy of methods without one of their own.
  var enginePolicy: State.Policy {
    get { state.withLock { $0.defaultPolicy } }
    set { update { $0.defaultPolicy = newValue } }
  }

  /// Sets the policy of one method (nil returns it to the default).
  func setPolicy(_ policy: State.Policy?, forKey key: State.MethodKey) {
    update { $0.overrides[key] = policy }
  }

  /// The policy in force for one method.
  func policy(forKey key: State.MethodKey) -> State.Policy {
    state.withLock { $0.overrides[key] ?? $0.defaultPolicy }
  }
}
