import MessageRuntime

/// What a multicast's state holds that the shared operations read and change: its
/// members, its policies keyed as the multicast names a method (a selector, a method
/// index), and its generation.
protocol MulticastEngineState {
  /// The member record (``ProxyMember``, `SwiftMember`).
  associatedtype Record: DelegateMember
  /// How the multicast names a method.
  associatedtype MethodKey: Hashable & Sendable
  /// A method's return policy, as the multicast stores it.
  associatedtype Policy
  var members: MemberList<Record> { get set }
  var defaultPolicy: Policy { get set }
  var overrides: [MethodKey: Policy] { get set }
  /// Whether `record`'s delegate may be a member at most once (``MulticastOptions``).
  func keepsUnique(_ record: Record) -> Bool
  /// Raised by every publication, and when a nested multicast changed.
  var generation: UInt64 { get set }
  /// The sum of the nested multicasts' generations when ``generation`` last looked.
  var nestedGenerations: UInt64 { get set }
}

/// A ``Member`` that gives its delegate as the face types it (a runtime object, a
/// protocol's existential).
protocol DelegateMember: Member {
  /// The delegate as its face types it.
  associatedtype Delegate
  /// The delegate, strongly held, or nil once its deinit has begun.
  var delegate: Delegate? { get }
}

/// The one engine under both multicasts, ``MulticastProxy`` (runtime objects) and
/// `DelegateMulticast` (Swift delegates): insertion, removal, blocking, counting,
/// membership tests, policies, the generation and the queries over the live delegates are
/// written here once (observers in MulticastEngine+Observation.swift). Each face keeps
/// only its own typed signature (a `RuntimeObject` or a `Delegate`, a selector or a
/// handle), says which records a delegate matches, and checks what it must of a new
/// member (``admit(_:to:_:)``). Not on any dispatch path.
protocol MulticastEngine: MulticastNode, Sendable {
  associatedtype State: MulticastEngineState
  /// What a change of membership holds while the face checks a new member: for
  /// ``MulticastProxy``, what its live callback adapters need; nothing for the others.
  associatedtype Admission = Void
  /// The configuration and membership, changed only through ``update(_:)``.
  var state: Lock<State> { get }
  /// The members of the table dispatches read now, in order.
  var publishedMembers: [State.Record] { get }
  /// Applies `change` under the lock, publishes the table for the new state, then —
  /// outside any lock — retires the table it replaced after a grace period.
  func update<R, E: Error>(_ change: (inout State) throws(E) -> R) throws(E) -> R
  /// ``update(_:)`` for a change of membership, with what ``admit(_:to:_:)`` checks held
  /// for the change and the publication.
  func updateMembership<R>(
    _ change: (inout State, Admission) throws(DelegateProxyError) -> R
  ) throws(DelegateProxyError) -> R
  /// The face's check of `record` before ``insertMember(_:at:nesting:sameAs:)`` inserts it,
  /// and what it notes of it, under the lock.
  func admit(_ record: State.Record, to s: inout State, _ admission: Admission)
    throws(DelegateProxyError)
}

extension MulticastEngine where Admission == Void {
  /// A plain ``update(_:)``: nothing beyond the state to hold.
  func updateMembership<R>(
    _ change: (inout State, Admission) throws(DelegateProxyError) -> R
  ) throws(DelegateProxyError) -> R {
    try update { s throws(DelegateProxyError) in try change(&s, ()) }
  }

  /// Nothing to check: any member is welcome.
  func admit(_ record: State.Record, to s: inout State, _ admission: Admission) {}
}

extension MulticastEngine {
  /// THE insertion, for both faces: `record` goes in at `position` unless the multicast
  /// keeps delegates unique and a live record is ``sameAs`` it (that record is returned
  /// then, and nothing changes). When `nested` is a multicast, the cycle check runs first
  /// (``MulticastNesting/check(adding:to:_:)``, which throws
  /// ``DelegateProxyError/cycle(path:)``); the face's ``admit(_:to:_:)`` may throw too.
  /// Either way nothing changes. Returns the record that is the membership.
  @discardableResult
  func insertMember(
    _ record: State.Record, at position: MemberPosition, nesting nested: (any MulticastNode)?,
    sameAs same: (State.Record) -> Bool
  ) throws(DelegateProxyError) -> State.Record {
    try MulticastNesting.check(adding: nested, to: self) { () throws(DelegateProxyError) in
      try updateMembership { s, admission throws(DelegateProxyError) in
        s.members.compact()
        if s.keepsUnique(record),
          let existing = s.members.records.first(where: { !$0.isRemoved && same($0) })
        {
          return existing
        }
        try admit(record, to: &s, admission)
        s.members.insert(record, at: position)
        return record
      }
    }
  }

  /// Marks the matching records removed and publishes a table without them: a dispatch
  /// that begins afterwards never calls them; one that began before may still be calling
  /// one, or reach one before it reads the flag. The old table is retired, never waited
  /// for (``update(_:)``): the last strong references to strongly held delegates go with
  /// it once no dispatch reads it. With `waitingForCallsInFlight`, returns only when no
  /// other thread is calling a removed record — the one scoped wait
  /// (``Quiescence/waitForCalls(to:)``): never for this thread's own calls, never for
  /// other members' calls; it deadlocks if the caller holds a lock such a call waits for.
  /// Nothing matching: nothing published.
  func removeMembers(
    waitingForCallsInFlight wait: Bool = false, where match: (State.Record) -> Bool
  ) {
    let found = state.withLock { s in s.members.records.contains(where: match) }
    guard found else { return }
    let gone = update { s in s.members.remove(where: match) }
    guard wait else { return }
    for record in gone {
      Quiescence.waitForCalls(to: UnsafeRawPointer(record.flag.node), in: record.flag.readDomain)
    }
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

  /// The live delegates of the published table, in order (a delegate added twice appears
  /// twice).
  var liveDelegates: [State.Record.Delegate] {
    publishedMembers.compactMap { $0.isRemoved ? nil : $0.delegate }
  }

  /// The live delegates that are of type `type`, in order.
  func liveDelegates<T>(ofType type: T.Type) -> [T] {
    liveDelegates.compactMap { $0 as? T }
  }

  /// The first live delegate of type `type`, in member order.
  func firstLiveDelegate<T>(ofType type: T.Type) -> T? {
    for d in liveDelegates { if let t = d as? T { return t } }
    return nil
  }

  /// The members that are themselves multicasts (``MulticastNode/nestedMulticasts``).
  var nestedMulticasts: [any MulticastNode] {
    publishedMembers.compactMap { m in
      guard !m.isRemoved, let d = m.delegate else { return nil }
      return (d as AnyObject) as? any MulticastNode
    }
  }

  /// The generation as ``DelegateMulticast/generation`` documents it, for both faces: a
  /// dead member compacted away and a nested multicast's change raise it too, looked at
  /// here when it is read, never on a dispatch path.
  var engineGeneration: UInt64 {
    // (A deallocated delegate's records are marked removed by its deinit, before any
    // table without them is published.)
    if publishedMembers.contains(where: { $0.isRemoved || !$0.isAlive }) { update { _ in } }
    let (own, seen) = state.withLock { ($0.generation, $0.nestedGenerations) }
    let bumped = MulticastNesting.generation(nested: nestedMulticasts, seen: seen) { sum in
      state.withLock { s in
        s.nestedGenerations = sum
        s.generation &+= 1
        return s.generation
      }
    }
    return bumped ?? own
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
