// Swift-protocol rows with String arguments: what one call to N plain Swift delegates
// costs when a method passes a heap-allocated String (a void method) or answers a
// String? (first non-nil), through the loops Swift programmers write by hand and through
// a @Delegate multicast. The rows beside SwiftProtocolRows.swift's, built the same way:
// every row makes its own delegate objects (an object that was ever referenced weakly
// keeps a side table, which slows all its retains), and each mixes two conforming
// classes (one class alone lets the optimizer devirtualize the call).
//
// Workload:
// - `feed(_:didReceive:)` passes one String of more than 15 UTF-8 bytes (so it lives on
//   the heap and is reference counted), made once per row, never per call. Each delegate
//   adds `text.utf8.count` (or twice it) to a sink through a pointer: it cannot be
//   optimized away and allocates nothing.
// - `feed(_:titleFor:)` is asked for the LAST delegate's row. Each delegate answers its
//   own stored title (made when the delegate is, so answering allocates nothing) for its
//   own row number and nil for any other. The hand-written loops return the first non-nil
//   answer, as a user writes "first non-nil"; the multicast's `.reduce(.firstNonNil)` calls
//   every responder and keeps the first non-nil answer (AIMultiDelegate's semantics).
//   Asking for the last delegate's row makes every row walk the whole list, so the rows do
//   the same work: N calls, N − 1 nils and one title.

import BenchmarkSupport
import DelegateProxy

/// The object the String methods receive.
public final class BenchFeed: Sendable {
  public let id: Int
  public init(id: Int) { self.id = id }
}

/// The delegate protocol of the String rows.
@Delegate
public protocol BenchFeedDelegate: AnyObject {
  func feed(_ f: BenchFeed, didReceive text: String)
  func feed(_ f: BenchFeed, titleFor row: Int) -> String?
}

/// Two conforming classes, mixed in every row. Their bodies write through a pointer, so
/// the call cannot be optimized away and no exclusivity check is paid; `title` is made
/// once, when the delegate is.
final class FeedListenerA: BenchFeedDelegate {
  let sink: UnsafeMutablePointer<Int>
  let row: Int
  let title: String
  init(sink: UnsafeMutablePointer<Int>, row: Int) {
    self.sink = sink
    self.row = row
    title = "title of feed row \(row), A"
  }
  func feed(_ f: BenchFeed, didReceive text: String) { sink.pointee &+= text.utf8.count }
  func feed(_ f: BenchFeed, titleFor row: Int) -> String? { row == self.row ? title : nil }
}

final class FeedListenerB: BenchFeedDelegate {
  let sink: UnsafeMutablePointer<Int>
  let row: Int
  let title: String
  init(sink: UnsafeMutablePointer<Int>, row: Int) {
    self.sink = sink
    self.row = row
    title = "title of feed row \(row), B"
  }
  func feed(_ f: BenchFeed, didReceive text: String) { sink.pointee &+= text.utf8.count &* 2 }
  func feed(_ f: BenchFeed, titleFor row: Int) -> String? { row == self.row ? title : nil }
}

/// A delegator as Swift programmers write one.
final class BenchFeedDelegator {
  weak var delegate: (any BenchFeedDelegate)?
}

/// The two methods of the String rows, each with its own signature label.
public enum FeedMethod: CaseIterable, Sendable {
  /// `feed(_:didReceive:)`, void.
  case didReceive
  /// `feed(_:titleFor:)`, `String?`, first non-nil.
  case titleFor

  /// The row's signature in the table and in latest.json: the method's Objective-C
  /// shape with the Swift object as `@`, as the other Swift rows write `observe(_:)`
  /// (`v@:@`), and the Swift type the `@` after it stands for.
  public var encoding: String {
    switch self {
    case .didReceive: "v@:@@ (String)"
    case .titleFor: "@@:@q (String?)"
    }
  }
}

/// The String rows.
public enum SwiftStringRowKind: String, CaseIterable, Sendable {
  /// A plain `[any P]` loop.
  case strongArray = "swift_string_strong_array"
  /// The array of weak boxes Swift programmers hand-write.
  case weakArray = "swift_string_weak_array"
  /// Swift `unowned` references: one checked retain and its release per delegate.
  case unownedArray = "swift_string_unowned_array"
  /// A delegator's weak slot holding a @Delegate multicast of N weak members, with
  /// `.reduce(.firstNonNil)` for `feed(_:titleFor:)`.
  case protocolProxy = "swift_string_protocol_proxy"
  /// The same delegator's weak slot pointing straight at the one delegate, no multicast:
  /// what a user had before putting a multicast there (fan-out 1 only).
  case weakDelegateDirect = "swift_string_weak_delegate_direct"

  /// Whether the row exists at `fanout`: a weak slot holds one delegate.
  public func measures(fanout: Int) -> Bool { self != .weakDelegateDirect || fanout == 1 }
}

struct WeakFeedListener {
  weak var value: (any BenchFeedDelegate)?
}

/// An unowned delegate (see `UnownedListener`).
struct UnownedFeedListener {
  unowned let value: any BenchFeedDelegate
  init(_ value: any BenchFeedDelegate) { self.value = value }
}

/// Sink for the delegates' writes (read back only by the checks).
nonisolated(unsafe) private let feedSink: UnsafeMutablePointer<Int> = {
  // nonisolated(unsafe): the benchmark harness runs one row at a time on one thread.
  let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  p.initialize(to: 0)
  return p
}()

extension Workload {
  /// The String row `kind` at `fanout` delegates, for `method`.
  public static func swiftString(_ kind: SwiftStringRowKind, _ method: FeedMethod, fanout: Int)
    -> Workload
  {
    precondition(kind.measures(fanout: fanout), "\(kind.rawValue) has no fan-out \(fanout)")
    let listeners: [any BenchFeedDelegate] = (0..<fanout).map { i in
      i % 2 == 0
        ? FeedListenerA(sink: feedSink, row: i) as any BenchFeedDelegate
        : FeedListenerB(sink: feedSink, row: i)
    }
    let feed = BenchFeed(id: 7)
    // Made at run time (not a literal, which would be immortal): a native String of more
    // than 15 UTF-8 bytes, on the heap, reference counted.
    let text = String(repeating: "item ", count: 4) + "of feed \(fanout)"
    precondition(text.utf8.count > 15, "the String rows need a heap-allocated String")
    // The last delegate's row: every loop walks the whole list (see the file's comment).
    let row = fanout - 1
    let expectedTitle =
      (listeners.last as? FeedListenerA)?.title ?? (listeners.last as! FeedListenerB).title
    // What one didReceive adds to the sink: every delegate's share.
    let expectedSum = (0..<fanout).reduce(0) { sum, i in
      sum &+ (i % 2 == 0 ? text.utf8.count : text.utf8.count &* 2)
    }
    var keep: [AnyObject] = listeners.map { $0 as AnyObject }
    keep.append(feed)

    // One message, checked: didReceive reached every delegate; titleFor answered the last
    // delegate's title.
    func checked(
      _ name: String, didReceive: @escaping () -> Void, titleFor: @escaping (Int) -> String?
    ) -> () -> String? {
      {
        switch method {
        case .didReceive:
          let before = feedSink.pointee
          didReceive()
          let added = feedSink.pointee &- before
          return added == expectedSum
            ? nil : "\(name): didReceive added \(added) to the sink, expected \(expectedSum)"
        case .titleFor:
          let got = titleFor(row)
          guard got == expectedTitle else {
            return "\(name): titleFor(\(row)) answered \(got ?? "nil"), expected \(expectedTitle)"
          }
          // A row nobody owns: nil from every loop.
          if let other = titleFor(fanout) {
            return "\(name): titleFor(\(fanout)) answered \(other), expected nil"
          }
          return nil
        }
      }
    }

    let run: (Int) -> UInt64
    let check: () -> String?
    switch kind {
    case .strongArray:
      run =
        method == .didReceive
        ? { n in SwiftStringRows.strongDidReceive(listeners, feed, text, n) }
        : { n in SwiftStringRows.strongTitleFor(listeners, feed, row, n) }
      check = checked(
        kind.rawValue,
        didReceive: { _ = SwiftStringRows.strongDidReceive(listeners, feed, text, 1) },
        titleFor: { SwiftStringRows.strongTitle1(listeners, feed, $0) })
    case .weakArray:
      let boxes = listeners.map { WeakFeedListener(value: $0) }
      run =
        method == .didReceive
        ? { n in SwiftStringRows.weakDidReceive(boxes, feed, text, n) }
        : { n in SwiftStringRows.weakTitleFor(boxes, feed, row, n) }
      check = checked(
        kind.rawValue,
        didReceive: { _ = SwiftStringRows.weakDidReceive(boxes, feed, text, 1) },
        titleFor: { SwiftStringRows.weakTitle1(boxes, feed, $0) })
    case .unownedArray:
      let boxes = listeners.map(UnownedFeedListener.init)
      run =
        method == .didReceive
        ? { n in SwiftStringRows.unownedDidReceive(boxes, feed, text, n) }
        : { n in SwiftStringRows.unownedTitleFor(boxes, feed, row, n) }
      check = checked(
        kind.rawValue,
        didReceive: { _ = SwiftStringRows.unownedDidReceive(boxes, feed, text, 1) },
        titleFor: { SwiftStringRows.unownedTitle1(boxes, feed, $0) })
    case .protocolProxy:
      let proxy = BenchFeedDelegateMulticast()
      for l in listeners { proxy.add(l) }
      proxy.setPolicy(.reduce(.firstNonNil), for: \.feedTitleFor)
      let delegator = BenchFeedDelegator()
      delegator.delegate = proxy
      keep.append(proxy)
      keep.append(delegator)
      run =
        method == .didReceive
        ? { n in SwiftStringRows.delegatorDidReceive(delegator, feed, text, n) }
        : { n in SwiftStringRows.delegatorTitleFor(delegator, feed, row, n) }
      check = checked(
        kind.rawValue,
        didReceive: { delegator.delegate?.feed(feed, didReceive: text) },
        titleFor: { delegator.delegate?.feed(feed, titleFor: $0) })
    case .weakDelegateDirect:
      // The same delegator and timed loops as .protocolProxy, its slot holding the delegate.
      let delegator = BenchFeedDelegator()
      delegator.delegate = listeners[0]
      keep.append(delegator)
      run =
        method == .didReceive
        ? { n in SwiftStringRows.delegatorDidReceive(delegator, feed, text, n) }
        : { n in SwiftStringRows.delegatorTitleFor(delegator, feed, row, n) }
      check = checked(
        kind.rawValue,
        didReceive: { delegator.delegate?.feed(feed, didReceive: text) },
        titleFor: { delegator.delegate?.feed(feed, titleFor: $0) })
    }
    return Workload(
      name: kind.rawValue, signature: .object, fanout: fanout, responders: fanout,
      path: kind == .protocolProxy
        ? "swift-delegate-multicast"
        : kind == .weakDelegateDirect ? "swift-weak-slot" : "swift-loop",
      keepAlive: keep, check: check, encoding: method.encoding, run: run)
  }
}

/// The timed loops. Each `…TitleFor` loop asks for `row` and folds the answer's length
/// into an accumulator consumed after the clock is read.
enum SwiftStringRows {
  // MARK: [any P]

  @inline(never) static func strongTitle1(
    _ listeners: [any BenchFeedDelegate], _ feed: BenchFeed, _ row: Int
  ) -> String? {
    strongTitle(listeners, feed, row)
  }

  /// First non-nil, as a user writes it.
  @inline(__always) static func strongTitle(
    _ listeners: [any BenchFeedDelegate], _ feed: BenchFeed, _ row: Int
  ) -> String? {
    for l in listeners {
      if let title = l.feed(feed, titleFor: row) { return title }
    }
    return nil
  }

  @inline(never) static func strongDidReceive(
    _ listeners: [any BenchFeedDelegate], _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for l in listeners { l.feed(feed, didReceive: text) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func strongTitleFor(
    _ listeners: [any BenchFeedDelegate], _ feed: BenchFeed, _ row: Int, _ n: Int
  ) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for _ in 0..<n { acc &+= strongTitle(listeners, feed, row)?.utf8.count ?? 0 }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  // MARK: weak boxes

  @inline(never) static func weakTitle1(_ boxes: [WeakFeedListener], _ feed: BenchFeed, _ row: Int)
    -> String?
  {
    weakTitle(boxes, feed, row)
  }

  @inline(__always) static func weakTitle(
    _ boxes: [WeakFeedListener], _ feed: BenchFeed, _ row: Int
  ) -> String? {
    for b in boxes {
      if let l = b.value, let title = l.feed(feed, titleFor: row) { return title }
    }
    return nil
  }

  @inline(never) static func weakDidReceive(
    _ boxes: [WeakFeedListener], _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for b in boxes { b.value?.feed(feed, didReceive: text) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func weakTitleFor(
    _ boxes: [WeakFeedListener], _ feed: BenchFeed, _ row: Int, _ n: Int
  ) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for _ in 0..<n { acc &+= weakTitle(boxes, feed, row)?.utf8.count ?? 0 }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  // MARK: unowned boxes

  @inline(never) static func unownedTitle1(
    _ boxes: [UnownedFeedListener], _ feed: BenchFeed, _ row: Int
  ) -> String? {
    unownedTitle(boxes, feed, row)
  }

  @inline(__always) static func unownedTitle(
    _ boxes: [UnownedFeedListener], _ feed: BenchFeed, _ row: Int
  ) -> String? {
    for b in boxes {
      if let title = b.value.feed(feed, titleFor: row) { return title }
    }
    return nil
  }

  @inline(never) static func unownedDidReceive(
    _ boxes: [UnownedFeedListener], _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n {
      for b in boxes { b.value.feed(feed, didReceive: text) }
    }
    return bs_now_ns() &- start
  }

  @inline(never) static func unownedTitleFor(
    _ boxes: [UnownedFeedListener], _ feed: BenchFeed, _ row: Int, _ n: Int
  ) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for _ in 0..<n { acc &+= unownedTitle(boxes, feed, row)?.utf8.count ?? 0 }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }

  // MARK: the delegator's weak slot holding the multicast

  @inline(never) static func delegatorDidReceive(
    _ delegator: BenchFeedDelegator, _ feed: BenchFeed, _ text: String, _ n: Int
  ) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n { delegator.delegate?.feed(feed, didReceive: text) }
    return bs_now_ns() &- start
  }

  @inline(never) static func delegatorTitleFor(
    _ delegator: BenchFeedDelegator, _ feed: BenchFeed, _ row: Int, _ n: Int
  ) -> UInt64 {
    var acc = 0
    let start = bs_now_ns()
    for _ in 0..<n { acc &+= delegator.delegate?.feed(feed, titleFor: row)?.utf8.count ?? 0 }
    let end = bs_now_ns()
    bs_consume(Int64(acc))
    return end &- start
  }
}
