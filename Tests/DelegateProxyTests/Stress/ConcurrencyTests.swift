import Dispatch
import MessageRuntime
import Synchronization
import DelegateProxyTestSupport
import Testing

@testable import DelegateProxy

/// What one test's probes saw: the serials of the probes that were deallocated and the
/// calls that should not have happened. One per test, so tests that run in parallel do
/// not count each other's violations.
final class ProbeLedger: Sendable {
  let dead = Lock<Set<Int>>([])
  let violations = Atomic<Int>(0)
}

/// A delegate that checks, when called, that it was not removed (its remover sets the
/// flag right after `remove` returns) and not deallocated.
final class Probe: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `serial` and `ledger` are immutable; the rest are atomics.
  let serial: Int
  let ledger: ProbeLedger
  let removeReturned = Atomic<Bool>(false)
  let calls = Atomic<Int>(0)

  init(_ cls: RuntimeClass, serial: Int, ledger: ProbeLedger) {
    self.serial = serial
    self.ledger = ledger
    super.init(class: cls)
  }

  deinit { _ = ledger.dead.withLock { $0.insert(serial) } }

  func hit() {
    if removeReturned.load(ordering: .sequentiallyConsistent) {
      ledger.violations.add(1, ordering: .relaxed)
    }
    if serial >= 0 && ledger.dead.withLock({ $0.contains(serial) }) {
      ledger.violations.add(1, ordering: .relaxed)
    }
    calls.add(1, ordering: .relaxed)
  }
}

@Suite("Thread safety", .tags(.stress), .enabled(if: TestSelection.runs("stress"))) struct ConcurrencyTests {
  static let tick = Message<Void, Int>("probeTick:")
  static let senders = 4
  static let messagesPerSender = 20_000

  /// 4 threads send 20,000 messages each while 2 threads add delegates and either
  /// remove them or let them deallocate. No call may reach a delegate after its
  /// `remove` returned or after it was deallocated, and a delegate present throughout
  /// receives every message.
  @Test(.timeLimit(.minutes(2))) func sendersWhileOthersAddAndRemove() throws {
    let cls = try RuntimeClass(name: uniqueClassName("Probe"))
    try cls.addMethod(Self.tick) { r, _ in (r as! Probe).hit() }
    let proxy = MulticastProxy()
    let ledger = ProbeLedger()
    let stable = Probe(cls, serial: -1, ledger: ledger)
    try proxy.add(stable)

    let sendersDone = Atomic<Int>(0)
    let churned = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let group = DispatchGroup()
    for s in 0..<Self.senders {
      DispatchQueue(label: "sender.\(s)").async(group: group) {
        // At least the quota, and on until the mutators have churned enough members for
        // the overlap to mean something (sends can be much faster than mutations).
        var i = 0
        while i < Self.messagesPerSender || churned.load(ordering: .relaxed) < 20 {
          try! Self.tick.send(to: proxy, i)
          i += 1
        }
        sent.add(i, ordering: .relaxed)
        sendersDone.add(1, ordering: .sequentiallyConsistent)
      }
    }
    for m in 0..<2 {
      DispatchQueue(label: "mutator.\(m)").async(group: group) {
        var serial = m * 1_000_000
        while sendersDone.load(ordering: .sequentiallyConsistent) < Self.senders {
          serial += 1
          var probe: Probe? = Probe(cls, serial: serial, ledger: ledger)
          if serial % 3 == 0 {
            try! proxy.insert(probe!, at: 0)
          } else {
            try! proxy.add(probe!)
          }
          for _ in 0..<(serial % 50) { sched_yield() }
          if serial % 2 == 0 {
            proxy.remove(probe!, waitingForCallsInFlight: true)
            probe!.removeReturned.store(true, ordering: .sequentiallyConsistent)
          }
          probe = nil  // deallocated, removed or not
          churned.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(group.wait(timeout: .now() + 100) == .success)
    #expect(ledger.violations.load(ordering: .relaxed) == 0)
    #expect(stable.calls.load(ordering: .relaxed) == sent.load(ordering: .relaxed))
    #expect(sent.load(ordering: .relaxed) >= Self.senders * Self.messagesPerSender)
    #expect(churned.load(ordering: .relaxed) >= 20)
    #expect(proxy.delegates.count == 1)
    print(
      "thread safety: \(churned.load(ordering: .relaxed)) delegates added and removed or deallocated during the sends"
    )
  }

  /// Queued delivery under the same churn: no queued call after remove returned.
  @Test(.timeLimit(.minutes(1))) func queuedDeliveryWhileRemoving() throws {
    let cls = try RuntimeClass(name: uniqueClassName("QueuedProbe"))
    try cls.addMethod(Self.tick) { r, _ in (r as! Probe).hit() }
    let proxy = MulticastProxy()
    let ledger = ProbeLedger()
    let queue = DispatchQueue(label: "probes")
    let group = DispatchGroup()
    DispatchQueue(label: "sender").async(group: group) {
      for i in 0..<5_000 { try? Self.tick.send(to: proxy, i) }
    }
    DispatchQueue(label: "mutator").async(group: group) {
      for serial in 2_000_000..<2_000_300 {
        let probe = Probe(cls, serial: serial, ledger: ledger)
        try! proxy.add(probe, queue: queue)
        sched_yield()
        proxy.remove(probe, waitingForCallsInFlight: true)
        probe.removeReturned.store(true, ordering: .sequentiallyConsistent)
      }
    }
    #expect(group.wait(timeout: .now() + 50) == .success)
    queue.sync {}
    #expect(ledger.violations.load(ordering: .relaxed) == 0)
  }

  /// A deinit run by a dispatch's release, in the middle of its loop, waits for another
  /// thread's `remove` of a later responder: the remove returns without waiting for the
  /// dispatch (writers never wait for readers), and the dispatch then skips the removed
  /// responder — its removed check is the last step before each call.
  @Test(.timeLimit(.minutes(1)))
  func aDeinitDuringDispatchCannotLetARemovedResponderBeCalled() throws {
    let tally = Message<Int, Int>("graceTally:")
    let cls = try RuntimeClass(name: uniqueClassName("Grace"))
    let removeReturned = Atomic<Bool>(false)
    let callsAfterRemove = Atomic<Int>(0)
    let lastReference = Lock<RuntimeObject?>(nil)
    try cls.addMethod(tally) { receiver, _ in
      if receiver is DeinitHook {
        lastReference.withLock { $0 = nil }  // the dispatch now holds the only reference
      } else if removeReturned.load(ordering: .sequentiallyConsistent) {
        callsAfterRemove.add(1, ordering: .relaxed)
      }
      return 1
    }
    let proxy = MulticastProxy()
    proxy.setPolicy(.reduce(.fold(Int.self, name: "count", initial: 0, +)), for: tally.selector)
    let victim = Named(cls, "victim")
    let dying = DeinitHook(cls) {
      let removed = Atomic<Bool>(false)
      let remover = Thread.start {
        // Not the waiting form: this deinit runs inside the dispatch's call of the victim
        // (a released previous target), so waiting for that call would be the deadlock
        // `del_timer_sync`'s rule forbids.
        proxy.remove(victim, waitingForCallsInFlight: false)
        removeReturned.store(true, ordering: .sequentiallyConsistent)
        removed.store(true, ordering: .sequentiallyConsistent)
      }
      // Inside the dispatch's read section: the remover must not wait for this thread.
      while !removed.load(ordering: .sequentiallyConsistent) { sched_yield() }
      remover.join()
    }
    try proxy.add(dying)
    try proxy.add(victim)
    lastReference.withLock { $0 = dying }
    _ = consume dying

    let answered = try tally.send(to: proxy, 0)
    let returned = removeReturned.load(ordering: .sequentiallyConsistent)
    let violations = callsAfterRemove.load(ordering: .relaxed)
    #expect(returned)
    #expect(violations == 0)
    #expect(answered == 2)  // both were called, each before its removal
    #expect(try tally.send(to: proxy, 0) == 0)
  }
}

extension ConcurrencyTests {
  /// Removing the last reference to a strongly held, routed delegate runs its deinit,
  /// which waits out dispatches in flight. That must happen after the proxy's lock is
  /// released: a dispatch in flight may itself be waiting for that lock (a delegate
  /// adding another), and the two would wait for each other forever.
  @Test(.timeLimit(.minutes(1)))
  func removingTheLastReferenceWaitsOutsideTheLock() throws {
    let ping = Message<Void, Int>("deadlockPing:")
    let cls = try RuntimeClass(name: uniqueClassName("Deadlock"))
    let inCall = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let blocker = Lock<RuntimeObject?>(nil)
    let proxy = MulticastProxy()
    let late = RuntimeObject(class: cls)
    let lateBox = Lock<RuntimeObject?>(late)
    // Weak: a routed closure method holding its proxy would be a cycle (the route keeps
    // the methods it calls). The boxes are emptied at the end, so the class's method
    // keeps no delegate alive after the test.
    try cls.addMethod(ping) { [weak proxy] receiver, _ in
      guard receiver === blocker.withLock({ $0 }) else { return }
      inCall.signal()
      proceed.wait()
      // Takes the proxy's lock, inside the dispatch's read section.
      if let late = lateBox.withLock({ $0 }) { try? proxy?.add(late) }
    }
    let first = RuntimeObject(class: cls)
    blocker.withLock { $0 = first }
    try proxy.add(first)
    do {
      let strongOnly = RuntimeObject(class: cls)
      try proxy.add(strongOnly, retention: .strong)
    }
    #expect(proxy.fastPath(for: ping.selector) == .registers)

    let done = DispatchGroup()
    DispatchQueue(label: "sender").async(group: done) { try? ping.send(to: proxy, 1) }
    inCall.wait()
    DispatchQueue(label: "remover").async(group: done) {
      // The strong delegate's last reference goes; its deinit waits for the sender.
      proxy.removeAll()
    }
    usleep(100_000)  // let the remover reach its grace period
    proceed.signal()
    let finished = done.wait(timeout: .now() + 20)
    #expect(finished == .success)
    #expect(proxy.contains(late))
    blocker.withLock { $0 = nil }
    lateBox.withLock { $0 = nil }
  }
}

/// Runs a closure first thing in its deinit.
final class DeinitHook: RuntimeObject, @unchecked Sendable {
  let onDeinit: @Sendable () -> Void

  init(_ cls: RuntimeClass, onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
    super.init(class: cls)
  }

  deinit { onDeinit() }
}
