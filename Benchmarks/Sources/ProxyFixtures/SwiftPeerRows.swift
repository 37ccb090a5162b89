// What Swift programmers use instead of a multicast delegate, on the String rows'
// workload (SwiftStringRows.swift's `feed(_:didReceive:)`: a BenchFeed and a heap String
// to N listeners, each its own object of one of the two listener classes, each adding the
// String's UTF-8 count to a sink): NotificationCenter, OpenCombine's PassthroughSubject,
// lists of closures, and — for the asynchronous shape — an AsyncStream per consumer beside
// the multicast's own `messages(_:)`.
//
// The peers' closures capture their listener strongly (their cheapest form); what a
// `[weak listener]` capture costs is `swift_string_closures_weak`'s difference from
// `swift_string_closures`. A closure is made where the listener's class is known (as a
// class registers its own handler), so it calls the method directly.

import BenchmarkSupport
import DelegateProxy
import Dispatch
import Foundation
import OpenCombine
import Synchronization

/// The rows beside the String multicast: Swift peers, closure lists and the multicast's
/// strongly held and asynchronous forms. All measure `feed(_:didReceive:)`.
public enum SwiftPeerRowKind: String, CaseIterable, Sendable {
  /// `NotificationCenter.post(name:object:userInfo:)` to N observers added with
  /// `addObserver(forName:object:queue:using:)`, queue nil (synchronous); the String in
  /// `userInfo`.
  case notificationCenter = "peer_notificationcenter"
  /// OpenCombine `PassthroughSubject<(BenchFeed, String), Never>.send` to N `sink`s.
  case openCombineSubject = "peer_opencombine_subject"
  /// A `[(BenchFeed, String) -> Void]` loop, each closure holding its listener strongly.
  case closures = "swift_string_closures"
  /// The same, each closure capturing `[weak listener]`.
  case closuresWeak = "swift_string_closures_weak"
  /// The String multicast with its members added `retention: .strong`, called through a
  /// strong reference (as the closure list is): beside `swift_string_closures`.
  case protocolProxyStrongMembers = "swift_string_protocol_proxy_strong_members"
  /// The String multicast of weak members called through a strong reference: the
  /// multicast's own cost, without the delegator's weak load of it (every weak load of an
  /// object goes through its side table). Beside `swift_string_closures_weak`, whose list
  /// is held strongly too.
  case protocolProxyStrongSlot = "swift_string_protocol_proxy_strong_slot"
  /// One event to N consumers, each iterating its own `AsyncStream`, timed until every
  /// consumer has it.
  case asyncStream = "peer_asyncstream"
  /// The same through the multicast (no delegates): N consumers, each iterating its own
  /// `messages(\.feedDidReceive)`, the call made through a delegator's weak slot.
  case protocolProxyMessages = "swift_string_protocol_proxy_messages"

  /// Recorded as "path" in latest.json.
  public var path: String {
    switch self {
    case .notificationCenter: "foundation-notificationcenter-post"
    case .openCombineSubject: "opencombine-passthroughsubject-send"
    case .closures, .closuresWeak: "swift-closure-array"
    case .protocolProxyStrongMembers, .protocolProxyStrongSlot: "swift-delegate-multicast"
    case .asyncStream: "asyncstream-per-consumer"
    case .protocolProxyMessages: "swift-delegate-multicast-messages"
    }
  }

  /// Whether the row is timed until consumers on other threads have the messages.
  public var isAsynchronous: Bool { self == .asyncStream || self == .protocolProxyMessages }
}

/// A value handed across threads by the benchmark, which orders every access itself.
struct Handed<Value>: @unchecked Sendable {
  // @unchecked Sendable: a consumer task gets its listener and sequence once, then only it
  // uses them.
  let value: Value
}

/// How many messages the consumers of an asynchronous row have taken, and a semaphore
/// that opens when they reach the count a run waits for.
final class Arrivals: Sendable {
  private let count = Atomic<Int>(0)
  private let target = Atomic<Int>(Int.max)
  private let reached = DispatchSemaphore(value: 0)

  /// One consumer took one message.
  func arrived() {
    let now = count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    if now == target.load(ordering: .acquiring) { reached.signal() }
  }

  /// Sets the count to wait for: `more` arrivals from now. Call before the messages are
  /// sent (the previous run's arrivals have all been waited for).
  func expect(_ more: Int) {
    target.store(count.load(ordering: .acquiring) + more, ordering: .releasing)
  }

  /// Blocks until the count set by ``expect(_:)`` is reached.
  func wait() { reached.wait() }
}

/// Per-listener sinks a cache line apart, for listeners called on different threads.
private func separateSinks(_ count: Int) -> UnsafeMutablePointer<Int> {
  let p = UnsafeMutablePointer<Int>.allocate(capacity: max(count, 1) * 8)
  p.initialize(repeating: 0, count: max(count, 1) * 8)
  return p
}

/// The sink the synchronous rows' listeners share.
nonisolated(unsafe) private let peerSink: UnsafeMutablePointer<Int> = separateSinks(1)

extension Workload {
  /// The peer row `kind` at `fanout` listeners (`feed(_:didReceive:)`).
  public static func swiftPeer(_ kind: SwiftPeerRowKind, fanout: Int) -> Workload {
    // Asynchronous rows' listeners run on several threads: a sink each.
    let sinks = kind.isAsynchronous ? separateSinks(fanout) : peerSink
    let listeners: [any BenchFeedDelegate] = (0..<fanout).map { i in
      let sink = kind.isAsynchronous ? sinks + 8 * i : sinks
      return i % 2 == 0
        ? FeedListenerA(sink: sink, row: i) as any BenchFeedDelegate
        : FeedListenerB(sink: sink, row: i)
    }
    let feed = BenchFeed(id: 7)
    // As the String rows: made at run time, more than 15 UTF-8 bytes, on the heap.
    let text = String(repeating: "item ", count: 4) + "of feed \(fanout)"
    precondition(text.utf8.count > 15, "the String rows need a heap-allocated String")
    let expectedSum = (0..<fanout).reduce(0) { sum, i in
      sum &+ (i % 2 == 0 ? text.utf8.count : text.utf8.count &* 2)
    }
    let sinkTotal: () -> Int = {
      kind.isAsynchronous ? (0..<fanout).reduce(0) { $0 &+ sinks[8 * $1] } : sinks.pointee
    }
    var keep: [AnyObject] = listeners.map { $0 as AnyObject }
    keep.append(feed)
    var cleanup: (() -> Void)?
    let run: (Int) -> UInt64
    let once: () -> Void

    switch kind {
    case .notificationCenter:
      let center = NotificationCenter()
      let name = Notification.Name("BenchFeedDidReceive")
      let tokens = listeners.map { listener in
        // nonisolated(unsafe): the observer block is @Sendable; it runs on the posting
        // thread (queue nil), the harness's only thread.
        nonisolated(unsafe) let handler = SwiftPeerRows.handler(listener)
        return center.addObserver(forName: name, object: nil, queue: nil) { note in
          handler(note.object as! BenchFeed, note.userInfo!["text"] as! String)
        }
      }
      keep.append(center)
      cleanup = { for t in tokens { center.removeObserver(t) } }
      run = { n in SwiftPeerRows.post(center, name, feed, text, n) }
      once = { center.post(name: name, object: feed, userInfo: ["text": text]) }
    case .openCombineSubject:
      let subject = PassthroughSubject<(BenchFeed, String), Never>()
      let cancellables = listeners.map { listener in
        let handler = SwiftPeerRows.handler(listener)
        return subject.sink { value in handler(value.0, value.1) }
      }
      keep.append(subject)
      keep += cancellables
      run = { n in SwiftPeerRows.send(subject, feed, text, n) }
      once = { subject.send((feed, text)) }
    case .closures, .closuresWeak:
      let handlers =
        kind == .closures
        ? listeners.map(SwiftPeerRows.handler) : listeners.map(SwiftPeerRows.weakHandler)
      run = { n in SwiftPeerRows.callClosures(handlers, feed, text, n) }
      once = { _ = SwiftPeerRows.callClosures(handlers, feed, text, 1) }
    case .protocolProxyStrongMembers, .protocolProxyStrongSlot:
      let proxy = BenchFeedDelegateMulticast()
      let retention: Retention = kind == .protocolProxyStrongMembers ? .strong : .weak
      for l in listeners { proxy.add(l, retention: retention) }
      keep.append(proxy)
      let slot: [any BenchFeedDelegate] = [proxy]
      run = { n in SwiftStringRows.strongDidReceive(slot, feed, text, n) }
      once = { proxy.feed(feed, didReceive: text) }
    case .asyncStream:
      let arrivals = Arrivals()
      var continuations: [AsyncStream<(BenchFeed, String)>.Continuation] = []
      for listener in listeners {
        let (stream, continuation) = AsyncStream.makeStream(of: (BenchFeed, String).self)
        continuations.append(continuation)
        let handed = Handed(value: listener)
        Task.detached {
          for await (f, t) in stream {
            handed.value.feed(f, didReceive: t)
            arrivals.arrived()
          }
        }
      }
      cleanup = { for c in continuations { c.finish() } }
      run = { n in SwiftPeerRows.yieldAll(continuations, arrivals, feed, text, n) }
      once = { _ = SwiftPeerRows.yieldAll(continuations, arrivals, feed, text, 1) }
    case .protocolProxyMessages:
      let arrivals = Arrivals()
      let proxy = BenchFeedDelegateMulticast()
      for listener in listeners {
        let handed = Handed(value: (listener, proxy.messages(\.feedDidReceive)))
        Task.detached {
          for await (f, t) in handed.value.1 {
            handed.value.0.feed(f, didReceive: t)
            arrivals.arrived()
          }
        }
      }
      let delegator = BenchFeedDelegator()
      delegator.delegate = proxy
      keep.append(proxy)
      keep.append(delegator)
      run = { n in SwiftPeerRows.messages(delegator, arrivals, fanout, feed, text, n) }
      once = { _ = SwiftPeerRows.messages(delegator, arrivals, fanout, feed, text, 1) }
    }

    // One message, checked: it reached every listener (the sinks grew by their sum).
    let check: () -> String? = {
      let before = sinkTotal()
      once()
      let added = sinkTotal() &- before
      return added == expectedSum
        ? nil : "\(kind.rawValue): one message added \(added) to the sinks, expected \(expectedSum)"
    }
    return Workload(
      name: kind.rawValue, signature: .object, fanout: fanout, responders: fanout,
      path: kind.path, keepAlive: keep, cleanup: cleanup, check: check,
      encoding: FeedMethod.didReceive.encoding, run: run)
  }
}

/// The peers' handlers and timed loops.
enum SwiftPeerRows {
  typealias Handler = (BenchFeed, String) -> Void

  /// A closure holding `listener` strongly and calling its method directly (made where
  /// its class is known, as a class registers its own handler).
  static func handler(_ listener: any BenchFeedDelegate) -> Handler {
    if let a = listener as? FeedListenerA { return { f, t in a.feed(f, didReceive: t) } }
    let b = listener as! FeedListenerB
    return { f, t in b.feed(f, didReceive: t) }
  }

  /// The same capturing `[weak listener]`.
  static func weakHandler(_ listener: any BenchFeedDelegate) -> Handler {
    if let a = listener as? FeedListenerA { return { [weak a] f, t in a?.feed(f, didReceive: t) } }
    let b = listener as! FeedListenerB
    return { [weak b] f, t in b?.feed(f, didReceive: t) }
  }

  @inline(never) static func callClosures(
    _ handlers: [Handler], _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for h in handlers { h(feed, text) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func post(
    _ center: NotificationCenter, _ name: Notification.Name, _ feed: BenchFeed, _ text: String,
    _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n { center.post(name: name, object: feed, userInfo: ["text": text]) }
    return bs_now_ns() &- start
  }

  @inline(never) static func send(
    _ subject: PassthroughSubject<(BenchFeed, String), Never>, _ feed: BenchFeed, _ text: String,
    _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n { subject.send((feed, text)) }
    return bs_now_ns() &- start
  }

  /// Yields each of `n` messages to every continuation, then waits until every consumer
  /// has taken all of them.
  @inline(never) static func yieldAll(
    _ continuations: [AsyncStream<(BenchFeed, String)>.Continuation], _ arrivals: Arrivals,
    _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    arrivals.expect(n * continuations.count)
    for _ in 0..<n {
      for c in continuations { c.yield((feed, text)) }
    }
    arrivals.wait()
    return bs_now_ns() &- start
  }

  /// Sends `n` messages through the delegator's slot, then waits until each of the
  /// `consumers` has taken all of them from its message sequence.
  @inline(never) static func messages(
    _ delegator: BenchFeedDelegator, _ arrivals: Arrivals, _ consumers: Int, _ feed: BenchFeed,
    _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    arrivals.expect(n * consumers)
    for _ in 0..<n { delegator.delegate?.feed(feed, didReceive: text) }
    arrivals.wait()
    return bs_now_ns() &- start
  }
}
