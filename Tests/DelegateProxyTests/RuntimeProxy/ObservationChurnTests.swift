import Testing

@testable import DelegateProxy
@testable import MessageRuntime

/// Observing and cancelling on one proxy over and over republishes its method table each
/// time (issue #37, item 2): the tables it replaces are freed after a grace period, so
/// neither the tables alive nor the retired items waiting grow with the number of cycles.
@Suite("Observation churn is reclaimed") struct ObservationChurnTests {
  static let value = Message<Int, Int>("churnValue:")

  @Test func observeCancelCyclesLeaveTheRetiredCountBounded() throws {
    let cls = try RuntimeClass(name: uniqueClassName("ChurnDelegate"))
    try cls.addMethod(Self.value) { _, x in x + 1 }
    let delegate = RuntimeObject(class: cls)
    let proxy = MulticastProxy()
    try proxy.add(delegate)
    #expect(try Self.value.send(to: proxy, 1) == 2)
    Quiescence.waitForReclamation()
    let before = Quiescence.methodTablesLive
    var mostWaiting: UInt64 = 0
    for round in 0..<100_000 {
      let observation = proxy.observe(Self.value.selector) { _ in }
      observation.cancel()
      // Frees what no reader holds, never waiting; what is left is the reclaimer's.
      if round % 1000 == 999 { mostWaiting = max(mostWaiting, Quiescence.reclaim()) }
    }
    #expect(try Self.value.send(to: proxy, 2) == 3)
    Quiescence.waitForReclamation()
    let after = Quiescence.methodTablesLive
    // Kept until the proxy died, the replaced tables would number in the hundreds of
    // thousands; suites running alongside make and free tables too: generous bounds.
    #expect(after < before + 1_000, "tables alive: \(before) before, \(after) after")
    #expect(mostWaiting < 10_000, "most retired items waiting at once: \(mostWaiting)")
    withExtendedLifetime((proxy, delegate)) {}
  }
}
