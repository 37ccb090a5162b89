// Issue #33's table, re-measured on the code as it is: each row runs the program —
// a delegate busy or blocked on one thread, an operation on another — and prints whether
// the operation returned within 5 s and how long it took.
//
//   swift run -c release NeverWaitTable

import DelegateProxy
import Dispatch
import Foundation
import Synchronization

@Delegate
protocol Events: AnyObject {
  func ping(_ n: Int)
}

final class Member: Events, Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void = {}) { self.body = body }
  func ping(_ n: Int) { body() }
}

/// Runs `body` on a thread of its own: the seconds it took, or nil after 5 s.
func timed(_ body: @escaping @Sendable () -> Void) -> Double? {
  let done = DispatchSemaphore(value: 0)
  let start = DispatchTime.now().uptimeNanoseconds
  let took = Atomic<UInt64>(0)
  Thread.detachNewThread {
    body()
    took.store(DispatchTime.now().uptimeNanoseconds - start, ordering: .relaxed)
    done.signal()
  }
  guard done.wait(timeout: .now() + 5) == .success else { return nil }
  return Double(took.load(ordering: .relaxed)) / 1e9
}

func row(_ what: String, _ seconds: Double?) {
  let result = seconds.map { String(format: "returned after %.3f ms", $0 * 1000) } ?? "no return within 5 s"
  print("| \(what) | \(result) |")
}

/// A delegate that sleeps `seconds` in its call, called on a thread of its own; returns
/// once the call has begun.
func busy(_ x: EventsMulticast, seconds: Double) {
  let entered = DispatchSemaphore(value: 0)
  x.add(Member { entered.signal(); usleep(UInt32(seconds * 1e6)) }, retention: .strong)
  Thread.detachNewThread { x.ping(1) }
  entered.wait()
}

// Warm-up: the first multicast of the process pays one-time costs (metadata, the runtime
// class, the reclaimer thread, the first thread) that are not what the rows measure.
do {
  let warm = EventsMulticast()
  let member = Member()
  for _ in 0..<10 {
    _ = timed {
      warm.add(member)
      warm.ping(0)
      warm.remove(member)
    }
  }
}

print("| what the program did | what happened |")
print("| --- | --- |")
do {
  let x = EventsMulticast()
  let y = EventsMulticast()
  busy(x, seconds: 2)
  let q = Member()
  row("X's delegate sleeps 2 s on T; main calls `Y.add(q)` on an unrelated Y", timed { y.add(q) })
}
do {
  let x = EventsMulticast()
  let y = EventsMulticast()
  y.add(Member(), retention: .strong)
  var dead: Member? = Member()
  y.add(dead!)
  dead = nil
  busy(x, seconds: 2)
  row("same, Y's weak member just deallocated; main calls `y.ping(2)`", timed { y.ping(2) })
}
do {
  let x = EventsMulticast()
  let y = EventsMulticast()
  let lock = NSLock()
  let entered = DispatchSemaphore(value: 0)
  x.add(Member { entered.signal(); lock.lock(); lock.unlock() }, retention: .strong)
  let q = Member()
  row(
    "M holds L and calls `Y.add(q)`; T is in X's delegate waiting for L",
    timed {
      lock.lock()
      Thread.detachNewThread { x.ping(1) }
      entered.wait()
      y.add(q)
      lock.unlock()
    })
}
do {
  let x = EventsMulticast()
  let lock = NSLock()
  let entered = DispatchSemaphore(value: 0)
  let a = Member()
  x.add(a)
  x.add(Member { entered.signal(); lock.lock(); lock.unlock() }, retention: .strong)
  row(
    "M holds L and calls `X.remove(a)`; X's other member b, on T, waits for L",
    timed {
      lock.lock()
      Thread.detachNewThread { x.ping(1) }
      entered.wait()
      x.remove(a)
      lock.unlock()
    })
}
do {
  let x = EventsMulticast()
  x.add(Member { usleep(5_000) }, retention: .strong)
  let stop = Atomic<Bool>(false)
  for _ in 0..<2 { Thread.detachNewThread { while !stop.load(ordering: .relaxed) { x.ping(1) } } }
  usleep(20_000)
  let y = EventsMulticast()
  let q = Member()
  var pairs: [Double] = []
  for _ in 0..<50 {
    let start = DispatchTime.now().uptimeNanoseconds
    y.add(q)
    y.remove(q)
    pairs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  stop.store(true, ordering: .relaxed)
  let mean = pairs.reduce(0, +) / Double(max(pairs.count, 1))
  let worst = pairs.max() ?? .nan
  print(
    "| two threads call X (5 ms delegate); main does `Y.add(q); Y.remove(q)` 50 times | "
      + String(format: "%.4f ms mean per pair, %.4f ms worst", mean * 1000, worst * 1000) + " |")
}
do {
  let x = EventsMulticast()
  let other = EventsMulticast()
  let me = Mutex<Member?>(nil)
  let member = Member {
    if let m = me.withLock({ $0 }) {
      x.remove(m)
      other.add(Member(), retention: .strong)
    }
  }
  me.withLock { $0 = member }
  x.add(member)
  row("a delegate removes itself and adds to another multicast from its own call", timed { x.ping(1) })
  me.withLock { $0 = nil }
}
exit(0)
