import Synchronization

// Remembered reads (``DelegateMulticast/remember(_:)``): a property's answer, folded once
// per published table and kept in it.
//
// Why it is exact: a value member's stored value changes only through the multicast — a
// write or `mutating` call stores the new values by publishing a new table, as adding,
// removing, blocking, a policy or a filter does, or, on a value multicast's engine that no
// other copy shares (so no dispatch reads it), in place, emptying the table's slots as a new
// table's are — so while a table's slots hold answers the values it lists do not change, and
// neither does a fold of them. Each table starts with empty
// slots; the first read fills its slot and later reads return what it holds. A copy of a
// value multicast has an engine, so tables, of its own. Object members can change behind
// the multicast's back: a read whose responders include one is not remembered.

/// The slot of one remembered read in one table, erased: a ``RememberedAnswer`` of the
/// read's result type.
@usableFromInline
class AnyRememberedAnswer: @unchecked Sendable {
  // @unchecked Sendable: its one state, the subclass's answer, is an atomic address set
  // once (compare and exchange) and freed only in deinit, after the table's grace period.
  required init() {}

  /// Empties the slot (its table's members changed in place); only while no dispatch can
  /// read it.
  func forget() {}

  /// Whether the read's answer is kept in the multicast's word instead
  /// (``RememberedWord/fits(_:)``): the slot then stays empty for good, so the tables of
  /// copies of a value multicast share it instead of allocating their own.
  var isKeptInWord: Bool { false }
}

/// The answer of one remembered read in one table: empty until the first read of the
/// table stores it (the first of racing readers wins; the others free their own copy), then
/// read without a lock. The table holds it; it frees the answer when the table is retired.
@usableFromInline
final class RememberedAnswer<Result>: AnyRememberedAnswer, @unchecked Sendable {
  // @unchecked Sendable: see AnyRememberedAnswer; the answer's memory is written before it
  // is published (releasing) and read after it is loaded (acquiring).

  /// The answer's address, 0 until the first read stores it.
  @usableFromInline let answer = Atomic<UInt>(0)

  required init() {}

  /// The remembered answer, if a read of this table stored it.
  @inlinable
  var value: Result? {
    let address = answer.load(ordering: .acquiring)
    guard address != 0 else { return nil }
    return UnsafePointer<Result>(bitPattern: address).unsafelyUnwrapped.pointee
  }

  /// Stores `value` unless a racing read stored its own first (the same fold of the same
  /// values: either is the answer).
  @usableFromInline
  func store(_ value: Result) {
    let box = UnsafeMutablePointer<Result>.allocate(capacity: 1)
    box.initialize(to: value)
    let (stored, _) = answer.compareExchange(
      expected: 0, desired: UInt(bitPattern: box), ordering: .acquiringAndReleasing)
    if !stored {
      box.deinitialize(count: 1)
      box.deallocate()
    }
  }

  override var isKeptInWord: Bool { RememberedWord.fits(Result.self) }

  override func forget() {
    let address = answer.exchange(0, ordering: .acquiringAndReleasing)
    guard let box = UnsafeMutablePointer<Result>(bitPattern: address) else { return }
    box.deinitialize(count: 1)
    box.deallocate()
  }

  deinit {
    let address = answer.load(ordering: .acquiring)
    guard let box = UnsafeMutablePointer<Result>(bitPattern: address) else { return }
    box.deinitialize(count: 1)
    box.deallocate()
  }
}

extension DelegateMulticast {
  /// Remembers the answer of the property read `read` (a getter: a method without
  /// arguments) from one change of the multicast to the next, instead of asking every
  /// member on each read: swift-log's `Logger` reads its handler's `logLevel` before every
  /// line, and a multicast of handlers folds its members' levels each time.
  ///
  /// ```swift
  /// sinks.setPolicy(.reduce(.min), for: \.logLevel)
  /// sinks.remember(\.logLevel)
  /// ```
  ///
  /// The first read after a change asks the members under the read's policy and filter
  /// and keeps the answer; later reads return it, with no call to any member, until the
  /// next change: a write or `mutating` call, adding, inserting, removing or blocking a
  /// member, a policy, a filter or an observer. Each copy of a value multicast remembers
  /// its own answer. An answer of a small trivial type (at most four bytes, such as
  /// swift-log's `Logger.Level`) is read from a word the multicast keeps, without entering a
  /// read section (RememberedWord.swift).
  ///
  /// The contract: the read's answer depends only on the members' stored values (not on a
  /// clock, a global or a reference a member holds), as a property's usually does. Object
  /// members can change without the multicast knowing, so while a read has one among its
  /// responders it is not remembered (every read asks the members), nor while a responder
  /// is on a queue or the read has observers (which hear every call). Calls from C, and
  /// ``aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)``, always ask the members.
  /// Unused, it costs nothing.
  public final func remember<Result>(_ read: HandleKey<Void, Result>) {
    let index = index(of: read)
    update { $0.remembered[index] = RememberedAnswer<Result>.self }
  }

  /// Remembers `read`'s answer (``remember(_:)``), and lets it outlive the calls of
  /// `write`: the caller promises that `write` never changes `read`'s answer (swift-log's
  /// metadata writes never change a handler's level — what `MultiplexLogHandler` assumes
  /// when it keeps its level across them).
  ///
  /// ```swift
  /// sinks.remember(\.logLevel, across: \.setSubscriptMetadataKey)
  /// ```
  ///
  /// A copy of a value multicast that writes its values through `write` then keeps the
  /// answer it, or the multicast it shares, remembered, instead of asking every member on the
  /// next read (swift-log's per-request `logger[metadataKey:] = …` before a line). Any other
  /// change forgets the answer as ``remember(_:)`` says; so may this one (the multicast may
  /// always ask again). The promise is the caller's, as the contract of ``remember(_:)`` is:
  /// a `write` that changes the answer leaves reads answering the old one until the next
  /// change. Reads among the protocol's first 64 methods only; another is remembered but
  /// forgotten at every write.
  public final func remember<Result, Arguments>(
    _ read: HandleKey<Void, Result>, across write: HandleKey<Arguments, Void>
  ) {
    let index = index(of: read)
    let writeIndex = self.index(of: write)
    update { s in
      s.remembered[index] = RememberedAnswer<Result>.self
      if index < 64 { s.keptAcross[writeIndex, default: 0] |= 1 << UInt64(index) }
    }
  }

  /// Stops remembering `read`'s answer (``remember(_:)``): every read asks the members.
  public final func forget<Result>(_ read: HandleKey<Void, Result>) {
    let index = index(of: read)
    update { s in
      s.remembered[index] = nil
      guard index < 64 else { return }
      // No write keeps an answer that is not remembered.
      s.keptAcross = s.keptAcross.compactMapValues { kept in
        let left = kept & ~(1 << UInt64(index))
        return left == 0 ? nil : left
      }
    }
  }

  /// Whether `read`'s answer is remembered (``remember(_:)``).
  public final func remembers<Result>(_ read: HandleKey<Void, Result>) -> Bool {
    let index = index(of: read)
    return state.withLock { $0.remembered[index] != nil }
  }
}
