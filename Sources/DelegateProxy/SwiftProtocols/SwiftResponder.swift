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

  /// The stored existential as a value, without a retain: the caller took a reference for
  /// it (a weakly held member's `tryRetain`, which the value's end of life releases), or
  /// ends it with ``forget(_:)`` (a strongly held member's, which the table holds).
  ///
  /// The slot is an unprotected temporary allocation, so that it does not by itself make
  /// the dispatch that inlines it set up and check a stack canary. Nothing can overrun
  /// it: exactly `MemoryLayout<Delegate>.size` bytes are copied into a slot of that type.
  @inlinable
  func unretainedDelegate() -> Delegate {
    _withUnprotectedUnsafeTemporaryAllocation(of: Delegate.self, capacity: 1) { slot in
      let value = slot.baseAddress!
      UnsafeMutableRawPointer(value).copyMemory(
        from: UnsafeRawPointer(existential), byteCount: MemoryLayout<Delegate>.size)
      return value.move()
    }
  }

  /// Ends the life of `delegate`, a value from ``unretainedDelegate()`` whose reference
  /// the table holds, without a release: its bytes are zeroed in place, and a class
  /// existential whose object pointer is null releases nothing.
  ///
  /// Through unprotected bytes, as ``unretainedDelegate()``: the address of `delegate`
  /// taken by `withUnsafeMutableBytes` made every dispatch that inlines this set up and
  /// check a stack canary (5 instructions per call, Benchmarks/callgrind-swift.sh). Only
  /// the value's own `MemoryLayout<Delegate>.size` bytes are written.
  @inlinable
  static func forget(_ delegate: consuming Delegate) {
    _ = _withUnprotectedUnsafeMutableBytes(of: &delegate) {
      $0.initializeMemory(as: UInt8.self, repeating: 0)
    }
  }
}

/// The responders of one method and how their results combine.
@usableFromInline
struct SwiftResponderList<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: see SwiftResponder.
  @usableFromInline let responders: UnsafeBufferPointer<SwiftResponder<Delegate>>
  @usableFromInline let rule: ReducerRule
  /// Some responder is called on a queue, or the method has observers or a filter, or a
  /// custom reducer folds it: the dispatch takes the general path (DelegateMulticast+Delivery).
  @usableFromInline let isGeneral: Bool
  /// An optional method: a responder may turn out not to implement it.
  @usableFromInline let isOptional: Bool
  /// A `void` method whose queued responders are waited for all the same (it has `inout`
  /// parameters — the next responder reads what this one wrote — or a non-escaping
  /// closure, valid only during the call).
  @usableFromInline let waitsForQueued: Bool
  /// Some parameter is paired with members (ArgumentPairing.swift): the general path reads
  /// the table's pairing only then.
  @usableFromInline let isPaired: Bool
}
