import Dispatch
import MessageRuntime
import Synchronization

/// One membership in a multicast — the record every multicast of the package keeps,
/// ``MulticastProxy``'s (``ProxyMember``) and `@Delegate`'s alike: the delegate, held
/// weakly or strongly, the queue it is called on, and the one flag that stops every
/// dispatch — Swift loops and C routes alike — from calling it.
///
/// A weakly held delegate is kept as an unowned reference that a dispatch upgrades with
/// one `tryRetain` per call, never a `weak` variable, whose side table would slow every
/// retain of the delegate. A record's identity, delegate, queue and retention never
/// change; its removed flag is set once. Member tables share records, so a dispatch
/// running over an older table sees a removal the moment it happens: it checks the flag
/// right before each call.
@usableFromInline
package class Member: @unchecked Sendable, CustomStringConvertible {
  // @unchecked Sendable: every stored property is immutable after init but `blocks`,
  // an atomic (written under its multicast's state lock, read anywhere); the removed
  // flag lives in `flag`, a C record written and read atomically.

  /// A number unique to this record within the process (stable across table rebuilds).
  @usableFromInline package let id: UInt64
  /// How the delegate is held.
  package let retention: Retention
  /// The queue the delegate is called on, or nil for the sender's thread
  /// (`GCDMulticastDelegate`'s `delegateQueue`).
  @usableFromInline package let queue: DispatchQueue?
  /// The removed flag: the C routes that list the delegate read the same one.
  @usableFromInline package let flag: RouteMembership
  /// Keeps the delegate's memory allocated, so `tryRetain` is safe after its deinit began.
  @usableFromInline let object: UnownedObject
  /// The strong reference, for ``Retention/strong``.
  @usableFromInline let strong: AnyObject?
  /// The delegate's type name, for diagnostics after it is gone.
  let typeName: String
  /// How many times the member is blocked (``DelegateMulticast/block(_:)``): while
  /// nonzero, the tables built for dispatch leave it out, so no path calls it and no
  /// dispatch pays a check for it. Written only under its multicast's state lock, where
  /// tables are built; read also by queries (`responders`, `each`) running outside it,
  /// hence atomic (relaxed: a query's answer is a snapshot either way).
  let blocks = Atomic<Int>(0)
  /// How many times the member is blocked.
  final var blockCount: Int {
    get { blocks.load(ordering: .relaxed) }
    set { blocks.store(newValue, ordering: .relaxed) }
  }
  /// Whether the member is blocked (kept in place, not called).
  final var isBlocked: Bool { blockCount > 0 }

  /// A record for `delegate`. `flag`, when given, is another record's: the two are one
  /// value member before and after a mutating call. `id`, when given, is the membership's
  /// number carried over from the record this one replaces or copies.
  init(
    _ delegate: AnyObject, typeName: String, retention: Retention, queue: DispatchQueue?,
    flag: RouteMembership? = nil, id: UInt64? = nil
  ) {
    self.id = id ?? memberIDs.wrappingAdd(1, ordering: .relaxed).oldValue
    self.retention = retention
    self.queue = queue
    self.flag = flag ?? RouteMembership()
    object = UnownedObject(delegate)
    strong = retention == .strong ? delegate : nil
    self.typeName = typeName
  }

  deinit { object.releaseUnowned() }

  /// Whether the record was removed from its multicast (by `remove`, `removeAll` or
  /// compaction). A removed record is never called again.
  @inlinable package final var isRemoved: Bool { flag.isRemoved }

  /// Whether the delegate's deinit has not begun (a snapshot).
  package final var isAlive: Bool { strong != nil || object.isAlive }

  /// Stops every dispatch, on every path, from calling the delegate from now on.
  final func markRemoved() { flag.markRemoved() }

  /// Whether this record holds `other` (compared by identity).
  final func holds(_ other: AnyObject) -> Bool {
    object.address == Unmanaged.passUnretained(other).toOpaque()
  }

  /// The delegate's address, for diagnostics.
  final var address: UInt { UInt(bitPattern: object.address) }

  /// THE way to call a live member: the removed check, one strong reference for the
  /// call (`tryRetain`, for a weak member), `body`, the release. Nil, and `body` not
  /// run, when the member was removed or its delegate's deinit has begun. Call inside a
  /// read section (see `Quiescence`).
  ///
  /// The member is named in the section's slot first (for the scoped wait,
  /// `Quiescence.waitForCalls(to:)`), and the removed check is the last step before the
  /// call.
  @inlinable
  final func withDelegate<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R? {
    Quiescence.calling(UnsafeRawPointer(flag.node))
    guard !isRemoved else { return nil }
    guard strong != nil || object.tryRetain() else { return nil }
    defer {
      Quiescence.calling(nil)
      if strong == nil { object.release() }
    }
    return try body()
  }

  /// How the record reads in logs: type, address, retention, queue, state.
  @usableFromInline package var description: String {
    var s = "\(typeName) <0x\(String(address, radix: 16))> \(retention)"
    if let queue { s += " queue=\(queue.label.isEmpty ? "(unlabelled)" : queue.label)" }
    return s + (isRemoved ? " removed" : (isAlive ? " alive" : " deallocated"))
  }
}

/// The source of ``Member/id``.
private let memberIDs = Atomic<UInt64>(1)

/// One membership of a `@Delegate` multicast, as ``DelegateMulticast/add(_:queue:retention:)``
/// returns it: what ``DelegateMulticast/remove(_:)-(MemberID)`` and
/// ``DelegateMulticast/delegate(_:)`` take.
///
/// A value (a struct added to a multicast of a protocol that is not class-bound) has no
/// identity of its own — two equal values are one value — so the membership is what
/// names it: the token stays valid while the member's value changes (a `mutating` call
/// stores a new value in the same membership), and a copy of a value multicast keeps its
/// members' tokens, so `b.remove(token)` removes from `b` the copy of the member the token
/// named in `a`. An object member has one too.
///
/// Adding an object that is already a member (a multicast keeps each object once unless
/// told ``MulticastOptions/allowsDuplicates``) changes nothing and returns the existing
/// membership, with ``isNew`` false.
public struct MemberID: Hashable, Sendable, CustomStringConvertible {
  /// The membership's number (unique in the process, shared by copies of one membership).
  let rawValue: UInt64
  /// Whether the `add` (or `insert`) that returned this made a new membership; false when
  /// the delegate was already a member and nothing changed. Not part of the identity: two
  /// tokens of one membership are equal whatever this says.
  public let isNew: Bool

  init(_ rawValue: UInt64, isNew: Bool = true) {
    self.rawValue = rawValue
    self.isNew = isNew
  }

  /// Whether the two name the same membership.
  public static func == (a: MemberID, b: MemberID) -> Bool { a.rawValue == b.rawValue }

  /// Hashes the membership's number.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// `member #N`.
  public var description: String { "member #\(rawValue)" }
}

/// How a multicast holds one of its delegates.
public enum Retention: Sendable, Hashable, CustomStringConvertible {
  /// A weak reference (the default, as in every reference system): the multicast does
  /// not keep the delegate alive; once it is deallocated it is skipped and compacted away.
  case weak
  /// A strong reference: the multicast keeps the delegate alive until it is removed.
  case strong

  /// A readable rendering, for logs and diagnostics.
  public var description: String { self == .weak ? "weak" : "strong" }
}

/// Queues that delegates of Swift multicasts are called on, marked so a dispatch can
/// tell whether it already runs on one (and call the delegate directly instead of
/// waiting on the queue for itself).
enum QueueMarks {
  /// Set on every such queue, to the queue's identity.
  static let key = DispatchSpecificKey<ObjectIdentifier>()

  static func mark(_ queue: DispatchQueue) {
    if queue.getSpecific(key: key) == nil {
      queue.setSpecific(key: key, value: ObjectIdentifier(queue))
    }
  }

  /// Whether the current code runs on `queue` (or on a queue targeting it).
  static func isCurrent(_ queue: DispatchQueue) -> Bool {
    DispatchQueue.getSpecific(key: key) == ObjectIdentifier(queue)
  }
}
