import MessageRuntime
import Synchronization

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
    // Borrowed from storage: the reference taken above keeps it alive.
    let value = call(existential.pointee, arguments)
    if !isStrong { object.release() }
    return value
  }
}

/// The responders of one method and how their results combine.
@usableFromInline
struct SwiftResponderList<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: see SwiftResponder.
  @usableFromInline let responders: UnsafeBufferPointer<SwiftResponder<Delegate>>
  @usableFromInline let rule: FoldRule
  /// Some responder is called on a queue, or the method has observers, or a custom
  /// reducer folds it: the dispatch takes the general path (DelegateMulticast+Delivery).
  @usableFromInline let isGeneral: Bool
  /// An optional method: a responder may turn out not to implement it.
  @usableFromInline let isOptional: Bool
  /// A value-returning message with no responder answers zero instead of trapping
  /// (``MulticastProxy/Options/silentWhenEmpty``; always for `void` methods).
  @usableFromInline let silentWhenEmpty: Bool
}
