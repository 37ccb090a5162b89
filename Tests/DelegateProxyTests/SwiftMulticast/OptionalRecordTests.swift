import DelegateProxy
import Dispatch
import Synchronization
import Testing

@Delegate
protocol ProbeDelegate: AnyObject {
  func probeStarted()
  @Optional func probeProgress(_ fraction: Double) -> Bool
  @Optional func probeFinished()
}

/// Implements only the required method: both optional ones run their defaults.
private final class BareProbe: ProbeDelegate {
  let started = Atomic<Int>(0)
  func probeStarted() { started.add(1, ordering: .relaxed) }
}

/// Implements every method.
private final class FullProbe: ProbeDelegate {
  let progress = Atomic<Int>(0)
  func probeStarted() {}
  func probeProgress(_ fraction: Double) -> Bool {
    progress.add(1, ordering: .relaxed)
    return true
  }
  func probeFinished() {}
}

/// #34 item 7: the generated default of an optional method learns a class's absence once,
/// then costs a plain delegator a cache look-up — no process-wide lock on the calling path.
@Suite("Optional methods: what a class lacks is learned once, then read without a lock")
struct OptionalRecordTests {
  @Test("A plain delegator calling a missing optional method records it once, not per call")
  func plainDelegatorRecordsOnce() {
    let delegate: any ProbeDelegate = BareProbe()
    delegate.probeFinished()  // records (BareProbe, probeFinished)
    #expect(DelegateOptional.isKnownMissing("probeFinished", in: BareProbe.self))
    let before = DelegateOptional.recordingsTaken.load(ordering: .relaxed)
    for _ in 0..<10_000 { delegate.probeFinished() }
    let after = DelegateOptional.recordingsTaken.load(ordering: .relaxed)
    // Other suites may record their own pairs meanwhile (tests run in parallel), so the
    // bound is loose; per call it would be 10 000.
    #expect(after - before < 100)
  }

  @Test("Many threads learning many pairs at once: every pair is recorded, none forgotten")
  func concurrentLearning() {
    let iterations = 2_000
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let bare: any ProbeDelegate = BareProbe()
      for _ in 0..<iterations {
        _ = bare.probeProgress(0.5)
        bare.probeFinished()
      }
    }
    #expect(DelegateOptional.isKnownMissing("probeProgress:", in: BareProbe.self))
    #expect(DelegateOptional.isKnownMissing("probeFinished", in: BareProbe.self))
    #expect(!DelegateOptional.isKnownMissing("probeProgress:", in: FullProbe.self))
  }

  @Test("A multicast stops calling a member whose class lacks the method, and keeps the others")
  func multicastUsesTheRecord() {
    let multicast = ProbeDelegateMulticast()
    let bare = BareProbe()
    let full = FullProbe()
    multicast.add(bare)
    multicast.add(full)
    for _ in 0..<3 { _ = multicast.probeProgress(0.1) }
    #expect(full.progress.load(ordering: .relaxed) == 3)
    #expect(multicast.responders(for: \.probeProgress).count == 1)
    #expect(DelegateOptional.isKnownMissing("probeProgress:", in: BareProbe.self))
  }
}
