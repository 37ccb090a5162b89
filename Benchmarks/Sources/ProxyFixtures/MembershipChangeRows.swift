// membership_change_while_busy (issue #33): the latency of `add` + `remove` on a `@Delegate`
// multicast while two other threads keep running 5 ms delegate calls — on another
// multicast (encoding `other`) or on the same one, through another member (`same`). Before
// the never-wait core each change waited for the calls running anywhere (≈ 10 ms a pair);
// now it waits for nothing, so the figure must not depend on how long delegates run. The
// harness reports the median per pair; the worst pair seen in the run is printed when the
// workload goes (stderr), for the closing note.

import Dispatch
import DelegateProxy
import Foundation
import Synchronization

/// A class-bound delegate protocol: the busy calls and the changes go through it.
@Delegate
protocol BusyEvents: AnyObject {
  func ping(_ n: Int)
}

/// A member whose call takes 5 ms (a delegate doing real work).
final class SlowBusyMember: BusyEvents, Sendable {
  func ping(_ n: Int) { usleep(5_000) }
}

/// A member whose call does nothing.
final class QuickBusyMember: BusyEvents, Sendable {
  func ping(_ n: Int) {}
}

/// Where the busy calls run.
public enum MembershipChangeRowKind: String, CaseIterable, Sendable {
  /// The calls run on another multicast.
  case other
  /// The calls run on the multicast that changes (its other member is slow).
  case same

  /// The row's name.
  public static let name = "membership_change_while_busy"
}

/// Stops the busy threads when the workload goes, and prints the worst pair.
private final class BusyThreads: @unchecked Sendable {
  // @unchecked Sendable: `stop` and `worst` are atomics; the threads are joined in stop().
  let stopFlag = Atomic<Bool>(false)
  let worst = Atomic<UInt64>(0)
  let done = DispatchGroup()
  let label: String
  init(label: String) { self.label = label }

  func start(_ call: @escaping @Sendable () -> Void) {
    for _ in 0..<2 {
      DispatchQueue.global().async(group: done) { [self] in
        while !stopFlag.load(ordering: .relaxed) { call() }
      }
    }
  }

  func stop() {
    stopFlag.store(true, ordering: .relaxed)
    done.wait()
    let ns = worst.load(ordering: .relaxed)
    FileHandle.standardError.write(
      Data("\(label): worst add+remove \(Double(ns) / 1000) µs\n".utf8))
  }
}

extension Workload {
  /// `membership_change_while_busy` with the busy calls on `kind`'s multicast.
  public static func membershipChange(_ kind: MembershipChangeRowKind) -> Workload {
    let changing = BusyEventsMulticast()
    let busy = kind == .same ? changing : BusyEventsMulticast()
    let slow = SlowBusyMember()
    busy.add(slow)
    let member = QuickBusyMember()
    let threads = BusyThreads(label: "\(MembershipChangeRowKind.name) \(kind.rawValue)")
    threads.start { busy.ping(1) }
    usleep(20_000)  // both threads are inside calls
    return Workload(
      name: MembershipChangeRowKind.name, signature: .qd, fanout: 1, responders: 1,
      path: "add+remove", keepAlive: [changing, busy, slow, member],
      cleanup: { threads.stop() }, encoding: kind.rawValue
    ) { n in
      let start = DispatchTime.now().uptimeNanoseconds
      var last = start
      for _ in 0..<n {
        changing.add(member)
        changing.remove(member)
        let now = DispatchTime.now().uptimeNanoseconds
        if now - last > threads.worst.load(ordering: .relaxed) {
          threads.worst.store(now - last, ordering: .relaxed)
        }
        last = now
      }
      return last - start
    }
  }
}
