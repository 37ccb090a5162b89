// swift-log rows: one log line at an enabled level, with two metadata values, through a
// `Logger` whose handler fans out to N struct handlers — swift-log's own hand-written
// `MultiplexLogHandler` (swift_log_multiplex) against a `@Delegate(for: LogHandler.self)`
// value multicast set up as a user would (swift_log_multicast): the most verbose of the
// handlers' levels (remembered from one change to the next), a line only to the handlers
// whose own level admits it (swift-log PR #140), metadata merged with later handlers winning — as in
// IntegrationTests/Tests/SwiftLogIntegrationTests. Two handler types that do the same work
// are mixed (one alone lets the optimizer devirtualize the call); each adds what it read
// from the line to a sink through a pointer, so the call cannot be optimized away and
// allocates nothing. The metadata dictionary is made once, outside the timed loop: the
// rows' allocations are the multiplexers' own.

import BenchmarkSupport
import DelegateProxy
import Logging

/// swift-log's `LogHandler`, restated for `@Delegate`: the generated multicast is a struct
/// (the protocol is not class-bound) holding struct handlers by value.
@Delegate(for: LogHandler.self, semantics: .value)
protocol BenchLogSinks: LogHandler {
  func log(event: LogEvent)
  subscript(metadataKey _: String) -> Logger.Metadata.Value? { get set }
  @Default([:]) var metadata: Logger.Metadata { get set }
  @Default(Logger.Level.info) var logLevel: Logger.Level { get set }
  var metadataProvider: Logger.MetadataProvider? { get set }
}

extension BenchLogSinksMulticast {
  /// The rules `MultiplexLogHandler` means to follow, as policies — the same set-up as the
  /// integration tests' `LogSinksMulticast.multiplexing`.
  static func multiplexing(_ handlers: [any LogHandler]) -> BenchLogSinksMulticast {
    var sinks = BenchLogSinksMulticast()
    for handler in handlers { sinks.add(handler) }
    sinks.setPolicy(.reduce(.min), for: \.logLevel)
    // `Logger` reads the level before every line: kept until a handler or the list changes
    // (as `MultiplexLogHandler` stores it) — and, as `MultiplexLogHandler` keeps it, across
    // metadata writes, which never change a handler's level (swift-log's per-request
    // `logger[metadataKey:] = …`).
    sinks.remember(\.logLevel)
    sinks.remember(\.logLevel, across: \.setSubscriptMetadataKey)
    sinks.remember(\.logLevel, across: \.setMetadata)
    sinks.setPolicy(
      .reduce(.collect { $0.reduce(into: [:]) { $0.merge($1) { _, later in later } } }),
      for: \.metadata)
    sinks.setPolicy(.reduce(.collect { $0.last { $0 != nil } ?? nil }), for: \.subscriptMetadataKey)
    sinks.setFilter(for: \.logEvent) { handler, event in handler.logLevel <= event.level }
    return sinks
  }
}

/// What both handler types store: a level, metadata and a provider, as swift-log's own
/// handlers do (five words: the existential holds it in a box, as it holds theirs).
struct BenchLogHandlerA: LogHandler {
  let sink: LogSink
  var logLevel: Logger.Level
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) { sink.pointer.pointee &+= BenchLogWork.weigh(event) }
}

/// The same work as ``BenchLogHandlerA``, counted twice.
struct BenchLogHandlerB: LogHandler {
  let sink: LogSink
  var logLevel: Logger.Level
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) { sink.pointer.pointee &+= BenchLogWork.weigh(event) &* 2 }
}

/// The handlers' work: what a handler reads from a line, without formatting it.
enum BenchLogWork {
  /// 1, plus the UTF-8 length of each metadata key.
  @inline(never)
  static func weigh(_ event: LogEvent) -> Int {
    var weight = 1
    if let metadata = event.metadata {
      for key in metadata.keys { weight &+= key.utf8.count }
    }
    return weight
  }
}

/// The swift-log rows.
public enum SwiftLogRowKind: String, CaseIterable, Sendable {
  /// swift-log's `MultiplexLogHandler` over the handlers.
  case multiplex = "swift_log_multiplex"
  /// A `BenchLogSinksMulticast` (a value multicast) over the same handlers.
  case multicast = "swift_log_multicast"
}

/// Where the handlers write (a `LogHandler` is `Sendable`; a pointer is not).
struct LogSink: @unchecked Sendable {
  // @unchecked Sendable: the benchmark harness runs one row at a time on one thread, so
  // the pointee is written by one thread at a time.
  let pointer: UnsafeMutablePointer<Int>
}

/// Sink for the handlers' writes (read back only by the checks).
private let logSink: LogSink = {
  let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  p.initialize(to: 0)
  return LogSink(pointer: p)
}()

/// Keeps a row's logger with the workload (the workload keeps objects).
final class LoggerBox {
  let logger: Logger
  init(_ logger: Logger) { self.logger = logger }
}

/// The timed loop.
enum SwiftLogRows {
  /// What the rows measure, in place of an encoding.
  static let encoding = "log(event:) (swift-log, struct handlers)"

  @inline(never)
  static func log(_ logger: Logger, _ metadata: Logger.Metadata, _ n: Int) -> UInt64 {
    let start = bs_now_ns()
    for _ in 0..<n { logger.info("request served", metadata: metadata) }
    return bs_now_ns() &- start
  }
}

extension Workload {
  /// The swift-log row `kind` at `fanout` struct handlers.
  public static func swiftLog(_ kind: SwiftLogRowKind, fanout: Int) -> Workload {
    // Levels alternate: every handler admits an `info` line, the multiplexers' level is
    // the most verbose one.
    let handlers: [any LogHandler] = (0..<fanout).map { i in
      i % 2 == 0
        ? BenchLogHandlerA(sink: logSink, logLevel: .info) as any LogHandler
        : BenchLogHandlerB(sink: logSink, logLevel: .debug)
    }
    let metadata: Logger.Metadata = ["request": "42", "user": "alice"]
    let weight = 1 + "request".utf8.count + "user".utf8.count
    // What one line adds to the sink: every handler's share.
    let expected = (0..<fanout).reduce(0) { sum, i in sum + (i % 2 == 0 ? weight : 2 * weight) }
    let logger: Logger
    switch kind {
    case .multiplex:
      logger = Logger(label: "bench") { _ in MultiplexLogHandler(handlers) }
    case .multicast:
      logger = Logger(label: "bench") { _ in BenchLogSinksMulticast.multiplexing(handlers) }
    }
    let box = LoggerBox(logger)
    let check: () -> String? = {
      let before = logSink.pointer.pointee
      box.logger.info("request served", metadata: metadata)
      box.logger.debug("hidden", metadata: metadata)
      let added = logSink.pointer.pointee &- before
      // Below the most verbose level nothing is logged; at `debug` only the `debug`
      // handlers get the line.
      let debugShare = (0..<fanout).reduce(0) { sum, i in sum + (i % 2 == 0 ? 0 : 2 * weight) }
      return added == expected + debugShare
        ? nil
        : "\(kind.rawValue): an info and a debug line added \(added) to the sink, expected \(expected + debugShare)"
    }
    return Workload(
      name: kind.rawValue, signature: .qd, fanout: fanout, responders: fanout,
      path: kind == .multicast
        ? "swift-log-delegate-value-multicast" : "swift-log-multiplexloghandler",
      keepAlive: [box], check: check, encoding: SwiftLogRows.encoding,
      run: { n in SwiftLogRows.log(box.logger, metadata, n) })
  }
}
