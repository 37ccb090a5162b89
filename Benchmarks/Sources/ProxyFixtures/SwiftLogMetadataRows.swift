// swift-log's per-request pattern (issue #33, item 4): a copy of a shared `Logger`, one
// metadata value set on the copy, one line logged through it —
//
//     var l = logger; l[metadataKey: "request-id"] = "\(i)"; l.info("handled")
//
// — through swift-log's `MultiplexLogHandler` (swift_log_metadata_multiplex) and through a
// `@Delegate(for: LogHandler.self, semantics: .value)` multicast set up as the swift_log rows
// set it up (swift_log_metadata_multicast). The copy shares its handlers with `logger` until
// the write: the multiplexer copies its array and each handler; the multicast copies its
// engine and stores each handler's new metadata. The `_contended` rows do the same while two
// other threads log through `logger` itself (started and stopped around each timed loop,
// which is all the rows time). The handlers discard the line: they count it (an atomic add,
// since other threads log through the same handlers).

import BenchmarkSupport
import DelegateProxy
import Foundation
import Logging
import Synchronization

/// The swift-log per-request rows.
public enum SwiftLogMetadataRowKind: String, CaseIterable, Sendable {
  /// swift-log's `MultiplexLogHandler`, single-threaded.
  case multiplex = "swift_log_metadata_multiplex"
  /// A `BenchLogSinksMulticast` value multicast, single-threaded.
  case multicast = "swift_log_metadata_multicast"
  /// `multiplex` while two other threads log through the shared logger.
  case multiplexContended = "swift_log_metadata_multiplex_contended"
  /// `multicast` while two other threads log through the shared logger.
  case multicastContended = "swift_log_metadata_multicast_contended"

  /// Whether the row's handlers are a value multicast (else `MultiplexLogHandler`).
  public var isMulticast: Bool { self == .multicast || self == .multicastContended }
  /// Whether two other threads log while the row is timed.
  public var isContended: Bool { self == .multiplexContended || self == .multicastContended }
}

/// What the handlers count: lines, from any thread.
final class LineCounter: Sendable {
  let lines = Atomic<Int>(0)
}

/// A handler that counts each line it is given and keeps its metadata, as swift-log's own
/// handlers do (five words: the existential holds it in a box).
struct BenchMetadataHandlerA: LogHandler {
  let counter: LineCounter
  var logLevel: Logger.Level
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) { counter.lines.wrappingAdd(1, ordering: .relaxed) }
}

/// ``BenchMetadataHandlerA``'s work, counted twice (two types: one alone lets the optimizer
/// devirtualize the call).
struct BenchMetadataHandlerB: LogHandler {
  let counter: LineCounter
  var logLevel: Logger.Level
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) { counter.lines.wrappingAdd(2, ordering: .relaxed) }
}

/// Two threads logging through one logger until stopped.
final class BackgroundLoggers: Sendable {
  private let stop = Atomic<Bool>(false)
  private let running = Atomic<Int>(0)
  private let finished = Atomic<Int>(0)
  let count = 2

  /// Starts the threads and returns once each has logged a line.
  init(_ logger: Logger) {
    for _ in 0..<count {
      Thread.detachNewThread { [self] in
        var first = true
        while !stop.load(ordering: .relaxed) {
          logger.info("background")
          if first {
            running.wrappingAdd(1, ordering: .releasing)
            first = false
          }
        }
        finished.wrappingAdd(1, ordering: .releasing)
      }
    }
    while running.load(ordering: .acquiring) < count { sched_yield() }
  }

  /// Stops the threads and waits until they have left their loops.
  func finish() {
    stop.store(true, ordering: .relaxed)
    while finished.load(ordering: .acquiring) < count { sched_yield() }
  }
}

/// The timed loop.
enum SwiftLogMetadataRows {
  /// What the rows measure, in place of an encoding.
  static let encoding = "var l = logger; l[metadataKey:] = …; l.info (swift-log)"

  @inline(never)
  static func requests(_ logger: Logger, _ n: Int) -> UInt64 {
    let start = bs_now_ns()
    for i in 0..<n {
      var l = logger
      l[metadataKey: "request-id"] = "\(i)"
      l.info("handled")
    }
    return bs_now_ns() &- start
  }
}

extension Workload {
  /// The swift-log per-request row `kind` at `fanout` struct handlers.
  public static func swiftLogMetadata(_ kind: SwiftLogMetadataRowKind, fanout: Int) -> Workload {
    let counter = LineCounter()
    let handlers: [any LogHandler] = (0..<fanout).map { i in
      i % 2 == 0
        ? BenchMetadataHandlerA(counter: counter, logLevel: .info) as any LogHandler
        : BenchMetadataHandlerB(counter: counter, logLevel: .debug)
    }
    // What one line adds: every handler's share.
    let expected = (0..<fanout).reduce(0) { sum, i in sum + (i % 2 == 0 ? 1 : 2) }
    let logger =
      kind.isMulticast
      ? Logger(label: "bench") { _ in BenchLogSinksMulticast.multiplexing(handlers) }
      : Logger(label: "bench") { _ in MultiplexLogHandler(handlers) }
    let box = LoggerBox(logger)
    let check: () -> String? = {
      let before = counter.lines.load(ordering: .relaxed)
      var l = box.logger
      l[metadataKey: "request-id"] = "7"
      l.info("handled")
      let added = counter.lines.load(ordering: .relaxed) &- before
      guard added == expected else {
        return "\(kind.rawValue): a line added \(added) to the count, expected \(expected)"
      }
      // The copy has the value; the shared logger does not.
      guard l[metadataKey: "request-id"] == "7", box.logger[metadataKey: "request-id"] == nil
      else { return "\(kind.rawValue): the metadata write did not stay in the copy" }
      return nil
    }
    return Workload(
      name: kind.rawValue, signature: .qd, fanout: fanout, responders: fanout,
      path: kind.isMulticast
        ? "swift-log-delegate-value-multicast" : "swift-log-multiplexloghandler",
      keepAlive: [box], check: check, encoding: SwiftLogMetadataRows.encoding,
      run: { n in
        guard kind.isContended else { return SwiftLogMetadataRows.requests(box.logger, n) }
        let background = BackgroundLoggers(box.logger)
        defer { background.finish() }
        return SwiftLogMetadataRows.requests(box.logger, n)
      })
  }
}
