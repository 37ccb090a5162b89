import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// A new route (a policy change) is installed with its targets: C callers of the proxy's
/// IMP never meet a route with no target while the proxy rebuilds.
@Suite("Route installation under callers") struct RouteInstallTests {
  @Test func policyChangesNeverAnswerFromAnEmptyRoute() throws {
    let tick = Message<Int32, Int32>("routeInstallTick:")
    let stable = RuntimeObject()
    try stable.setMethod(tick) { _, n in n }
    let proxy = try MulticastProxy(delegates: [stable])
    typealias F = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
    let f = try proxy.imp(for: tick.selector).unsafeCast(to: F.self)
    let object = UInt(bitPattern: proxy.rawValue)
    let selector = UInt(bitPattern: tick.selector.rawValue)
    let wrong = Atomic<Int>(0)
    let threads = (0..<4).map { _ in
      Thread.start {
        for i in 0..<100_000 {
          let receiver = OpaquePointer(bitPattern: object)
          let n = f(receiver, OpaquePointer(bitPattern: selector), Int32(i))
          if n != Int32(i) { wrong.add(1, ordering: .relaxed) }
        }
      }
    }
    for round in 0..<1_000 {
      let extra = RuntimeObject()
      try extra.setMethod(tick) { _, n in n }
      try proxy.add(extra)
      proxy.setPolicy(round % 2 == 0 ? .firstResponder : nil, for: tick.selector)
      proxy.remove(extra)
    }
    for t in threads { t.join() }
    #expect(wrong.load(ordering: .relaxed) == 0)
  }
}
