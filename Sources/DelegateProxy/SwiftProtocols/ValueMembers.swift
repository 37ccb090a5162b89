import Synchronization

/// A copy of a value multicast's own values of its value members, in one allocation: what
/// a copy that changed its members keeps instead of a multicast of its own. Generated value
/// multicasts hold one in place of the multicast (``__ValueMulticastStorage/apart(_:)``); not
/// for direct use.
///
/// It holds the multicast the copy shares (its header's `engine`, retained): so the value
/// multicast stores one reference in either state, and a copy of it (swift-log's `Logger`
/// copies its handler per line) retains one object. Element `i` is the value of the member
/// whose `valueIndex` is `i` in that multicast (`SwiftMember.valueIndex`): the copy
/// dispatches over its table, with these values in place of the table's. Copy on write, as `[any P]` is: a copy of the
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

  /// The multicast whose members these values are, borrowed: valid while the buffer is.
  @inlinable @inline(__always)
  func engine<Handles>(_: Handles.Type) -> Unmanaged<DelegateMulticast<Delegate, Handles>> {
    let engine = storage.withUnsafeMutablePointerToHeader { $0.pointee.engine }
    return Unmanaged.fromOpaque(engine.toOpaque())
  }

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

  /// The remembered answer's word (0: none).
  @inlinable @inline(__always)
  var rememberedWord: UInt64 {
    storage.withUnsafeMutablePointerToHeader { header in
      UnsafeMutableRawPointer(header).advanced(by: __ValueMembersHeader.rememberedOffset)
        .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.load(ordering: .relaxed)
    }
  }

  /// Stores `word` as the remembered answer (0 forgets it).
  @inlinable @inline(__always)
  func storeRemembered(_ word: UInt64) {
    storage.withUnsafeMutablePointerToHeader { header in
      UnsafeMutableRawPointer(header).advanced(by: __ValueMembersHeader.rememberedOffset)
        .assumingMemoryBound(to: Atomic<UInt64>.self).pointee.store(word, ordering: .relaxed)
    }
  }

  /// The remembered `word` if its read is among `kept` (a mask of read indices whose answers
  /// a write does not change, ``DelegateMulticast/remember(_:across:)``), else 0.
  @inlinable @inline(__always)
  static func surviving(_ word: UInt64, _ kept: UInt64) -> UInt64 {
    guard word != 0, kept != 0 else { return 0 }
    let read = (word >> 33) & 0x7FFF_FFFF
    return read < 64 && kept & (1 << read) != 0 ? word : 0
  }

  /// Forgets the remembered answer unless a write that keeps `kept` cannot change it: the
  /// values are about to change (only the one copy that holds the buffer writes it).
  @inlinable @inline(__always)
  func forgetRemembered(keeping kept: UInt64 = 0) {
    let word = rememberedWord
    if word != 0 && Self.surviving(word, kept) == 0 { storeRemembered(0) }
    storage.withUnsafeMutablePointerToHeader { $0.pointee.sameAnswers &= kept }
  }

  /// The reads these values answer as the multicast's own values do (see
  /// ``__ValueMembersHeader/sameAnswers``).
  @inlinable @inline(__always)
  var sameAnswers: UInt64 {
    get { storage.withUnsafeMutablePointerToHeader { $0.pointee.sameAnswers } }
    set { storage.withUnsafeMutablePointerToHeader { $0.pointee.sameAnswers = newValue } }
  }

  /// Runs `body` with the address of the first value.
  @inlinable
  func withElements<R>(_ body: (UnsafeMutablePointer<Delegate>) -> R) -> R {
    storage.withUnsafeMutablePointerToElements(body)
  }

  /// An uninitialised buffer for `count` values of `engine`'s members (retained).
  @inlinable
  static func allocate(count: Int, engine: Unmanaged<AnyObject>) -> __ValueMembers {
    _ = engine.retain()
    let made = ManagedBufferPointer<__ValueMembersHeader, Delegate>(
      bufferClass: __ValueMembers.self, minimumCapacity: count
    ) { _, _ in __ValueMembersHeader(count: count, engine: engine) }
    return unsafeDowncast(made.buffer, to: __ValueMembers.self)
  }

  /// A buffer holding the values of `members`' value members, by `valueIndex`, for
  /// `engine`, the multicast that lists them.
  @inlinable
  static func copying(_ members: [SwiftMember<Delegate>], count: Int, engine: AnyObject)
    -> __ValueMembers
  {
    let made = allocate(count: count, engine: Unmanaged.passUnretained(engine))
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
    let engine = storage.withUnsafeMutablePointerToHeader { $0.pointee.engine }
    let made = Self.allocate(count: count, engine: engine)
    withElements { source in
      made.withElements { $0.initialize(from: source, count: count) }
    }
    return made
  }

  deinit {
    let engine = storage.withUnsafeMutablePointers { header, elements in
      _ = elements.deinitialize(count: header.pointee.count)
      return header.pointee.engine
    }
    engine.release()
  }
}

/// A ``__ValueMembers`` buffer's header: how many values follow it, the multicast they
/// belong to, and one remembered answer (a ``RememberedWord``, read and written atomically
/// in place). Not for direct use.
public struct __ValueMembersHeader {
  /// How many values the buffer holds.
  @usableFromInline let count: Int
  /// The multicast whose members the values are: retained by the buffer (released in its
  /// deinit), unmanaged so that the header stays trivial — nothing else destroys it.
  @usableFromInline let engine: Unmanaged<AnyObject>
  /// The remembered answer's word; 0: none. Accessed only atomically, through its address.
  @usableFromInline var remembered: UInt64 = 0
  /// The remembered reads (bit `r`: the read at index `r`) that these values answer as the
  /// multicast's own values do: every write that made them from the multicast's, or changed
  /// them since, keeps those reads' answers (``DelegateMulticast/remember(_:across:)``).
  /// Written only by the copy that holds the buffer alone.
  @usableFromInline var sameAnswers: UInt64 = 0

  @inlinable init(count: Int, engine: Unmanaged<AnyObject>) {
    self.count = count
    self.engine = engine
  }

  /// Where ``remembered`` is, from the header's address.
  @inlinable static var rememberedOffset: Int {
    MemoryLayout<__ValueMembersHeader>.offset(of: \.remembered)!
  }
}
