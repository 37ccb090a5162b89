import Synchronization

// The remembered answer of a small trivial type (swift-log's `Logger.Level`), kept by the
// multicast itself in one atomic word per method, so that a read returns it without
// entering a read section or loading the published table (RememberedRead.swift keeps the
// answer in the table, which a reader may only follow inside a read section): the word
// holds the answer's bytes, no address, so reading it is safe at any time.
//
// Why it stays exact: each publication of a table resets every word to "empty, for this
// table's generation" (under the multicast's lock, before the table is published), and a
// read stores an answer only by a compare-and-exchange from "empty, for the generation of
// the table it folded". A read that folded a table replaced since finds the word reset for
// a newer generation and stores nothing; so a word that holds an answer holds the answer of
// the table published last, and after a change returns, no read returns an older answer.

/// One method's remembered answer as a word: bits 0–31 the answer's bytes, bit 32 set when
/// it holds an answer, bits 33–63 the generation of the table it was folded from (the low
/// 31 bits: a read stalled across 2³¹ changes could store a stale answer, which no
/// realistic program does).
@usableFromInline
enum RememberedWord {
  /// Bit 32: the word holds an answer.
  @usableFromInline static var answered: UInt64 { 1 << 32 }

  /// Whether `Result` fits a word: trivial (copied bitwise, nothing to retain) and at most
  /// four bytes. Resolved when the dispatch is specialised.
  @inlinable @inline(__always)
  static func fits<Result>(_: Result.Type) -> Bool {
    _isPOD(Result.self) && MemoryLayout<Result>.size <= 4 && MemoryLayout<Result>.size > 0
  }

  /// The word for "no answer yet" in the table of `generation`.
  @inlinable @inline(__always)
  static func empty(_ generation: UInt64) -> UInt64 { (generation & 0x7FFF_FFFF) << 33 }

  /// The word holding `value`, folded from the table of `generation`. `Result` fits.
  @inlinable @inline(__always)
  static func word<Result>(_ value: Result, _ generation: UInt64) -> UInt64 {
    var bytes: UInt32 = 0
    withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: value, as: Result.self) }
    return empty(generation) | answered | UInt64(bytes)
  }

  /// The answer `word` holds (it has ``answered`` set). `Result` fits.
  @inlinable @inline(__always)
  static func value<Result>(_ word: UInt64, as _: Result.Type) -> Result {
    let bytes = UInt32(truncatingIfNeeded: word)
    return withUnsafeBytes(of: bytes) { $0.load(as: Result.self) }
  }
}

/// The multicast's remembered words, one per method of its protocol (see RememberedWord).
/// Kept in the multicast itself, owning its buffer (not an object of its own: a copy of a
/// value multicast, made per request, allocates one object fewer).
@usableFromInline
struct RememberedWords: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: its one state is a buffer of atomics, allocated in init and freed
  // in deinit; every access in between is atomic.

  /// By method index.
  @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt64>>
  /// How many methods.
  let count: Int

  /// Words for `count` methods, empty for the table of `generation`.
  init(count: Int, generation: UInt64) {
    self.count = count
    words = .allocate(capacity: max(count, 1))
    for index in 0..<count {
      (words + index).initialize(to: Atomic(RememberedWord.empty(generation)))
    }
  }

  deinit {
    words.deinitialize(count: count)
    words.deallocate()
  }

  /// The answer remembered for the method at `index`, if a read of the table published
  /// last stored one. `Result` fits (``RememberedWord/fits(_:)``).
  @inlinable @inline(__always)
  func answer<Result>(_ index: Int, as _: Result.Type) -> Result? {
    let word = words[index].load(ordering: .acquiring)
    guard word & RememberedWord.answered != 0 else { return nil }
    return RememberedWord.value(word, as: Result.self)
  }

  /// Stores `value`, folded from the table of `generation`, for the method at `index`,
  /// unless that table was replaced since (or a racing read stored the same answer first).
  @inlinable
  func store<Result>(_ value: Result, _ index: Int, generation: UInt64) {
    _ = words[index].compareExchange(
      expected: RememberedWord.empty(generation),
      desired: RememberedWord.word(value, generation), ordering: .releasing)
  }

  /// Empties every word for the table of `generation`, about to be published (under the
  /// multicast's lock).
  func reset(for generation: UInt64) {
    for index in 0..<count {
      words[index].store(RememberedWord.empty(generation), ordering: .releasing)
    }
  }
}
