import MessageRuntime

/// One responder as a dispatch reads it: trivially copyable, so a dispatch loop copies
/// no reference and retains nothing but the delegate itself (and only when it is held
/// weakly: one `tryRetain`).
@usableFromInline
struct SwiftResponder<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: plain addresses, valid while the table holding them is
  // published or within its grace period (see SwiftMemberTable).
  @usableFromInline let member: Unmanaged<SwiftMember<Delegate>>
  @usableFromInline let existential: UnsafeMutablePointer<Delegate>
  @usableFromInline let object: UnownedObject
  /// The member's removed flag (the one its C routes read).
  @usableFromInline let removed: RemovedFlag
  @usableFromInline let isStrong: Bool
  /// Whether the member is called on a queue of its own.
  @usableFromInline let isQueued: Bool

  init(_ member: SwiftMember<Delegate>) {
    isQueued = member.queue != nil
    self.member = Unmanaged.passUnretained(member)
    existential = member.existential
    object = member.object
    removed = member.flag.removedFlag
    isStrong = member.retention == .strong
  }

  /// Whether the member was removed.
  @inlinable var isRemoved: Bool { removed.isSet }

  /// Calls `body` with the stored existential, borrowed without a retain or a copy of the
  /// member (a value read from the pointer is copied for the call: a retain and a release
  /// per delegate, or a value member's copy). A weakly held delegate's reference is the
  /// one the caller's `tryRetain` took; a strongly held one's, or a value, is the table's.
  ///
  /// The existential's bytes are copied into a temporary slot, moved out of it for the
  /// call and moved back after, and the slot is deallocated without being deinitialized:
  /// nothing is released or destroyed. That works for any existential — a class reference,
  /// or a value inline or in a box, whose bytes could not be forgotten by zeroing them
  /// (destroying an opaque existential reads its type from them).
  ///
  /// The slot is an unprotected temporary allocation, so that it does not by itself make
  /// the dispatch that inlines it set up and check a stack canary. Nothing can overrun
  /// it: exactly `MemoryLayout<Delegate>.size` bytes are copied into a slot of that type.
  @inlinable @inline(__always)
  func withBorrowedDelegate<R>(_ body: (Delegate) -> R) -> R {
    Self.withBorrowed(existential, body)
  }

  /// ``withBorrowedDelegate(_:)`` for the existential at `existential`: a responder's, or a
  /// copy's own value of a value member (``__ValueMembers``).
  @inlinable @inline(__always)
  static func withBorrowed<R>(
    _ existential: UnsafeMutablePointer<Delegate>, _ body: (Delegate) -> R
  )
    -> R
  {
    _withUnprotectedUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { slot in
      let place = slot.baseAddress!
      UnsafeMutableRawPointer(place).copyMemory(
        from: UnsafeRawPointer(existential), byteCount: MemoryLayout<Delegate>.size)
      let delegate = place.move()
      let result = body(delegate)
      place.initialize(to: consume delegate)
      return result
    }
  }
}

/// A ``SwiftResponder`` as bits: the same stored properties in the same order (so the same
/// layout), none of them generic. A copy of a value multicast writes its table's responders
/// this way (`SwiftMemberTable.init(copying:members:generation:)`): it runs unspecialised,
/// where each value of `SwiftResponder<Delegate>` made or read looks generic metadata up.
struct SwiftResponderBits {
  let member: UnsafeRawPointer
  let existential: UnsafeMutableRawPointer
  let object: UnownedObject
  let removed: RemovedFlag
  let isStrong: Bool
  let isQueued: Bool

  /// ``SwiftResponder/init(_:)``'s fields.
  init<Delegate>(_ member: SwiftMember<Delegate>) {
    isQueued = member.queue != nil
    self.member = UnsafeRawPointer(Unmanaged.passUnretained(member).toOpaque())
    existential = UnsafeMutableRawPointer(member.existential)
    object = member.object
    removed = member.flag.removedFlag
    isStrong = member.retention == .strong
  }
}

/// The responders of one method and how their results combine.
@usableFromInline
struct SwiftResponderList<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: see SwiftResponder.
  @usableFromInline let responders: UnsafeBufferPointer<SwiftResponder<Delegate>>
  @usableFromInline let rule: ReducerRule
  /// Some responder is called on a queue, or the method has observers, or a custom reducer
  /// that has no reduction one answer at a time reduces it: the dispatch takes the general
  /// path (DelegateMulticast+Delivery). Also set for a remembered read (``remembered``), so
  /// that the plain fast loop pays no test for it.
  @usableFromInline let isGeneral: Bool
  /// The method's filter (``DelegateMulticast/setFilter(for:_:)``), asked by the fast loop
  /// before each member's call; the table holds it.
  @usableFromInline let filter: Unmanaged<AnyMemberFilter>?
  /// For rule `.custom` on the fast loop: the reducer's reduction one answer at a time (of
  /// the method's result type, checked when the table was built); the table's policy holds
  /// it.
  @usableFromInline let reduction: Unmanaged<AnyPairwiseReduction>?
  /// A remembered read (RememberedRead.swift) whose answer this table keeps: the list is
  /// marked general, and ``DelegateMulticast/__send(_:_:_:)`` returns the kept answer (or
  /// runs the fast loop once to keep it) instead. The table holds it.
  @usableFromInline let remembered: Unmanaged<AnyRememberedAnswer>?
  /// An optional method: a responder may turn out not to implement it.
  @usableFromInline let isOptional: Bool
  /// A `void` method whose queued responders are waited for all the same (it has `inout`
  /// parameters — the next responder reads what this one wrote — or a non-escaping
  /// closure, valid only during the call).
  @usableFromInline let waitsForQueued: Bool
  /// Some parameter is paired with members (ArgumentPairing.swift): the general path reads
  /// the table's pairing only then.
  @usableFromInline let isPaired: Bool
  /// Every responder is a value: a `void` write of a copy of the value multicast may change
  /// its own values instead of copying the multicast (`DelegateMulticast.writeValues`).
  @usableFromInline let valuesOnly: Bool

  /// `running` (nil before the first answer) combined with `value` by the list's pairwise
  /// reduction, typed as the method's result: only for a list whose rule is `.custom` and
  /// that is not general (see ``reduction``).
  @inlinable
  func combine<Value>(_ running: consuming Value?, _ value: consuming Value) -> Value {
    guard let running else { return value }
    return reduction.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: PairwiseReduction<Value>.self).combine(running, value)
    }
  }
}
