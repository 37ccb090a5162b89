import DelegateProxy
import Logging
import Synchronization
import Testing

// LogHandlers.swift is `swift package restate-delegate LogHandler --target
// RestatedProtocolTests`'s output, unedited: a value multicast (LogHandler is not
// class-bound) that forwards every requirement, metadataProvider included (swift-log #253).

/// Where a handler's lines go.
final class LineSink: Sendable {
  let lines = Mutex<[String]>([])
}

/// A struct handler, as swift-log's are.
struct RecordingHandler: LogHandler {
  let name: String
  let sink: LineSink
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace
  var metadataProvider: Logger.MetadataProvider?

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    sink.lines.withLock { $0.append("\(name): \(event.level) \(event.message)") }
  }
}

@Suite("LogHandler restated by the command")
struct SwiftLogRestatementTests {
  @Test("A Logger over the multicast reaches both handlers")
  func logger() {
    let sink = LineSink()
    var handlers = LogHandlersMulticast()
    handlers.add(RecordingHandler(name: "console", sink: sink))
    handlers.add(RecordingHandler(name: "file", sink: sink))
    let logger = Logger(label: "restated") { _ in handlers }
    logger.info("paid")
    #expect(sink.lines.withLock { $0 } == ["console: info paid", "file: info paid"])
  }
}
