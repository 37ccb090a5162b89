import MessageRuntime
import Synchronization

/// Optional methods of Swift delegate protocols.
///
/// Swift protocols have no optional requirements, so `@Delegate` gives each method
/// marked optional a default implementation that calls ``notImplemented(by:selector:)``.
/// A conforming class that implements the method runs its own; one that does not runs
/// the default, which records that its class does not implement the selector. From
/// then on a multicast neither answers `responds(to:)` for that class's instances nor
/// calls them for it, and the value the default returned is never used.
///
/// The record is learned, not declared: until an instance of a class has received one
/// optional message it does not implement, a multicast counts it as a responder for
/// that message (it is called, runs the default — none of your code — and is dropped).
///
/// Neither learning nor asking takes a lock on a calling path: the record is an
/// immutable set published to lock-free readers (as a multicast's member table is), and
/// the generated default, once its class's absence is recorded, costs a delegator that
/// calls its plain delegate one cache look-up (three loads).
public enum DelegateOptional {
  struct Key: Hashable {
    let type: ObjectIdentifier
    let selector: String
  }

  /// One published version of the record.
  final class Record: Sendable {
    let missing: Set<Key>
    init(_ missing: Set<Key>) { self.missing = missing }
  }

  /// What the generated defaults have already recorded: a class (or value type) and the
  /// address of the selector literal its default passes. Immutable; kept for the
  /// process's life in ``Writer/sites`` (one per pair, so a bounded number).
  final class Site: Sendable {
    let type: UInt
    let selector: UInt
    init(type: UInt, selector: UInt) {
      self.type = type
      self.selector = selector
    }
  }

  /// What writers share, under ``writer``: the sites recorded so far.
  struct Writer {
    var sites: [SiteKey: Site] = [:]
  }
  struct SiteKey: Hashable {
    let type: UInt
    let selector: UInt
  }

  /// The record, read lock-free inside a read section of its domain.
  private static let published = Publication(Record([]))
  /// Serialises the writers (learning, forgetting). Lock order: taken alone, and no user
  /// code runs under it.
  private static let writer = Lock(Writer())
  /// Bumped whenever the record grows: dispatch loops compare it around each call to
  /// an optional method (one relaxed load each) instead of asking the record.
  @usableFromInline static let learned = Atomic<UInt64>(0)
  /// How many times a generated default went past the site cache (tests check that a
  /// recorded pair stays in the cache).
  package static let recordingsTaken = Atomic<Int>(0)

  /// A direct-mapped cache of ``Site``s, indexed by a hash of the pair.
  private static let siteSlotCount = 256
  /// Allocated once and never freed; each slot is only ever accessed atomically, and
  /// holds 0 or the unretained address of a ``Site`` that ``Writer/sites`` keeps alive.
  nonisolated(unsafe) private static let siteSlots: UnsafeMutablePointer<Atomic<UInt>> = {
    let slots = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: siteSlotCount)
    for i in 0..<siteSlotCount { (slots + i).initialize(to: Atomic(0)) }
    return slots
  }()

  @inline(__always)
  private static func slot(type: UInt, selector: UInt) -> Int {
    Int(truncatingIfNeeded: (((type >> 4) ^ (selector &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
  }

  /// Whether the pair is in the site cache (then its absence is recorded).
  @inline(__always)
  private static func cached(type: UInt, selector: UInt) -> Bool {
    let bits = siteSlots[slot(type: type, selector: selector)].load(ordering: .acquiring)
    guard let raw = UnsafeRawPointer(bitPattern: bits) else { return false }
    return Unmanaged<Site>.fromOpaque(raw)._withUnsafeGuaranteedRef {
      $0.type == type && $0.selector == selector
    }
  }

  /// Called by the generated default of an optional method: records that `delegate`'s
  /// class does not implement `selector`. (The default then returns the method's answer
  /// for no delegates, which a multicast never uses.) Not for direct use.
  public static func __notImplemented(by delegate: AnyObject, selector: StaticString) {
    note(ObjectIdentifier(type(of: delegate)), lacks: selector)
  }

  /// Called by the generated default of an optional method of a protocol that is not
  /// class-bound: records that `delegate`'s type — a struct's, an enum's or a class's — does
  /// not implement `selector`. Not for direct use.
  public static func __notImplemented<Delegate>(byValue delegate: Delegate, selector: StaticString)
  {
    note(ObjectIdentifier(type(of: delegate as Any)), lacks: selector)
  }

  @inline(__always)
  private static func note(_ type: ObjectIdentifier, lacks selector: StaticString) {
    let typeBits = UInt(bitPattern: type)
    let selectorBits = UInt(bitPattern: selector.utf8Start)
    if cached(type: typeBits, selector: selectorBits) { return }
    record(type, lacks: selector, typeBits: typeBits, selectorBits: selectorBits)
  }

  /// The first time a default runs for a pair (or after its cache slot was taken by
  /// another pair): records the pair and caches it.
  @inline(never)
  private static func record(
    _ type: ObjectIdentifier, lacks selector: StaticString, typeBits: UInt, selectorBits: UInt
  ) {
    recordingsTaken.add(1, ordering: .relaxed)
    let name = selector.description
    let retired = writer.withLock { w -> Retired<Record>? in
      let key = SiteKey(type: typeBits, selector: selectorBits)
      let site = w.sites[key] ?? Site(type: typeBits, selector: selectorBits)
      w.sites[key] = site
      let retired = insert(Key(type: type, selector: name))
      siteSlots[slot(type: typeBits, selector: selectorBits)].store(
        UInt(bitPattern: Unmanaged.passUnretained(site).toOpaque()), ordering: .releasing)
      return retired
    }
    retired?.release()
  }

  /// Publishes the record with `key` added, if it is new (call under ``writer``), and
  /// returns the version it replaced.
  private static func insert(_ key: Key) -> Retired<Record>? {
    let current = published.current.missing
    guard !current.contains(key) else { return nil }
    let retired = published.replace(with: Record(current.union([key])))
    learned.add(1, ordering: .releasing)
    return retired
  }

  /// Whether instances of `type` are known not to implement `selector`.
  package static func isKnownMissing(_ selector: String, in type: AnyObject.Type) -> Bool {
    isKnownMissing(selector, typeID: ObjectIdentifier(type))
  }

  static func isKnownMissing(_ selector: String, typeID: ObjectIdentifier) -> Bool {
    let key = Key(type: typeID, selector: selector)
    return Quiescence.readSection(published.domain) {
      published.withTable { $0.missing.contains(key) }
    }
  }

  /// What an object's optional methods are known by: its class, except for a stand-in,
  /// whose methods are those its own target responds to (two stand-ins of one class may
  /// differ).
  static func identity(of object: AnyObject) -> ObjectIdentifier {
    object is any AnyDelegateStandIn ? ObjectIdentifier(object) : ObjectIdentifier(type(of: object))
  }

  /// Records that `standIn`'s target does not respond to the optional `selector`, so a
  /// multicast stops counting the stand-in's zero as an answer.
  static func standIn(_ standIn: ObjectIdentifier, lacks selector: String) {
    writer.withLock { _ in insert(Key(type: standIn, selector: selector)) }?.release()
  }

  /// Forgets what was recorded for a stand-in that is going away (a new object may get
  /// its address). Stand-ins are never in the site cache: only classes and value types
  /// are, and their records are never forgotten.
  static func forget(standIn id: ObjectIdentifier) {
    let retired = writer.withLock { _ -> Retired<Record>? in
      let current = published.current.missing
      guard current.contains(where: { $0.type == id }) else { return nil }
      return published.replace(with: Record(current.filter { $0.type != id }))
    }
    retired?.release()
  }
}
