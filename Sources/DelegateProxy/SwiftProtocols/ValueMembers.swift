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
/// count), as `ManagedBuffer`'s are; not a `ManagedBuffer` subclass, which cannot be
/// `Sendable`.
public final class __ValueMembers<Delegate>: @unchecked Sendable {
  // @unchecked Sendable: written only through a value multicast that holds the only
  // reference to it (isKnownUniquelyReferenced), so no other thread can be reading it;
  // a shared buffer is only read.

  /// The buffer's header (the count) and elements.
  @inlinable var storage: ManagedBufferPointer<Int, Delegate> {
    ManagedBufferPointer(unsafeBufferObject: self)
  }

  /// How many values it holds.
  @inlinable var count: Int { storage.header }

  /// Runs `body` with the address of the first value.
  @inlinable
  func withElements<R>(_ body: (UnsafeMutablePointer<Delegate>) -> R) -> R {
    storage.withUnsafeMutablePointerToElements(body)
  }

  /// An uninitialised buffer for `count` values.
  @inlinable
  static func allocate(count: Int) -> __ValueMembers {
    let made = ManagedBufferPointer<Int, Delegate>(
      bufferClass: __ValueMembers.self, minimumCapacity: count
    ) { _, _ in count }
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
      _ = elements.deinitialize(count: count.pointee)
    }
  }
}
