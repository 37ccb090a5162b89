import Synchronization

/// A copy of a value multicast's own values of its value members, in one allocation: what
/// a copy that changed its members keeps instead of a multicast of its own. Generated value
/// multicasts hold one (see ``DelegateValueMulticast``); not for direct use.
///
/// Element `i` is the value of the member whose `valueIndex` is `i` in the multicast the
/// copy shares (`SwiftMember.valueIndex`): the copy dispatches over that multicast's table,
/// with these values in place of the table's. Copy on write, as `[any P]` is: a copy of the
/// value multicast retains the buffer, and a write to a buffer another copy shares copies
/// it first. So a buffer is written only by the one copy that holds it — never while
/// another thread reads it, which would need a copy of its own — and needs no grace period.
///
/// The elements are allocated after the object (`ManagedBufferPointer`, header: their
/// count and a remembered answer), as `ManagedBuffer`'s are; not a `ManagedBuffer`
/// subclass, which cannot be `Sendable`.
public final class __ValueMembers<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: written only through a value multicast that holds the only
  // reference to it (isKnownUniquelyReferenced), so no other thread can be reading it;
  // a shared buffer is only read.

  /// The buffer's header and elements.
  @inlinable var storage: ManagedBufferPointer<__ValueMembersHeader, Delegate> {
    ManagedBufferPointer(unsafeBufferObject: self)
  }

  /// How many values it holds.
  @inlinable var count: Int { storage.header.count }

  /// The remembered answer of the method at `index` folded from these values (a
  /// ``RememberedWord`` whose generation is the method's index), if a read kept one: as the
  /// shared multicast keeps its own in a word, so that swift-log's `logLevel`, read before
  /// every line, asks nobody. Exact: the values change only through a write, which empties
  /// the word (``forgetRemembered()``), made while no other copy holds the buffer.
  @inlinable @inline(__always)
  func remembered<Result>(_ index: Int, as _: Result.Type) -> Result? {
    let word = storage.withUnsafeMutablePointerToHeader { header in
      UnsafeMutableRawPointer(header).advanced(by: __ValueMembersHeader.rememberedOffset)
        .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.load(ordering: .relaxed)
    }
    guard
      word & ~0xFFFF_FFFF == RememberedWord.empty(UInt64(index)) | RememberedWord.answered
    else { return nil }
    return RememberedWord.value(word, as: Result.self)
  }

  /// Keeps `value`, the answer of the method at `index` folded from these values (which
  /// copies sharing the buffer may store at the same time: the same answer).
  @inlinable @inline(__always)
  func remember<Result>(_ value: Result, _ index: Int) {
    let word = RememberedWord.word(value, UInt64(index))
    storage.withUnsafeMutablePointerToHeader { header in
      UnsafeMutableRawPointer(header).advanced(by: __ValueMembersHeader.rememberedOffset)
        .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.store(word, ordering: .relaxed)
    }
  }

  /// Forgets the remembered answer: the values are about to change (only the one copy that
  /// holds the buffer writes it).
  @inlinable @inline(__always)
  func forgetRemembered() {
    storage.withUnsafeMutablePointerToHeader { header in
      UnsafeMutableRawPointer(header).advanced(by: __ValueMembersHeader.rememberedOffset)
        .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.store(0, ordering: .relaxed)
    }
  }

  /// Runs `body` with the address of the first value.
  @inlinable
  func withElements<R>(_ body: (UnsafeMutablePointer<Delegate>) -> R) -> R {
    storage.withUnsafeMutablePointerToElements(body)
  }

  /// An uninitialised buffer for `count` values.
  @inlinable
  static func allocate(count: Int) -> __ValueMembers {
    let made = ManagedBufferPointer<__ValueMembersHeader, Delegate>(
      bufferClass: __ValueMembers.self, minimumCapacity: count
    ) { _, _ in __ValueMembersHeader(count: count) }
    return unsafeDowncast(made.buffer, to: __ValueMembers.self)
  }

  /// A buffer holding the values of `members`' value members, by `valueIndex`.
  @inlinable
  static func copying(_ members: [SwiftMember<Delegate>], count: Int) -> __ValueMembers {
    let made = allocate(count: count)
    made.withElements { elements in
      for m in members where m.isValue {
        (elements + m.valueIndex).initialize(to: m.existential.pointee)
      }
    }
    return made
  }

  /// A buffer of its own with the same values (the write of a copy that shared this one).
  @inlinable
  func copy() -> __ValueMembers {
    let count = self.count
    let made = Self.allocate(count: count)
    withElements { source in
      made.withElements { $0.initialize(from: source, count: count) }
    }
    return made
  }

  deinit {
    storage.withUnsafeMutablePointers { count, elements in
      _ = elements.deinitialize(count: count.pointee.count)
    }
  }
}

/// A ``__ValueMembers`` buffer's header: how many values follow it, and one remembered
/// answer (a ``RememberedWord``, read and written atomically in place). Not for direct use.
public struct __ValueMembersHeader {
  /// How many values the buffer holds.
  @usableFromInline let count: Int
  /// The remembered answer's word; 0: none. Accessed only atomically, through its address.
  @usableFromInline var remembered: UInt64 = 0

  @inlinable init(count: Int) { self.count = count }

  /// Where ``remembered`` is, from the header's address.
  @inlinable static var rememberedOffset: Int {
    MemoryLayout<__ValueMembersHeader>.offset(of: \.remembered)!
  }
}
