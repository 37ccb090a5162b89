import DelegateProxy
import Dispatch
import MessageRuntime
import Synchronization
import DelegateProxyTestSupport
import Testing

/// A plain Swift delegate whose deinit marks its record before anything else happens.
final class StressListener: SensorDelegate, Sendable {
  let record: StressRecord
  init(record: StressRecord) { self.record = record }
  deinit { record.deinitStarted.store(true, ordering: .sequentiallyConsistent) }
  func sensor(_ sensor: Sensor, didRead reading: Reading) { record.hit() }
  func sensorShouldStart(_ sensor: Sensor) -> Bool {
    record.hit()
    return true
  }
}

/// The typed path under load: 6 sender threads call a Swift multicast through its
/// conformance (a void method and a value-returning one) while 2 mutators add plain Swift
/// delegates (weak or strong), remove and drop them, or drop weak ones while they are
/// members. No call may reach a delegate after its `remove` returned or after its deinit
/// began; two delegates present throughout receive every message. Run under
/// ThreadSanitizer by `Scripts/sanitize.sh thread`; `DP_STRESS_MESSAGES` scales it.
@Suite("Stress: Swift protocols", .tags(.stress), .enabled(if: TestSelection.runs("stress"))) struct SwiftProtocolStressTests {
  static var messages: Int {
    guard let text = getenv("DP_STRESS_MESSAGES").map({ String(cString: $0) }),
      let n = Int(String(text.filter { $0 != "_" })), n > 0
    else { return 100_000 }
    return n
  }

  @Test func noCallAfterRemoveOrDeinitAndStableDelegatesHearEverything() throws {
    let ledger = StressLedger()
    let proxy = SensorDelegateMulticast()
    let stableA = StressListener(record: StressRecord(ledger: ledger))
    let stableB = StressListener(record: StressRecord(ledger: ledger))
    proxy.add(stableA)
    proxy.add(stableB, retention: .strong)
    let senders = 6
    let perSender = max(Self.messages / senders, 1_000)
    let sent = Atomic<Int>(0)
    let running = Atomic<Int>(senders)
    let wrongAnswers = Atomic<Int>(0)

    let senderThreads = (0..<senders).map { t in
      Thread.start {
        let sensor = Sensor(name: "s\(t)")
        for i in 0..<perSender {
          if i % 4 == 0 {
            if !proxy.sensorShouldStart(sensor) { wrongAnswers.add(1, ordering: .relaxed) }
          } else {
            proxy.sensor(sensor, didRead: Reading(celsius: Double(i), sensorID: Int32(t)))
          }
          sent.add(1, ordering: .relaxed)
        }
        running.subtract(1, ordering: .releasing)
      }
    }
    let mutators = (0..<2).map { m in
      Thread.start {
        var round = 0
        while running.load(ordering: .acquiring) > 0 || round < 25 {
          round += 1
          let record = StressRecord(ledger: ledger)
          var listener: StressListener? = StressListener(record: record)
          let strong = round % 3 == 0
          if round % 2 == 0 {
            proxy.add(listener!, retention: strong ? .strong : .weak)
          } else {
            proxy.insert(listener!, at: 0, retention: strong ? .strong : .weak)
          }
          ledger.churned.add(1, ordering: .relaxed)
          switch (round + m) % 3 {
          case 0:
            proxy.remove(listener!, waitingForCallsInFlight: true)
            record.removeReturned.store(true, ordering: .sequentiallyConsistent)
            listener = nil
            ledger.removedThenDropped.add(1, ordering: .relaxed)
          case 1 where !strong:
            listener = nil  // deallocated while a member
            ledger.droppedWhileMember.add(1, ordering: .relaxed)
          default:
            proxy.remove(listener!, waitingForCallsInFlight: true)
            record.removeReturned.store(true, ordering: .sequentiallyConsistent)
            usleep(50)
            listener = nil
            ledger.removedAndKeptAlive.add(1, ordering: .relaxed)
          }
        }
      }
    }
    for t in senderThreads { t.join() }
    for t in mutators { t.join() }
    #expect(ledger.callsAfterRemove.load(ordering: .relaxed) == 0)
    #expect(ledger.callsAfterDeinit.load(ordering: .relaxed) == 0)
    #expect(wrongAnswers.load(ordering: .relaxed) == 0)
    let total = sent.load(ordering: .relaxed)
    #expect(stableA.record.calls.load(ordering: .relaxed) == total)
    #expect(stableB.record.calls.load(ordering: .relaxed) == total)
    #expect(ledger.churned.load(ordering: .relaxed) >= 50)
    proxy.removeAll()
    #expect(proxy.count == 0)
  }
}
