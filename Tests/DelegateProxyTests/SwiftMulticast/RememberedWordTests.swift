import DelegateProxy
import Testing

// Remembered reads of a small trivial answer (at most four bytes, as swift-log's
// `Logger.Level`): kept in a word the multicast owns and read without a read section
// (RememberedWord.swift). The same rules as RememberedReadTests' `Int` gauges, whose answers
// the tables keep: every change forgets the answer.

/// A knob whose notch is a small trivial type.
@Delegate
protocol Knob {
  var notch: Int16 { get set }
  mutating func turn(by step: Int16)
}

/// A struct knob that counts the reads of its notch.
struct KnobValue: Knob {
  var stored: Int16
  let reads: TickCounter
  var notch: Int16 {
    get {
      reads.add()
      return stored
    }
    set { stored = newValue }
  }
  mutating func turn(by step: Int16) { stored += step }
}

/// An object knob: it may change without the multicast knowing.
final class KnobObject: Knob, @unchecked Sendable {
  // @unchecked Sendable: the tests use it from one thread.
  var notch: Int16
  init(_ notch: Int16) { self.notch = notch }
  func turn(by step: Int16) { notch += step }
}

/// The same knob, multicast by one shared class (semantics: .reference), for threads.
@Delegate(semantics: .reference)
protocol SharedKnob {
  var notch: Int16 { get }
  mutating func turn(by step: Int16)
}

struct SharedKnobValue: SharedKnob {
  var notch: Int16
  mutating func turn(by step: Int16) { notch += step }
}

@Suite("Remembered reads of small answers")
struct RememberedWordTests {
  /// Two struct knobs at 3 and 7, the least notch remembered.
  private func knobs(_ reads: TickCounter) -> KnobMulticast {
    var knobs = KnobMulticast()
    knobs.add(KnobValue(stored: 3, reads: reads))
    knobs.add(KnobValue(stored: 7, reads: reads))
    knobs.setPolicy(.reduce(.min), for: \.notch)
    knobs.remember(\.notch)
    return knobs
  }

  @Test func aRememberedReadAsksTheMembersOncePerChange() {
    let reads = TickCounter()
    var knobs = knobs(reads)
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(reads.value == 2)
    knobs.forget(\.notch)
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(reads.value == 6)
    knobs.remember(\.notch)
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(reads.value == 8)
  }

  @Test func writesMutatingCallsAndMembershipForgetTheAnswer() {
    let reads = TickCounter()
    var knobs = knobs(reads)
    #expect(knobs.notch == 3)
    knobs.notch = 9
    #expect(knobs.notch == 9)
    knobs.turn(by: 10)
    #expect(knobs.notch == 19)
    #expect(knobs.notch == 19)
    #expect(reads.value == 6)
    let low = knobs.add(KnobValue(stored: -4, reads: reads))
    #expect(knobs.notch == -4)
    knobs.remove(low)
    #expect(knobs.notch == 19)
    knobs.removeAll()
    #expect(knobs.notch == 0)
    #expect(knobs.notch == 0)
    #expect(reads.value == 6 + 3 + 2)
  }

  @Test func aPolicyOrAFilterForgetsTheAnswer() {
    let reads = TickCounter()
    var knobs = knobs(reads)
    #expect(knobs.notch == 3)
    knobs.setPolicy(.reduce(.max), for: \.notch)
    #expect(knobs.notch == 7)
    #expect(knobs.notch == 7)
    knobs.setFilter(for: \.notch) { knob, _ in (knob as? KnobValue)?.stored != 7 }
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(reads.value == 2 + 2 + 1)
  }

  @Test func copiesRememberTheirOwnAnswers() {
    let reads = TickCounter()
    let original = knobs(reads)
    #expect(original.notch == 3)
    var copy = original
    copy.turn(by: 100)
    #expect(copy.notch == 103)
    #expect(original.notch == 3)
    var other = original
    other.notch = 50
    #expect(other.notch == 50)
    #expect(original.notch == 3)
    #expect(copy.notch == 103)
    #expect(reads.value == 2 + 2 + 2)
  }

  @Test func aReadWithAnObjectMemberAsksEveryTime() {
    let reads = TickCounter()
    var knobs = knobs(reads)
    #expect(knobs.notch == 3)
    let object = KnobObject(5)
    let member = knobs.add(object, retention: .strong)
    #expect(knobs.notch == 3)
    object.notch = 2
    #expect(knobs.notch == 2)
    #expect(reads.value == 2 + 4)
    knobs.remove(member)
    #expect(knobs.notch == 3)
    #expect(knobs.notch == 3)
    #expect(reads.value == 2 + 4 + 2)
  }

  /// Readers on two threads while a third turns the knob and adds and removes members:
  /// every read sees a notch the knob had (never lower than one seen before, as the notch
  /// only rises), and the last read sees the last (run under ThreadSanitizer by
  /// Scripts/sanitize.sh).
  @Test(.tags(.stress)) func concurrentRememberedReadsWhileTheMulticastChanges() async {
    let knobs = SharedKnobMulticast()
    knobs.add(SharedKnobValue(notch: 0))
    knobs.setPolicy(.reduce(.max), for: \.notch)
    knobs.remember(\.notch)
    let rounds: Int16 = 2_000
    let misses = TickCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          var seen: Int16 = 0
          for _ in 0..<rounds {
            let notch = knobs.notch
            if notch < seen { misses.add() }
            seen = notch
          }
        }
      }
      group.addTask {
        for _ in 0..<rounds {
          knobs.turn(by: 1)
          if knobs.notch % 100 == 0 {
            let passing = knobs.add(SharedKnobValue(notch: 0))
            knobs.remove(passing)
          }
        }
      }
    }
    #expect(misses.value == 0)
    #expect(knobs.notch == rounds)
  }
}
