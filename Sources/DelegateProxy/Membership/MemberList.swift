/// Where an insertion puts a new member, by `AIMultiDelegate`'s rules.
enum MemberPosition {
  /// After every member (`addDelegate:`).
  case end
  /// At an index among the members, clamped to `0...count`.
  case index(Int)
  /// Before a member; at the end when it is nil or not a member (`addDelegate:beforeDelegate:`).
  case before(AnyObject?)
  /// After a member; at the beginning when it is nil or not a member (`addDelegate:afterDelegate:`).
  case after(AnyObject?)
}

/// The ordered member records of a multicast: THE insertion, compaction and removal every
/// multicast of the package uses. A value kept under its multicast's lock; a multicast
/// publishes a table built from it after each change (see ``Publication``).
struct MemberList<Record: Member> {
  /// The records, in call order; removed and dead ones until the next compaction.
  private(set) var records: [Record]

  /// A list of `records`, in order.
  init(_ records: [Record] = []) { self.records = records }

  /// Drops removed and dead records, marking dead ones removed so that a dispatch still
  /// running over an older table (or a C route) skips them too.
  mutating func compact() {
    records.removeAll { r in
      if r.isRemoved { return true }
      if !r.isAlive {
        r.markRemoved()
        return true
      }
      return false
    }
  }

  /// Inserts `record` at `position`.
  mutating func insert(_ record: Record, at position: MemberPosition) {
    let index: Int
    switch position {
    case .end: index = records.count
    case .index(let i):
      // Counted among the live members (a dead one not compacted yet is not one).
      let live = records.indices.filter { !records[$0].isRemoved && records[$0].isAlive }
      let k = min(max(i, 0), live.count)
      index = k < live.count ? live[k] : records.count
    case .before(let other):
      index = other.flatMap { o in records.firstIndex { $0.holds(o) } } ?? records.count
    case .after(let other):
      index = other.flatMap { o in records.firstIndex { $0.holds(o) }.map { $0 + 1 } } ?? 0
    }
    records.insert(record, at: index)
  }

  /// Marks the records that `match` removed; returns them (empty when none matched). The
  /// caller publishes a table without them and retires the old one, after which no
  /// dispatch can call them.
  mutating func remove(where match: (Record) -> Bool) -> [Record] {
    let gone = records.filter(match)
    for r in gone { r.markRemoved() }
    return gone
  }
}
