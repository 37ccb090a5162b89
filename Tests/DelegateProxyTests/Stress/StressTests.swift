import Dispatch
import MessageRuntime
import Synchronization
import DelegateProxyTestSupport
import Testing

@testable import DelegateProxy

/// What one churned or stable delegate saw, kept apart from the delegate so a check made
/// in a call never reads an object that is being freed.
final class StressRecord: Sendable {
  /// Set by the mutator right after `remove` returned.
  let removeReturned = Atomic<Bool>(false)
  /// Set first thing in the delegate's deinit.
  let deinitStarted = Atomic<Bool>(false)
  let calls = Atomic<Int>(0)
  let ledger: StressLedger

  init(ledger: StressLedger) { self.ledger = ledger }

  /// Called at the start of every method body of the delegate.
  func hit() {
    if removeReturned.load(ordering: .sequentiallyConsistent) {
      ledger.callsAfterRemove.add(1, ordering: .relaxed)
    }
    if deinitStarted.load(ordering: .sequentiallyConsistent) {
      ledger.callsAfterDeinit.add(1, ordering: .relaxed)
    }
    calls.add(1, ordering: .relaxed)
  }
}

/// The run's violations and tallies.
final class StressLedger: Sendable {
  let callsAfterRemove = Atomic<Int>(0)
  let callsAfterDeinit = Atomic<Int>(0)
  /// General-path answers smaller than the number of stable delegates.
  let shortAnswers = Atomic<Int>(0)
  let churned = Atomic<Int>(0)
  let removedThenDropped = Atomic<Int>(0)
  let droppedWhileMember = Atomic<Int>(0)
  let removedAndKeptAlive = Atomic<Int>(0)
}

/// A delegate whose deinit marks its record before anything else happens to it.
final class StressDelegate: RuntimeObject, @unchecked Sendable {
  let record: StressRecord

  init(_ cls: RuntimeClass, record: StressRecord) {
    self.record = record
    super.init(class: cls)
  }

  deinit { record.deinitStarted.store(true, ordering: .sequentiallyConsistent) }
}

/// 8 sender threads and 2 mutator threads on one proxy. Senders call the proxy's C route
/// through a C function pointer (cached, or looked up per message as `objc_msgSend`
/// does) and send typed messages from Swift — routed, and on the general path (a Swift
/// fold). Mutators add delegates (weak or strong, at the end or the front), then remove
/// them and drop them, drop them while still members (weak ones), or remove them and keep
/// them alive a while. Every call checks that its delegate's `remove` had not returned
/// and its deinit had not begun; two delegates present throughout must receive every
/// message.
///
/// `DP_STRESS_MESSAGES` sets the number of messages (default 100,000);
/// `Scripts/stress.sh` runs 1,000,000 in release and a smaller run under ThreadSanitizer.
@Suite("Stress", .tags(.stress), .enabled(if: TestSelection.runs("stress"))) struct StressTests {
  static let tick = Message<Void, Int>("stressTick:")
  static let tally = Message<Int, Int>("stressTally:")
  typealias TickFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void

  static let senders = 8
  static let mutators = 2
  /// Mutations each mutator makes at least, so membership really changes under the sends.
  static let minimumChurn = 25

  static var messages: Int {
    guard let text = getenv("DP_STRESS_MESSAGES").map({ String(cString: $0) }),
      let n = Int(String(text.filter { $0 != "_" })), n > 0
    else { return 100_000 }
    return n
  }

  @Test(.timeLimit(.minutes(20)))
  func sendersWhileMutatorsAddRemoveAndDeallocate() throws {
    let ledger = StressLedger()
    let cls = try RuntimeClass(name: uniqueClassName("Stress"))
    try cls.addMethod(Self.tick) { receiver, _ in (receiver as! StressDelegate).record.hit() }
    try cls.addMethod(Self.tally) { receiver, _ in
      (receiver as! StressDelegate).record.hit()
      return 1
    }
    let proxy = MulticastProxy()
    // tick: the default policy, a C route. tally: a Swift fold, the general path.
    proxy.setPolicy(
      .reduce(.fold(Int.self, name: "count", initial: 0, +)), for: Self.tally.selector)
    let stableWeak = StressDelegate(cls, record: StressRecord(ledger: ledger))
    let stableStrong = StressDelegate(cls, record: StressRecord(ledger: ledger))
    try proxy.add(stableWeak)
    try proxy.add(stableStrong, retention: .strong)
    #expect(proxy.fastPath(for: Self.tick.selector) == .registers)
    #expect(proxy.fastPath(for: Self.tally.selector) == nil)

    let total = Self.messages
    let quota = (total + Self.senders - 1) / Self.senders
    let cached = try proxy.imp(for: Self.tick.selector).unsafeCast(to: TickFn.self)
    let selector = Self.tick.selector
    let sentRouted = Atomic<Int>(0)
    let sentGeneral = Atomic<Int>(0)
    let sendersDone = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    let started = DispatchTime.now()

    let senderThreads = (0..<Self.senders).map { s in
      Thread.start {
        var i = 0
        var routed = 0
        var general = 0
        // The quota, and on until the mutators have churned enough.
        while i < quota
          || ledger.churned.load(ordering: .relaxed) < Self.minimumChurn * Self.mutators
        {
          switch s {
          case 0..<4:
            // A C caller that looked the IMP up once.
            cached(proxy.rawValue, selector.rawValue, i)
            routed += 1
          case 4..<6:
            // A C caller that looks it up for every message (objc_msgSend).
            Runtime.lookup(proxy, selector).unsafeCast(to: TickFn.self)(
              proxy.rawValue, selector.rawValue, i)
            routed += 1
          default:
            do {
              if i % 2 == 0 {
                try Self.tick.send(to: proxy, i)  // typed, through the route
                routed += 1
              } else {
                // typed, general path: every stable delegate answers 1
                if try Self.tally.send(to: proxy, i) < 2 {
                  ledger.shortAnswers.add(1, ordering: .relaxed)
                }
                general += 1
              }
            } catch {
              errors.add(1, ordering: .relaxed)
            }
          }
          i += 1
        }
        sentRouted.add(routed, ordering: .relaxed)
        sentGeneral.add(general, ordering: .relaxed)
        sendersDone.add(1, ordering: .sequentiallyConsistent)
      }
    }

    let mutatorThreads = (0..<Self.mutators).map { m in
      Thread.start {
        var serial = 0
        var keptAlive: [StressDelegate] = []
        while sendersDone.load(ordering: .sequentiallyConsistent) < Self.senders {
          serial += 1
          let record = StressRecord(ledger: ledger)
          var delegate: StressDelegate? = StressDelegate(cls, record: record)
          let strong = serial % 4 == 1
          do {
            if serial % 3 == 0 {
              try proxy.insert(delegate!, at: 0, retention: strong ? .strong : .weak)
            } else {
              try proxy.add(delegate!, retention: strong ? .strong : .weak)
            }
          } catch {
            errors.add(1, ordering: .relaxed)
          }
          for _ in 0..<((serial &* 7 &+ m) % 4) { sched_yield() }
          switch strong ? serial % 2 : serial % 3 {
          case 0:
            proxy.remove(delegate!, waitingForCallsInFlight: true)
            record.removeReturned.store(true, ordering: .sequentiallyConsistent)
            delegate = nil  // deallocated now
            ledger.removedThenDropped.add(1, ordering: .relaxed)
          case 1:
            // Removed but alive for a while: calls must stop all the same.
            proxy.remove(delegate!, waitingForCallsInFlight: true)
            record.removeReturned.store(true, ordering: .sequentiallyConsistent)
            keptAlive.append(delegate!)
            delegate = nil
            if keptAlive.count > 8 { keptAlive.removeFirst(4) }
            ledger.removedAndKeptAlive.add(1, ordering: .relaxed)
          default:
            // Weak and still a member: deallocated under the senders' feet.
            delegate = nil
            ledger.droppedWhileMember.add(1, ordering: .relaxed)
          }
          ledger.churned.add(1, ordering: .relaxed)
        }
        keptAlive.removeAll()
      }
    }

    for t in senderThreads { t.join() }
    for t in mutatorThreads { t.join() }
    let milliseconds =
      (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000

    let routed = sentRouted.load(ordering: .relaxed)
    let general = sentGeneral.load(ordering: .relaxed)
    let sent = routed + general
    let afterRemove = ledger.callsAfterRemove.load(ordering: .relaxed)
    let afterDeinit = ledger.callsAfterDeinit.load(ordering: .relaxed)
    let lostWeak = sent - stableWeak.record.calls.load(ordering: .relaxed)
    let lostStrong = sent - stableStrong.record.calls.load(ordering: .relaxed)
    let short = ledger.shortAnswers.load(ordering: .relaxed)
    let churned = ledger.churned.load(ordering: .relaxed)
    let removedThenDropped = ledger.removedThenDropped.load(ordering: .relaxed)
    let keptAlive = ledger.removedAndKeptAlive.load(ordering: .relaxed)
    let droppedWhileMember = ledger.droppedWhileMember.load(ordering: .relaxed)
    let errorCount = errors.load(ordering: .relaxed)
    let lost = lostWeak + lostStrong
    var report =
      "stress: \(sent) messages (\(routed) on the C route, \(general) on the general path)"
    report +=
      " from \(Self.senders) threads in \(milliseconds) ms while \(Self.mutators) threads churned"
    report += " \(churned) delegates (\(removedThenDropped) removed then deallocated,"
    report +=
      " \(keptAlive) removed and kept alive, \(droppedWhileMember) deallocated while members);"
    report +=
      " violations: \(afterRemove) calls after remove returned, \(afterDeinit) calls after deinit began,"
    report +=
      " \(lost) messages lost by the stable delegates, \(short) short answers, \(errorCount) errors"
    print(report)

    #expect(sent >= total)
    #expect(afterRemove == 0)
    #expect(afterDeinit == 0)
    #expect(lostWeak == 0)
    #expect(lostStrong == 0)
    #expect(short == 0)
    #expect(errors.load(ordering: .relaxed) == 0)
    #expect(ledger.churned.load(ordering: .relaxed) >= Self.minimumChurn * Self.mutators)
    #expect(ledger.droppedWhileMember.load(ordering: .relaxed) > 0)
    // Only the stable delegates remain (kept-alive ones were removed, the rest are gone).
    #expect(proxy.delegates.count == 2)
    #expect(proxy.fastPath(for: Self.tick.selector) == .registers)
  }
}
