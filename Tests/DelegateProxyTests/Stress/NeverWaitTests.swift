import Dispatch
import Foundation
import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

// Issue #33: no change and no call waits for delegate code running elsewhere; the one wait
// is `remove(_:waitingForCallsInFlight:)`, scoped to one member. Each test blocks a
// delegate inside a call on another thread, then does the operation under test on a
// thread of its own and asserts it *returned* (within a generous deadline, so a deadlock
// fails the test instead of hanging CI). No timing is asserted: the latencies are
// benchmark rows (`membership_change_while_busy`).

/// A class-bound delegate protocol with a method and a property.
@Delegate
protocol NeverWaitEvents: AnyObject {
  func ping(_ n: Int)
  var level: Int { get set }
}

/// A member that records its calls.
final class NeverWaitRecorder: NeverWaitEvents, @unchecked Sendable {
  // @unchecked Sendable: its counters and `level` are atomics (writer threads set the
  // multicast's `level`, which writes every member's, concurrently).
  let calls = NeverWaitCounter()
  let deinits: NeverWaitCounter?
  private let storedLevel = Atomic<Int>(0)
  var level: Int {
    get { storedLevel.load(ordering: .relaxed) }
    set { storedLevel.store(newValue, ordering: .relaxed) }
  }
  init(deinits: NeverWaitCounter? = nil) { self.deinits = deinits }
  deinit { deinits?.add() }
  func ping(_ n: Int) { calls.add() }
}

/// A member whose `ping` runs `body` (which may block) and counts what finished.
final class NeverWaitBlocker: NeverWaitEvents, @unchecked Sendable {
  // @unchecked Sendable: the body is set before the member is shared; counters and
  // `level` are atomics.
  let body: @Sendable () -> Void
  let finished = NeverWaitCounter()
  private let storedLevel = Atomic<Int>(0)
  var level: Int {
    get { storedLevel.load(ordering: .relaxed) }
    set { storedLevel.store(newValue, ordering: .relaxed) }
  }
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  func ping(_ n: Int) {
    body()
    finished.add()
  }
}

/// A counter the tests read from any thread.
final class NeverWaitCounter: Sendable {
  private let storage: Atomic<Int>
  init(_ start: Int = 0) { storage = Atomic(start) }
  func add() { storage.add(1, ordering: .sequentiallyConsistent) }
  func set(_ value: Int) { storage.store(value, ordering: .sequentiallyConsistent) }
  var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

extension NeverWaitBlocker {
  /// A member that, in its call, opens `entered` and waits at `release`.
  static func held() -> (entered: NeverWaitGate, release: NeverWaitGate, member: NeverWaitBlocker) {
    let entered = NeverWaitGate()
    let release = NeverWaitGate()
    return (
      entered, release,
      NeverWaitBlocker {
        entered.open()
        release.wait()
      }
    )
  }

  /// A member that, in its call, opens `entered` and then takes `lock`.
  static func waiting(for lock: NSLock) -> (entered: NeverWaitGate, member: NeverWaitBlocker) {
    let entered = NeverWaitGate()
    return (
      entered,
      NeverWaitBlocker {
        entered.open()
        lock.lock()
        lock.unlock()
      }
    )
  }
}

/// A one-shot gate a delegate waits at.
final class NeverWaitGate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  func open() { semaphore.signal() }
  func wait() { semaphore.wait() }
  /// Waits at most `seconds`; whether it opened.
  func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// Runs `body` on a new thread; whether it returned within `seconds` (a deadlock leaves the
/// thread behind and fails the test).
private func returns(within seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
  let done = NeverWaitGate()
  Thread.detachNewThread {
    body()
    done.open()
  }
  return done.wait(seconds: seconds)
}

/// Starts `call` on a new thread and returns once the delegate it reaches has entered
/// (`entered` opened), with the thread's gate for the end.
private func inCall(_ entered: NeverWaitGate, _ call: @escaping @Sendable () -> Void)
  -> NeverWaitGate
{
  let ended = NeverWaitGate()
  Thread.detachNewThread {
    call()
    ended.open()
  }
  entered.wait()
  return ended
}

@Suite("Never wait on a delegate") struct NeverWaitTests {
  /// Row 1: a change of an unrelated multicast while a delegate of another runs.
  @Test func changingAnotherMulticastDoesNotWaitForARunningDelegate() {
    let (entered, release, blocker) = NeverWaitBlocker.held()
    let x = NeverWaitEventsMulticast()
    x.add(blocker)
    let y = NeverWaitEventsMulticast()
    let q = NeverWaitRecorder()
    let ended = inCall(entered) { x.ping(1) }
    #expect(
      returns {
        y.add(q)
        y.setPolicy(.firstResponder, for: \.ping)
        y.block(q)
        y.unblock(q)
        y.level = 3
        _ = y.count
        _ = y.delegates
        _ = y.responds(to: \.ping)
        y.remove(q)
      })
    #expect(blocker.finished.value == 0)
    release.open()
    #expect(ended.wait(seconds: 30))
    withExtendedLifetime((blocker, q)) {}
  }

  /// Row 2: a plain call that meets a dead member (and rebuilds the table).
  @Test func aCallThatMeetsADeadMemberDoesNotWait() {
    let (entered, release, blocker) = NeverWaitBlocker.held()
    let x = NeverWaitEventsMulticast()
    x.add(blocker)
    let y = NeverWaitEventsMulticast()
    let live = NeverWaitRecorder()
    y.add(live)
    var dead: NeverWaitRecorder? = NeverWaitRecorder()
    y.add(dead!)
    dead = nil
    let ended = inCall(entered) { x.ping(1) }
    #expect(returns { y.ping(2) })
    #expect(live.calls.value == 1)
    #expect(y.count == 1)
    release.open()
    #expect(ended.wait(seconds: 30))
    withExtendedLifetime((blocker, live)) {}
  }

  /// Row 3: a lock held around `add` while a delegate of another multicast waits for it.
  @Test func aLockHeldAroundAddCannotDeadlock() {
    let lock = NSLock()
    let (entered, blocker) = NeverWaitBlocker.waiting(for: lock)
    let x = NeverWaitEventsMulticast()
    x.add(blocker)
    let y = NeverWaitEventsMulticast()
    let q = NeverWaitRecorder()
    let ended = NeverWaitGate()
    #expect(
      returns {
        lock.lock()
        Thread.detachNewThread {
          x.ping(1)
          ended.open()
        }
        entered.wait()  // the delegate now waits for the lock this thread holds
        y.add(q)
        y.remove(q)
        lock.unlock()
      })
    #expect(ended.wait(seconds: 30))
    #expect(blocker.finished.value == 1)
    withExtendedLifetime((blocker, q)) {}
  }

  /// Row 4: the same cycle through one multicast — a member removed under a lock that
  /// another member, running, waits for.
  @Test func removingUnderALockAnotherMemberWaitsForCannotDeadlock() {
    let lock = NSLock()
    let (entered, b) = NeverWaitBlocker.waiting(for: lock)
    let a = NeverWaitRecorder()
    let x = NeverWaitEventsMulticast()
    x.add(a)
    x.add(b)
    let ended = NeverWaitGate()
    #expect(
      returns {
        lock.lock()
        Thread.detachNewThread {
          x.ping(1)
          ended.open()
        }
        entered.wait()
        x.remove(a)
        lock.unlock()
      })
    #expect(ended.wait(seconds: 30))
    #expect(x.count == 1)
    withExtendedLifetime((a, b)) {}
  }

  /// Row 6: a delegate that removes itself, with the waiting form too, or adds a member to
  /// another multicast, from its own call.
  @Test func aDelegateChangingMulticastsFromItsOwnCallReturnsAtOnce() {
    let x = NeverWaitEventsMulticast()
    let other = NeverWaitEventsMulticast()
    let added = NeverWaitRecorder()
    let selfRemover = Lock<NeverWaitBlocker?>(nil)
    let member = NeverWaitBlocker {
      if let me = selfRemover.withLock({ $0 }) {
        x.remove(me, waitingForCallsInFlight: true)  // never waits for its own call
        other.add(added)
      }
    }
    selfRemover.withLock { $0 = member }
    x.add(member)
    #expect(returns { x.ping(1) })
    #expect(x.count == 0)
    #expect(other.count == 1)
    selfRemover.withLock { $0 = nil }
    withExtendedLifetime((member, added)) {}
  }

  /// `remove` returns at once while the member is in a call; the waiting form waits for
  /// that call only — not for another member's — and after it returns no call to the
  /// member runs or starts.
  @Test func theWaitingFormWaitsForThatMembersCallsOnly() {
    let (entered, release, a) = NeverWaitBlocker.held()
    let b = NeverWaitRecorder()
    let c = NeverWaitRecorder()
    let x = NeverWaitEventsMulticast()
    x.add(a)
    x.add(b)
    x.add(c)
    let ended = inCall(entered) { x.ping(1) }
    // Another member: returns although a dispatch is running (and is in a's call).
    #expect(returns { x.remove(c, waitingForCallsInFlight: true) })
    // a itself: the waiting form waits for a's call to finish.
    let removed = NeverWaitCounter()
    let finishedWhenRemoved = NeverWaitCounter(-1)
    let waiter = NeverWaitGate()
    Thread.detachNewThread {
      x.remove(a, waitingForCallsInFlight: true)
      finishedWhenRemoved.set(a.finished.value)
      removed.add()
      waiter.open()
    }
    #expect(!waiter.wait(seconds: 0.2))  // still in a's call: not returned
    #expect(removed.value == 0)
    release.open()
    #expect(waiter.wait(seconds: 30))
    #expect(finishedWhenRemoved.value == 1)
    #expect(ended.wait(seconds: 30))
    // The running dispatch went on to b; c was removed before it reached it.
    #expect(b.calls.value == 1)
    #expect(c.calls.value == 0)
    x.ping(2)
    #expect(a.finished.value == 1)
    #expect(b.calls.value == 2)
  }

  /// A weakly held member's deinit waits for nothing while another member is in a call,
  /// and the running dispatch then skips it.
  @Test func aWeakMembersDeinitWaitsForNothing() {
    let (entered, release, blocker) = NeverWaitBlocker.held()
    let deinits = NeverWaitCounter()
    let x = NeverWaitEventsMulticast()
    x.add(blocker)
    let holder = Lock<NeverWaitRecorder?>(NeverWaitRecorder(deinits: deinits))
    x.add(holder.withLock { $0! })
    let ended = inCall(entered) { x.ping(1) }
    #expect(returns { holder.withLock { $0 = nil } })
    #expect(deinits.value == 1)
    release.open()
    #expect(ended.wait(seconds: 30))
    #expect(x.count == 1)
  }

  /// A member that never returns (until the end) while 4 writer threads add, remove,
  /// block, set policies and write a property: every writer finishes.
  @Test func writersFinishWhileAMemberBlocks() {
    let (entered, release, blocker) = NeverWaitBlocker.held()
    let x = NeverWaitEventsMulticast()
    x.add(blocker)
    let ended = inCall(entered) { x.ping(1) }
    let group = DispatchGroup()
    for w in 0..<4 {
      DispatchQueue.global().async(group: group) {
        for round in 0..<300 {
          let q = NeverWaitRecorder()
          x.add(q)
          switch (w + round) % 4 {
          case 0:
            x.block(q)
            x.unblock(q)
          case 1: x.setPolicy(round % 2 == 0 ? .firstResponder : nil, for: \.ping)
          case 2: x.level = round
          default: _ = (x.count, x.delegates.count, x.responds(to: \.ping))
          }
          x.remove(q)
        }
      }
    }
    // Every writer finishes while the blocker is still inside its call.
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(blocker.finished.value == 0)
    release.open()
    #expect(ended.wait(seconds: 30))
    #expect(x.count == 1)
  }

  /// The waiting forms of the runtime face: `MulticastProxy.remove` does not wait; its
  /// waiting form waits for that member's calls only.
  @Test func theRuntimeProxyNeverWaitsEither() throws {
    let tick = Message<Void, Int>("neverWaitTick:")
    let entered = NeverWaitGate()
    let release = NeverWaitGate()
    let slowClass = try RuntimeClass(name: uniqueClassName("NeverWaitSlow"))
    try slowClass.addMethod(tick) { _, _ in
      entered.open()
      release.wait()
    }
    let fastClass = try RuntimeClass(name: uniqueClassName("NeverWaitFast"))
    let fastCalls = NeverWaitCounter()
    try fastClass.addMethod(tick) { _, _ in fastCalls.add() }
    let slow = RuntimeObject(class: slowClass)
    let fast = RuntimeObject(class: fastClass)
    let other = RuntimeObject(class: fastClass)
    let proxy = try MulticastProxy(delegates: [slow, fast])
    let unrelated = MulticastProxy()
    let ended = inCall(entered) { try? tick.send(to: proxy, 1) }
    #expect(
      returns {
        try? unrelated.add(other)
        unrelated.remove(other)
        proxy.remove(fast, waitingForCallsInFlight: true)  // not in a call
      })
    release.open()
    #expect(ended.wait(seconds: 30))
    #expect(fastCalls.value == 0)
    withExtendedLifetime((slow, fast, other)) {}
  }
}

/// A value multicast (the protocol is not class-bound), as swift-log's `Logger` holds its
/// handler: copies written per request while other threads log through the original and
/// one member is blocked inside a line.
@Delegate
protocol RequestLogHandler {
  subscript(metadataKey _: String) -> String? { get set }
  func log(_ line: String)
}

struct RequestLogSink: RequestLogHandler {
  var metadata: [String: String] = [:]
  let block: (@Sendable (String) -> Void)?
  let lines: NeverWaitCounter?
  init(block: (@Sendable (String) -> Void)? = nil, lines: NeverWaitCounter? = nil) {
    self.block = block
    self.lines = lines
  }
  subscript(metadataKey key: String) -> String? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }
  func log(_ line: String) {
    block?(line)
    lines?.add()
  }
}

extension NeverWaitTests {
  @Test func valueMulticastWritesDoNotWaitForAMemberInALine() {
    let entered = NeverWaitGate()
    let release = NeverWaitGate()
    var logger = RequestLogHandlerMulticast()
    logger.add(
      RequestLogSink(block: { line in
        if line == "block" {
          entered.open()
          release.wait()
        }
      }))
    logger.add(RequestLogSink())
    let shared = logger
    let ended = inCall(entered) { shared.log("block") }
    let others = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: others) {
        for i in 0..<500 { shared.log("line \(i)") }
      }
    }
    #expect(
      returns {
        for i in 0..<1_000 {
          var l = shared
          l[metadataKey: "request-id"] = "\(i)"
          l.log("handled")
          precondition(l[metadataKey: "request-id"] == "\(i)")
        }
      })
    #expect(others.wait(timeout: .now() + 60) == .success)
    release.open()
    #expect(ended.wait(seconds: 30))
    #expect(shared[metadataKey: "request-id"] == nil)
  }
}
