import MessageRuntime

/// An immutable snapshot of a Swift multicast's members, by method: what a dispatch
/// reads, lock-free, inside a read section. Replaced (never changed) when membership or
/// policy changes, and released only after a grace period, so a dispatch that loaded it
/// may keep using its addresses until its read section ends.
@usableFromInline
final class SwiftMemberTable<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init; the buffers it owns are freed in deinit,
  // which runs only after every read section that could see the table has ended.

  /// By method index.
  @usableFromInline let lists: UnsafeMutableBufferPointer<SwiftResponderList<Delegate>>
  /// The members, in order (the table keeps them, and so their slots, alive).
  let members: [SwiftMember<Delegate>]
  /// By method index: the observers.
  @usableFromInline let observers: [[TypedObserver]]
  /// By method index: the filter that chooses which members a call reaches, if any.
  @usableFromInline let filters: [AnyMemberFilter?]
  /// By method index: the parameters paired with members, if any (ArgumentPairing.swift).
  @usableFromInline let pairings: [ArgumentPairing?]
  /// By method index: the policy in force, for introspection and custom reducers.
  let policies: [ErasedPolicy]
  let generation: UInt64

  init(
    members: [SwiftMember<Delegate>], description: ProtocolDescription<Delegate>,
    defaultPolicy: ErasedPolicy, overrides: [Int: ErasedPolicy],
    observers: [Int: [TypedObserver]], filters: [Int: AnyMemberFilter] = [:],
    pairings: [Int: ArgumentPairing] = [:], generation: UInt64
  ) {
    self.members = members
    self.filters = description.methods.indices.map { filters[$0] }
    self.pairings = description.methods.indices.map { pairings[$0] }
    self.observers = description.methods.indices.map { observers[$0] ?? [] }
    self.generation = generation
    let methods = description.methods
    lists = .allocate(capacity: methods.count)
    // The fast loop calls a bitwise copy of a member's stored existential (see
    // SwiftResponder.unretainedDelegate); values, and strongly held objects in an existential
    // of a protocol that is not class-bound (whose copy cannot be forgotten by zeroing it),
    // take the general path, which copies the existential as Swift does.
    let classBound = ExistentialKind.isClassBound(Delegate.self)
    let needsCopy = members.contains { m in
      m.isValue || (!classBound && m.retention == .strong)
    }
    var policies: [ErasedPolicy] = []
    for (index, method) in methods.enumerated() {
      let policy = overrides[index] ?? defaultPolicy
      policies.append(policy)
      let live = members.filter { m in
        !m.isRemoved && !m.isBlocked
          && (method.isRequired
            || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID))
      }
      let buffer = UnsafeMutableBufferPointer<SwiftResponder<Delegate>>.allocate(
        capacity: live.count)
      _ = buffer.initialize(from: live.map(SwiftResponder.init))
      let rule = ReducerRule(policy, returnsVoid: method.result.isVoid)
      (lists.baseAddress! + index).initialize(
        to: SwiftResponderList(
          responders: UnsafeBufferPointer(buffer), rule: rule,
          isGeneral: rule == .custom || needsCopy || observers[index]?.isEmpty == false
            || filters[index] != nil || pairings[index] != nil
            || live.contains { $0.queue != nil || (!$0.answers && !method.result.isVoid) },
          isOptional: !method.isRequired, waitsForQueued: method.lendsArguments,
          isPaired: pairings[index] != nil))
    }
    self.policies = policies
  }

  deinit {
    for list in lists { UnsafeMutableBufferPointer(mutating: list.responders).deallocate() }
    lists.deallocate()
  }
}
