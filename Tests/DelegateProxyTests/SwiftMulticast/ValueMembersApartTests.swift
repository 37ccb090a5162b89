import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import Testing

// A copy of a value multicast that writes its value members keeps its own values beside the
// multicast it shares (`__ValueMembers`, issue #33): a copy is a retain, a write copies the
// values once and writes each in place. What it must keep: copies independent, every live
// value written, policies, filters, remembered reads and observers honoured, and no effect
// on another thread dispatching through another copy.

/// A gauge: a level that writes set on every member, a note a `mutating` call sets.
@Delegate
protocol ApartGauge {
  var level: Int { get set }
  func report(_ line: String)
  mutating func setNote(_ note: String)
}

/// A struct member.
struct ApartGaugeValue: ApartGauge {
  var level: Int
  var note = ""
  let name: String
  let log: CallLog

  func report(_ line: String) { log.append("\(name)\(note):\(level):\(line)") }
  mutating func setNote(_ note: String) { self.note = note }
}

/// A class member.
final class ApartGaugeObject: ApartGauge, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread at a time.
  var level: Int
  let log: CallLog
  init(level: Int, log: CallLog) {
    self.level = level
    self.log = log
  }
  func report(_ line: String) { log.append("object:\(level):\(line)") }
  func setNote(_ note: String) { log.append("object note \(note)") }
}

@Suite("Copies of value multicasts that keep their own values")
struct ValueMembersApartTests {
  @Test func copiesAreIndependentAfterAWrite() {
    let log = CallLog()
    var a = ApartGaugeMulticast()
    let first = a.add(ApartGaugeValue(level: 1, name: "x", log: log))
    a.add(ApartGaugeValue(level: 2, name: "y", log: log))
    var b = a
    b.setNote("+b")
    var c = b
    c.setNote("+c")
    c.level = 9
    a.report("a")
    b.report("b")
    c.report("c")
    #expect(
      log.entries == [
        "x:1:a", "y:2:a", "x+b:1:b", "y+b:2:b", "x+c:9:c", "y+c:9:c",
      ])
    // Queries read the copy's own values; memberships are the same in every copy.
    #expect((b.delegate(first) as? ApartGaugeValue)?.note == "+b")
    #expect((a.delegate(first) as? ApartGaugeValue)?.note == "")
    #expect(a.memberIDs == b.memberIDs && b.memberIDs == c.memberIDs)
    #expect(c.members(ofType: ApartGaugeValue.self).map(\.level) == [9, 9])
    #expect(a.members(ofType: ApartGaugeValue.self).map(\.level) == [1, 2])
  }

  @Test func everyLiveValueIsWrittenAndABlockedOneIsNot() {
    let log = CallLog()
    var a = ApartGaugeMulticast()
    var ids: [MemberID] = []
    for i in 0..<8 { ids.append(a.add(ApartGaugeValue(level: i, name: "\(i)", log: log))) }
    var b = a
    b.level = 42
    #expect(b.members(ofType: ApartGaugeValue.self).map(\.level) == Array(repeating: 42, count: 8))
    #expect(a.members(ofType: ApartGaugeValue.self).map(\.level) == Array(0..<8))
    // A second write of the same copy writes its values again, in place.
    b.setNote("!")
    #expect(b.members(ofType: ApartGaugeValue.self).allSatisfy { $0.note == "!" && $0.level == 42 })
    // A removal on the copy makes it a multicast of its own, with its values.
    b.remove(ids[3])
    #expect(b.count == 7 && a.count == 8)
    #expect(b.members(ofType: ApartGaugeValue.self).allSatisfy { $0.note == "!" && $0.level == 42 })
    b.level = 7
    #expect(b.members(ofType: ApartGaugeValue.self).map(\.level) == Array(repeating: 7, count: 7))
  }

  @Test func policiesFiltersAndRememberedReadsAreHonoured() {
    let log = CallLog()
    var a = ApartGaugeMulticast()
    a.add(ApartGaugeValue(level: 3, name: "x", log: log))
    a.add(ApartGaugeValue(level: 5, name: "y", log: log))
    a.setPolicy(.reduce(.min), for: \.level)
    a.remember(\.level)
    a.setFilter(for: \.report) { gauge, line in line.count >= gauge.level }
    #expect(a.level == 3)
    var b = a
    b.setNote("'")
    // The copy asks its own values; the original keeps its remembered answer.
    #expect(b.level == 3)
    b.level = 1
    #expect(b.level == 1 && a.level == 3)
    b.report("ab")
    a.report("abcd")
    #expect(log.entries == ["x':1:ab", "y':1:ab", "x:3:abcd"])
    #expect(b.remembers(\.level))
  }

  @Test func observersAndObjectMembersStillHearTheCopysCalls() {
    let log = CallLog()
    let object = ApartGaugeObject(level: 4, log: log)
    var a = ApartGaugeMulticast()
    a.add(ApartGaugeValue(level: 1, name: "v", log: log))
    a.add(object)
    var b = a
    // An object among the responders: the copy gets a multicast of its own, as before.
    b.setNote("n")
    b.report("r")
    #expect(log.entries == ["object note n", "vn:1:r", "object:4:r"])
    log.clear()
    var c = ApartGaugeMulticast()
    c.add(ApartGaugeValue(level: 1, name: "w", log: log))
    let heard = CallLog()
    let observation = c.observe(\.report) { line in heard.append(line) }
    var d = c
    d.setNote("o")
    d.report("q")
    #expect(log.entries == ["wo:1:q"])
    #expect(heard.entries == ["q"])
    withExtendedLifetime((object, observation)) {}
  }

  @Test(.timeLimit(.minutes(1)))
  func aWriteWhileAnotherThreadDispatchesThroughAnotherCopy() async {
    let log = CallLog()
    var a = ApartGaugeMulticast()
    a.add(ApartGaugeValue(level: 1, name: "x", log: log))
    a.add(ApartGaugeValue(level: 2, name: "y", log: log))
    let shared = a
    let reader = Task.detached {
      var bad = 0
      for _ in 0..<2_000 {
        // Another copy, read on another thread: always the original values.
        if shared.level != 2 { bad += 1 }
        var mine = shared
        mine.level = 5
        if mine.level != 5 { bad += 1 }
      }
      return bad
    }
    var wrong = 0
    for i in 0..<2_000 {
      var b = a
      b.level = i
      b.setNote("\(i)")
      if b.members(ofType: ApartGaugeValue.self).contains(where: {
        $0.level != i || $0.note != "\(i)"
      }) {
        wrong += 1
      }
    }
    #expect(await reader.value == 0)
    #expect(wrong == 0)
    #expect(a.members(ofType: ApartGaugeValue.self).map(\.level) == [1, 2])
  }
}

@Suite("Storage of value multicasts that keep their own values")
struct ValueMembersStorageTests {
  @Test func aCopyStoresOneReferenceAndItsValuesHoldTheMulticast() {
    // One word: the shared multicast, or the values, which hold it.
    #expect(MemoryLayout<ApartGaugeMulticast>.size == MemoryLayout<AnyObject>.size)
    weak var engine: AnyObject?
    weak var memberLog: CallLog?
    var b = ApartGaugeMulticast()
    do {
      let log = CallLog()
      memberLog = log
      var a = ApartGaugeMulticast()
      a.add(ApartGaugeValue(level: 1, name: "x", log: log))
      engine = a.__storage.sharedEngine
      b = a
      b.level = 7
    }
    // The original is gone: the copy's values alone hold the multicast and the members.
    #expect(engine != nil)
    #expect(b.level == 7)
    b.report("r")
    #expect(memberLog?.entries == ["x:7:r"])
    b = ApartGaugeMulticast()
    #expect(engine == nil)
    #expect(memberLog == nil)
  }

  @Test func aCopyOfACopyWithItsOwnValuesSharesThemUntilOneWrites() {
    let log = CallLog()
    weak var engine: AnyObject?
    var a = ApartGaugeMulticast()
    a.add(ApartGaugeValue(level: 1, name: "x", log: log))
    engine = a.__storage.sharedEngine
    var b = a
    b.level = 2
    var c = b
    // c shares b's values (and through them the multicast) until it writes.
    #expect(c.level == 2)
    c.level = 3
    #expect(a.level == 1 && b.level == 2 && c.level == 3)
    a = ApartGaugeMulticast()
    b = ApartGaugeMulticast()
    #expect(engine != nil)
    // A change other than a write of values gives c a multicast of its own, with its values.
    c.add(ApartGaugeValue(level: 4, name: "y", log: log))
    #expect(engine == nil)
    #expect(c.members(ofType: ApartGaugeValue.self).map(\.level) == [3, 4])
  }
}

/// A gauge whose level is small enough for the multicast's remembered words (Int32).
@Delegate
protocol KeptGauge {
  var level: Int32 { get set }
  func report(_ line: String)
  mutating func setNote(_ note: String)
}

/// A struct member whose level read is logged: what asks it shows in the log.
struct CountedGaugeValue: KeptGauge {
  var stored: Int32
  var note = ""
  let log: CallLog

  var level: Int32 {
    get {
      log.append("read \(stored)")
      return stored
    }
    set { stored = newValue }
  }
  func report(_ line: String) { log.append("\(note):\(stored):\(line)") }
  mutating func setNote(_ note: String) { self.note = note }
}

@Suite("Remembered reads kept across writes that do not change them")
struct RememberedAcrossWritesTests {
  /// Two counted members, the least level remembered across `setNote`.
  static func gauge(_ log: CallLog) -> KeptGaugeMulticast {
    var a = KeptGaugeMulticast()
    a.add(CountedGaugeValue(stored: 3, log: log))
    a.add(CountedGaugeValue(stored: 5, log: log))
    a.setPolicy(.reduce(.min), for: \.level)
    a.remember(\.level, across: \.setNote)
    return a
  }

  @Test func aCopyWrittenByAKeptWriteAnswersAsTheSharedMulticastRemembers() {
    let log = CallLog()
    let a = Self.gauge(log)
    #expect(a.level == 3)
    #expect(log.entries == ["read 3", "read 5"])
    log.clear()
    var b = a
    b.setNote("n")
    // The shared multicast's remembered answer: nobody asked.
    #expect(b.level == 3)
    #expect(log.entries.isEmpty)
    // The write did happen, on the copy only.
    b.report("r")
    a.report("s")
    #expect(log.entries == ["n:3:r", "n:5:r", ":3:s", ":5:s"])
  }

  @Test func theFirstCopyAsksTheSharedMulticastOnceForEveryCopy() {
    let log = CallLog()
    let a = Self.gauge(log)
    var b = a
    b.setNote("b")
    #expect(b.level == 3)
    // Asked once, of the shared multicast's values, and kept for it and for the copy.
    #expect(log.entries == ["read 3", "read 5"])
    log.clear()
    var c = a
    c.setNote("c")
    #expect(c.level == 3 && b.level == 3 && a.level == 3)
    // A second write of the same kind, on a copy that keeps its own values, keeps it too.
    c.setNote("d")
    #expect(c.level == 3)
    #expect(log.entries.isEmpty)
  }

  @Test func anyOtherWriteForgetsTheAnswer() {
    let log = CallLog()
    let a = Self.gauge(log)
    #expect(a.level == 3)
    log.clear()
    var b = a
    b.setNote("n")
    b.level = 1
    // `level`'s own write is not kept across: the copy's values are asked.
    #expect(b.level == 1)
    #expect(log.entries == ["read 1", "read 1"])
    log.clear()
    // A kept write after it keeps the copy's own answer (not the shared multicast's).
    var c = b
    c.setNote("m")
    #expect(c.level == 1)
    #expect(log.entries.isEmpty)
    #expect(a.level == 3)
    // And after a forgetting write on a copy of its own, the values are asked again.
    c.level = 2
    c.setNote("o")
    #expect(c.level == 2)
    #expect(log.entries == ["read 2", "read 2"])
  }

  @Test func anAnswerTooLargeForAWordIsTheSharedMulticastsToo() {
    // `Int`: remembered in the table's slot, not a word; the copy reads the shared one's.
    let log = CallLog()
    var a = ApartGaugeMulticast()
    a.add(ApartGaugeValue(level: 3, name: "x", log: log))
    a.add(ApartGaugeValue(level: 5, name: "y", log: log))
    a.setPolicy(.reduce(.min), for: \.level)
    a.remember(\.level, across: \.setNote)
    var b = a
    b.setNote("n")
    #expect(b.level == 3 && a.level == 3)
    b.setNote("m")
    #expect(b.level == 3)
    b.level = 1
    #expect(b.level == 1 && a.level == 3)
    var c = b
    c.setNote("o")
    #expect(c.level == 1)
    c.report("r")
    #expect(log.entries == ["xo:1:r", "yo:1:r"])
  }

  @Test func forgettingTheReadForgetsWhatWritesKeep() {
    let log = CallLog()
    var a = Self.gauge(log)
    a.forget(\.level)
    a.remember(\.level)
    #expect(a.level == 3)
    log.clear()
    var b = a
    b.setNote("n")
    // Remembered again, but no longer across `setNote`: the copy asks its own values.
    #expect(b.level == 3)
    #expect(log.entries == ["read 3", "read 5"])
    #expect(b.remembers(\.level))
  }
}
