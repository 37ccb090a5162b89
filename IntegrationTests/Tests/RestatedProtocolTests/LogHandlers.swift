// Every requirement of Logging's LogHandler, inherited ones included, restated
// for @Delegate by `swift package restate-delegate LogHandler --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Logging

@Delegate(for: LogHandler.self, semantics: .value)
protocol LogHandlers: LogHandler {
  var metadataProvider: Logger.MetadataProvider? { get set }
  func log(event: LogEvent)
  @available(*, deprecated, renamed: "log(event:)")
  func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
      file: String, function: String, line: UInt)
  @available(*, deprecated, renamed: "log(event:)")
  func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, file: String,
      function: String, line: UInt)
  subscript(metadataKey _: String) -> Logger.Metadata.Value? { get set }
  @Default([:])
  var metadata: Logger.Metadata { get set }
  @Default(Logger.Level.trace)
  var logLevel: Logger.Level { get set }
}
