import CoreMetrics
import Synchronization

// Test backends that log every call they receive, naming the handler it reached: what the
// differential test compares between the @Delegate multicast and MultiplexMetricsHandler.

/// Every call one side's factories and handlers received, in order.
final class CallLog: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}

/// One handler of every kind a recording factory makes; `name` is `factory.kind#n`.
final class RecordingHandler: CounterHandler, FloatingPointCounterHandler, RecorderHandler,
  MeterHandler, TimerHandler
{
  let factory: String
  let name: String
  let log: CallLog

  init(factory: String, kind: String, number: Int, log: CallLog) {
    self.factory = factory
    self.name = "\(factory).\(kind)#\(number)"
    self.log = log
  }

  func increment(by amount: Int64) { log.append("\(name) increment \(amount)") }
  func increment(by amount: Double) { log.append("\(name) increment \(amount)") }
  func reset() { log.append("\(name) reset") }
  func record(_ value: Int64) { log.append("\(name) record \(value)") }
  func record(_ value: Double) { log.append("\(name) record \(value)") }
  func set(_ value: Int64) { log.append("\(name) set \(value)") }
  func set(_ value: Double) { log.append("\(name) set \(value)") }
  func decrement(by amount: Double) { log.append("\(name) decrement \(amount)") }
  func recordNanoseconds(_ duration: Int64) { log.append("\(name) nanoseconds \(duration)") }
  func preferDisplayUnit(_ unit: TimeUnit) {
    log.append("\(name) unit \(unit.scaleFromNanoseconds)")
  }
}

/// What a factory says about a handler handed to its `destroy…`: `own <name>` for one it
/// made, `<name> of <factory>` for another factory's, else the handler's type (a wrapper).
func describe(_ handler: AnyObject, receivedBy factory: String) -> String {
  guard let recorded = handler as? RecordingHandler else { return "wrapper \(type(of: handler))" }
  return recorded.factory == factory
    ? "own \(recorded.name)" : "\(recorded.name) of \(recorded.factory)"
}

/// Numbers a factory's handlers, from any thread.
final class Numbering: Sendable {
  private let next = Atomic(0)
  func take() -> Int { next.add(1, ordering: .relaxed).newValue }
}

/// Logs a factory's `make…`, and makes the handler.
func made(
  _ factory: String, _ kind: String, _ label: String, _ dimensions: [(String, String)],
  _ numbering: Numbering, _ log: CallLog
) -> RecordingHandler {
  let handler = RecordingHandler(factory: factory, kind: kind, number: numbering.take(), log: log)
  let shown = dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
  log.append("\(factory) make \(kind) \(label) [\(shown)] -> \(handler.name)")
  return handler
}

/// A backend that implements every requirement: a class.
final class RecordingFactory: MetricsFactory {
  let name: String
  let log: CallLog
  private let numbering = Numbering()
  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
    made(name, "counter", label, dimensions, numbering, log)
  }
  func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
    -> FloatingPointCounterHandler
  {
    made(name, "fpcounter", label, dimensions, numbering, log)
  }
  func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler {
    made(name, "meter", label, dimensions, numbering, log)
  }
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> RecorderHandler
  {
    made(name, aggregate ? "recorder" : "gauge", label, dimensions, numbering, log)
  }
  func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
    made(name, "timer", label, dimensions, numbering, log)
  }
  func destroyCounter(_ handler: CounterHandler) { destroyed("counter", handler) }
  func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler) {
    destroyed("fpcounter", handler)
  }
  func destroyMeter(_ handler: MeterHandler) { destroyed("meter", handler) }
  func destroyRecorder(_ handler: RecorderHandler) { destroyed("recorder", handler) }
  func destroyTimer(_ handler: TimerHandler) { destroyed("timer", handler) }

  private func destroyed(_ kind: String, _ handler: AnyObject) {
    log.append("\(name) destroy \(kind) \(describe(handler, receivedBy: name))")
  }
}

/// A backend that is a struct, as swift-metrics allows (`MetricsFactory` is not
/// class-bound): held by value in the multicast.
struct StructRecordingFactory: MetricsFactory {
  let name: String
  let log: CallLog
  let numbering = Numbering()

  func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
    made(name, "counter", label, dimensions, numbering, log)
  }
  func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
    -> FloatingPointCounterHandler
  {
    made(name, "fpcounter", label, dimensions, numbering, log)
  }
  func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler {
    made(name, "meter", label, dimensions, numbering, log)
  }
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> RecorderHandler
  {
    made(name, aggregate ? "recorder" : "gauge", label, dimensions, numbering, log)
  }
  func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
    made(name, "timer", label, dimensions, numbering, log)
  }
  func destroyCounter(_ handler: CounterHandler) { destroyed("counter", handler) }
  func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler) {
    destroyed("fpcounter", handler)
  }
  func destroyMeter(_ handler: MeterHandler) { destroyed("meter", handler) }
  func destroyRecorder(_ handler: RecorderHandler) { destroyed("recorder", handler) }
  func destroyTimer(_ handler: TimerHandler) { destroyed("timer", handler) }

  private func destroyed(_ kind: String, _ handler: AnyObject) {
    log.append("\(name) destroy \(kind) \(describe(handler, receivedBy: name))")
  }
}

/// A backend that implements only what swift-metrics requires: floating-point counters and
/// meters come from swift-metrics' defaults, which wrap its own counter and recorder (and
/// destroy them only when handed their own wrapper back).
final class MinimalRecordingFactory: MetricsFactory {
  let name: String
  let log: CallLog
  private let numbering = Numbering()
  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
    made(name, "counter", label, dimensions, numbering, log)
  }
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> RecorderHandler
  {
    made(name, aggregate ? "recorder" : "gauge", label, dimensions, numbering, log)
  }
  func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
    made(name, "timer", label, dimensions, numbering, log)
  }
  func destroyCounter(_ handler: CounterHandler) {
    log.append("\(name) destroy counter \(describe(handler, receivedBy: name))")
  }
  func destroyRecorder(_ handler: RecorderHandler) {
    log.append("\(name) destroy recorder \(describe(handler, receivedBy: name))")
  }
  func destroyTimer(_ handler: TimerHandler) {
    log.append("\(name) destroy timer \(describe(handler, receivedBy: name))")
  }
}
