import DelegateProxy
import Dispatch
import Synchronization
import Testing

final class PackFeed: Sendable {}

@Delegate
protocol PackFeedDelegate: AnyObject {
  func feed(_ feed: PackFeed, didReceive count: Int)
  func feed(_ feed: PackFeed, rankOf row: Int, in section: Int) -> Int
  func feedDidStop()
}

final class PackListener: PackFeedDelegate, @unchecked Sendable {
  let received = Mutex<[Int]>([])
  let bonus: Int
  init(bonus: Int) { self.bonus = bonus }
  func feed(_ feed: PackFeed, didReceive count: Int) { received.withLock { $0.append(count) } }
  func feed(_ feed: PackFeed, rankOf row: Int, in section: Int) -> Int {
    row * 10 + section + bonus
  }
  func feedDidStop() { received.withLock { $0.append(-1) } }
}

/// `broadcast` and `aggregate` take a method's arguments as they are written in a call:
/// none, one, or several (parameter packs), on delegates with and without queues.
@Suite("Typed calls take arguments as written") struct ArgumentPackTests {
  @Test func broadcastTakesEachArgument() async throws {
    let feeds = PackFeedDelegateMulticast()
    let direct = PackListener(bonus: 0)
    let queued = PackListener(bonus: 0)
    feeds.add(direct)
    feeds.add(queued, queue: DispatchQueue(label: "pack.queued"))
    let feed = PackFeed()
    await feeds.broadcast(\.feedDidReceive, feed, 99)
    await feeds.broadcast(\.feedDidStop)
    #expect(direct.received.withLock { $0 } == [99, -1])
    #expect(queued.received.withLock { $0 } == [99, -1])
  }

  @Test func aggregateTakesEachArgument() async throws {
    let sum = Reducer.fold(Int.self, name: "sum", initial: 0, +)
    let feeds = PackFeedDelegateMulticast()
    let a = PackListener(bonus: 1)
    let b = PackListener(bonus: 2)
    feeds.add(a)
    feeds.add(b, queue: DispatchQueue(label: "pack.b"))
    let feed = PackFeed()
    // 3 * 10 + 4 + bonus, each: 35 and 36.
    #expect(await feeds.aggregate(\.feedRankOfIn, feed, 3, 4, reducer: sum) == 71)
    #expect(await feeds.aggregate(\.feedRankOfIn, feed, 3, 4) == 36)  // last responder
    let done = Mutex<Int?>(nil)
    let finished = DispatchSemaphore(value: 0)
    feeds.aggregate(
      \.feedRankOfIn, feed, 3, 4, reducer: sum, completionQueue: DispatchQueue(label: "done")
    ) { value in
      done.withLock { $0 = value }
      finished.signal()
    }
    finished.wait()
    #expect(done.withLock { $0 } == 71)
  }
}
