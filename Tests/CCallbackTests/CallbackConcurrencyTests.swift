import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import Glibc
import MessageRuntime
import Synchronization
import Testing

/// Adapters called from several threads while the proxy's membership changes, and an
/// adapter released while a call through it is running on another thread.
@Suite("Callback adapter concurrency") struct CallbackConcurrencyTests {
  static let tick = Message<Int32, Int32>("tick:")
  typealias Tick = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32

  final class Counted: RuntimeObject, @unchecked Sendable {
    // @unchecked Sendable: the atomic is the only mutable state.
    let calls = Atomic<Int>(0)
  }

  func counted() throws -> Counted {
    let c = Counted()
    try c.setMethod(Self.tick) { receiver, n in
      (receiver as! Counted).calls.add(1, ordering: .relaxed)
      return n
    }
    return c
  }

  @Test func callsFromFourThreadsWhileMembersAndPoliciesChange() throws {
    let stable = try counted()
    let proxy = try MulticastProxy(delegates: [stable])
    let adapter = try CallbackAdapter(for: Self.tick, context: .first, receiver: proxy)
    let function = try adapter.function(as: Tick.self)
    let context = UInt(bitPattern: adapter.context)
    let wrong = Atomic<Int>(0)
    let perThread = 20_000
    let threads = (0..<4).map { _ in
      Thread.start {
        for i in 0..<perThread
        where function(UnsafeMutableRawPointer(bitPattern: context), Int32(i)) != Int32(i) {
          wrong.add(1, ordering: .relaxed)
        }
      }
    }
    for round in 0..<200 {
      let extra = try counted()
      try proxy.add(extra)
      // A new route each time: the entries' cached route goes stale under the callers.
      proxy.setPolicy(round % 2 == 0 ? .firstResponder : nil, for: Self.tick.selector)
      proxy.remove(extra)
    }
    for t in threads { t.join() }
    #expect(wrong.load(ordering: .relaxed) == 0)
    #expect(stable.calls.load(ordering: .relaxed) == 4 * perThread)
    withExtendedLifetime(adapter) {}
  }

  /// Holds the last reference to an adapter until another thread drops it.
  final class AdapterBox: Sendable {
    private let adapter: Lock<CallbackAdapter?>
    init(_ adapter: CallbackAdapter?) { self.adapter = Lock(adapter) }
    func release() { adapter.withLock { $0 = nil } }
  }

  final class Noted: RuntimeObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let log: CallLog
    init(log: CallLog) {
      self.log = log
      super.init()
    }
    deinit { log.append("receiver deinit") }
  }

  @Test func releaseWaitsForACallInFlight() throws {
    let log = CallLog()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    var adapter: CallbackAdapter?
    do {
      let receiver = Noted(log: log)
      try receiver.setMethod(Self.tick) { _, n in
        entered.signal()
        proceed.wait()
        log.append("handler done")
        return n
      }
      adapter = try CallbackAdapter(for: Self.tick, context: .first, receiver: receiver)
    }
    let function = try adapter!.function(as: Tick.self)
    let context = UInt(bitPattern: adapter!.context)
    let caller = Thread.start { _ = function(UnsafeMutableRawPointer(bitPattern: context), 1) }
    entered.wait()
    // Drop the last reference on another thread: its deinit waits for the call.
    let box = AdapterBox(adapter)
    adapter = nil
    let releaser = Thread.start {
      box.release()
      log.append("released")
    }
    usleep(50_000)
    #expect(log.entries.isEmpty)  // still waiting for the call
    proceed.signal()
    caller.join()
    releaser.join()
    #expect(log.entries == ["handler done", "receiver deinit", "released"])
  }
}
