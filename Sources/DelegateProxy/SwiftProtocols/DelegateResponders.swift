import MessageRuntime
import Synchronization

/// How a Swift multicast combines its responders' results for one method (the
/// ``ReturnPolicy`` in force, resolved for the method's result type).
@usableFromInline
enum DelegateRule: UInt8, Sendable {
  /// A `void` method: every responder is called; nothing to combine.
  case every
  /// ``ReturnPolicy/lastResponder``.
  case last
  /// ``ReturnPolicy/firstResponder``.
  case first
  /// ``Reducer/allTrue``.
  case allTrue
  /// ``Reducer/anyTrue``.
  case anyTrue
  /// ``Reducer/firstNonNil``.
  case firstNonZero
  /// Any other reducer: values are collected and folded by the ``Reducer``.
  case custom
}

/// One responder as a dispatch reads it: trivially copyable, so a dispatch loop copies
/// no reference and retains nothing but the delegate itself (and only when it is held
/// weakly: one `tryRetain`).
@usableFromInline
struct DelegateResponder<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: plain addresses, valid while the table holding them is
  // published or within its grace period (see DelegateResponderTable).
  @usableFromInline let member: Unmanaged<SwiftMember<Delegate>>
  @usableFromInline let slot: UnsafeMutablePointer<Delegate>
  @usableFromInline let object: UnownedObject
  /// The member's removed flag (the one its C routes read).
  @usableFromInline let removed: RemovedFlag
  @usableFromInline let isStrong: Bool
  /// Whether the member is called on a queue of its own.
  @usableFromInline let isQueued: Bool

  init(_ member: SwiftMember<Delegate>) {
    isQueued = member.queue != nil
    self.member = Unmanaged.passUnretained(member)
    slot = member.slot
    object = member.object
    removed = member.flag.removedFlag
    isStrong = member.retention == .strong
  }

  /// Whether the member was removed.
  @inlinable var isRemoved: Bool { removed.isSet }

  /// `Member.withDelegate(_:)` on the copied fields, for the inlined loop: the removed
  /// check, one `tryRetain` for a weak member, the call, the release; nil when the member
  /// was removed or is being deallocated.
  @inlinable
  func call<Arguments, Result>(_ call: (Delegate, Arguments) -> Result, _ arguments: Arguments)
    -> Result?
  {
    // The removed check is the last step before the call (see Member.withDelegate).
    if _slowPath(removed.isSet) { return nil }
    if !isStrong {
      guard _fastPath(object.tryRetain()) else { return nil }
    }
    // Borrowed from the slot: the reference taken above keeps it alive.
    let value = call(slot.pointee, arguments)
    if !isStrong { object.release() }
    return value
  }
}

/// Asks a multicast to rebuild its table: raised by dispatches (Swift loops and C
/// adapters, which must not hold the multicast), cleared when the table is rebuilt.
@usableFromInline
final class RebuildRequest: Sendable {
  @usableFromInline let raised = Atomic<Bool>(false)

  init() {}

  @inlinable func raise() { raised.store(true, ordering: .relaxed) }
  @inlinable var isRaised: Bool { raised.load(ordering: .relaxed) }
  func clear() { raised.store(false, ordering: .relaxed) }
}

/// The responders of one method and how their results combine.
@usableFromInline
struct DelegateResponderList<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: see DelegateResponder.
  @usableFromInline let responders: UnsafeBufferPointer<DelegateResponder<Delegate>>
  @usableFromInline let rule: DelegateRule
  /// Some responder is called on a queue, or the method has observers, or a custom
  /// reducer folds it: the dispatch takes the general path (DelegateMulticast+Delivery).
  @usableFromInline let isGeneral: Bool
  /// An optional method: a responder may turn out not to implement it.
  @usableFromInline let isOptional: Bool
  /// A value-returning message with no responder answers zero instead of trapping
  /// (``MulticastProxy/Options/silentWhenEmpty``; always for `void` methods).
  @usableFromInline let silentWhenEmpty: Bool
}

/// An immutable snapshot of a Swift multicast's members, by method: what a dispatch
/// reads, lock-free, inside a read section. Replaced (never changed) when membership or
/// policy changes, and released only after a grace period, so a dispatch that loaded it
/// may keep using its addresses until its read section ends.
@usableFromInline
final class DelegateResponderTable<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: immutable after init; the buffers it owns are freed in deinit,
  // which runs only after every read section that could see the table has ended.

  /// By method index.
  @usableFromInline let lists: UnsafeMutableBufferPointer<DelegateResponderList<Delegate>>
  /// The members, in order (the table keeps them, and so their slots, alive).
  let members: [SwiftMember<Delegate>]
  /// By method index: the observers.
  let observers: [[DelegateObserver]]
  /// By method index: the policy in force, for introspection and custom reducers.
  let policies: [ReturnPolicy]
  let generation: UInt64

  init(
    members: [SwiftMember<Delegate>], description: DelegateProtocol<Delegate>,
    defaultPolicy: ReturnPolicy, overrides: [Int: ReturnPolicy], silentWhenEmpty: Bool,
    observers: [Int: [DelegateObserver]], generation: UInt64
  ) {
    self.members = members
    self.observers = description.methods.indices.map { observers[$0] ?? [] }
    self.generation = generation
    let methods = description.methods
    lists = .allocate(capacity: methods.count)
    var policies: [ReturnPolicy] = []
    for (index, method) in methods.enumerated() {
      let policy = overrides[index] ?? defaultPolicy
      policies.append(policy)
      let live = members.filter { m in
        !m.isRemoved
          && (method.isRequired
            || !DelegateOptional.isKnownMissing(method.selector.name, typeID: m.typeID))
      }
      let buffer = UnsafeMutableBufferPointer<DelegateResponder<Delegate>>.allocate(
        capacity: live.count)
      _ = buffer.initialize(from: live.map(DelegateResponder.init))
      let rule = DelegateResponderTable.rule(policy, voidResult: method.result.isVoid)
      (lists.baseAddress! + index).initialize(
        to: DelegateResponderList(
          responders: UnsafeBufferPointer(buffer), rule: rule,
          isGeneral: rule == .custom || observers[index]?.isEmpty == false
            || live.contains { $0.queue != nil },
          isOptional: !method.isRequired,
          silentWhenEmpty: silentWhenEmpty || method.result.isVoid))
    }
    self.policies = policies
  }

  deinit {
    for list in lists { UnsafeMutableBufferPointer(mutating: list.responders).deallocate() }
    lists.deallocate()
  }

  static func rule(_ policy: ReturnPolicy, voidResult: Bool) -> DelegateRule {
    if voidResult { return .every }
    switch policy {
    case .lastResponder: return .last
    case .firstResponder: return .first
    case .reduce(let reducer):
      switch reducer.routeCombine {
      case .allTrue?: return .allTrue
      case .anyTrue?: return .anyTrue
      case .firstNonZero?: return .firstNonZero
      default: return .custom
      }
    }
  }
}
