import DelegateProxy
import Testing

// Remembered reads (DelegateMulticast.remember): the answer is kept from one change of the
// multicast to the next, and every change forgets it.

/// A gauge, read as swift-log's `Logger` reads its handler's `logLevel`.
@Delegate
protocol Gauge {
  var level: Int { get set }
  mutating func raise(by step: Int)
}

/// A struct gauge that counts the reads of its level.
struct GaugeValue: Gauge {
  var stored: Int
  let reads: TickCounter
  var level: Int {
    get {
      reads.add()
      return stored
    }
    set { stored = newValue }
  }
  mutating func raise(by step: Int) { stored += step }
}

/// An object gauge: it may change without the multicast knowing.
final class GaugeObject: Gauge, @unchecked Sendable {
  // @unchecked Sendable: the tests use it from one thread.
  var level: Int
  init(_ level: Int) { self.level = level }
  func raise(by step: Int) { level += step }
}

/// The same gauge, multicast by one shared class (semantics: .reference), for threads.
@Delegate(semantics: .reference)
protocol SharedGauge {
  var level: Int { get }
  mutating func raise(by step: Int)
}

struct SharedGaugeValue: SharedGauge {
  var level: Int
  mutating func raise(by step: Int) { level += step }
}

@Suite("Remembered reads")
struct RememberedReadTests {
  /// Two struct gauges at 3 and 7, the least level remembered.
  private func gauges(_ reads: TickCounter) -> GaugeMulticast {
    var gauges = GaugeMulticast()
    gauges.add(GaugeValue(stored: 3, reads: reads))
    gauges.add(GaugeValue(stored: 7, reads: reads))
    gauges.setPolicy(.reduce(.min), for: \.level)
    gauges.remember(\.level)
    return gauges
  }

  @Test func aRememberedReadAsksTheMembersOncePerChange() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    #expect(gauges.remembers(\.level))
    #expect(gauges.level == 3)
    #expect(gauges.level == 3)
    #expect(gauges.level == 3)
    #expect(reads.value == 2)
    gauges.forget(\.level)
    #expect(!gauges.remembers(\.level))
    #expect(gauges.level == 3)
    #expect(gauges.level == 3)
    #expect(reads.value == 6)
  }

  @Test func aWriteForgetsTheAnswer() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    #expect(gauges.level == 3)
    gauges.level = 9
    #expect(gauges.level == 9)
    #expect(gauges.level == 9)
    #expect(reads.value == 4)
  }

  @Test func aMutatingCallForgetsTheAnswer() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    #expect(gauges.level == 3)
    gauges.raise(by: 10)
    #expect(gauges.level == 13)
    #expect(gauges.level == 13)
    #expect(reads.value == 4)
  }

  @Test func addingAndRemovingForgetTheAnswer() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    #expect(gauges.level == 3)
    let low = gauges.add(GaugeValue(stored: 1, reads: reads))
    #expect(gauges.level == 1)
    gauges.remove(low)
    #expect(gauges.level == 3)
    let first = gauges.memberIDs[0]
    gauges.remove(first)
    #expect(gauges.level == 7)
    gauges.removeAll()
    #expect(gauges.level == 0)
    #expect(reads.value == 2 + 3 + 2 + 1)
  }

  @Test func aPolicyOrAFilterForgetsTheAnswer() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    #expect(gauges.level == 3)
    gauges.setPolicy(.reduce(.max), for: \.level)
    #expect(gauges.level == 7)
    #expect(gauges.level == 7)
    gauges.setFilter(for: \.level) { gauge, _ in (gauge as? GaugeValue)?.stored != 7 }
    #expect(gauges.level == 3)
    #expect(gauges.level == 3)
    #expect(reads.value == 2 + 2 + 1)
  }

  @Test func copiesRememberTheirOwnAnswers() {
    let reads = TickCounter()
    let original = gauges(reads)
    #expect(original.level == 3)
    var copy = original
    #expect(copy.level == 3)
    copy.raise(by: 100)
    #expect(copy.level == 103)
    #expect(original.level == 3)
    var other = original
    other.level = 50
    #expect(other.level == 50)
    #expect(original.level == 3)
    #expect(copy.level == 103)
    #expect(copy.remembers(\.level) && other.remembers(\.level))
  }

  @Test func aReadWithAnObjectMemberAsksEveryTime() {
    let reads = TickCounter()
    var gauges = gauges(reads)
    let object = GaugeObject(5)
    let member = gauges.add(object, retention: .strong)
    #expect(gauges.level == 3)
    object.level = 2
    #expect(gauges.level == 2)
    #expect(reads.value == 4)
    gauges.remove(member)
    #expect(gauges.level == 3)
    #expect(gauges.level == 3)
    #expect(reads.value == 6)
  }

  /// Readers on two threads while a third raises the level and adds and removes members:
  /// every read sees a level the gauge had (never lower than one seen before, as the level
  /// only rises), and the last read sees the last (run under ThreadSanitizer by
  /// Scripts/sanitize.sh).
  @Test(.tags(.stress)) func concurrentRememberedReadsWhileTheMulticastChanges() async {
    let gauges = SharedGaugeMulticast()
    gauges.add(SharedGaugeValue(level: 0))
    gauges.setPolicy(.reduce(.max), for: \.level)
    gauges.remember(\.level)
    let rounds = 2_000
    let misses = TickCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          var seen = 0
          for _ in 0..<rounds {
            let level = gauges.level
            if level < seen { misses.add() }
            seen = level
          }
        }
      }
      group.addTask {
        for _ in 0..<rounds {
          gauges.raise(by: 1)
          if gauges.level % 100 == 0 {
            let passing = gauges.add(SharedGaugeValue(level: 0))
            gauges.remove(passing)
          }
        }
      }
    }
    #expect(misses.value == 0)
    #expect(gauges.level == rounds)
  }
}
