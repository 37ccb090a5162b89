import DelegateProxy
import MessageRuntime

final class Sensor {
  let name: String
  init(name: String) { self.name = name }
}

struct Reading: Equatable {
  var celsius: Double
  var sensorID: Int32
}

@Delegate
protocol SensorDelegate: AnyObject {
  func sensor(_ sensor: Sensor, didRead reading: Reading)
  func sensorShouldStart(_ sensor: Sensor) -> Bool
  @Optional func sensorDidStop(_ sensor: Sensor)
  @Optional func sensorThreshold(_ sensor: Sensor) -> Double
}

/// Records what it receives.
final class RecordingSensorListener: SensorDelegate, @unchecked Sendable {
  let name: String
  let answer: Bool
  let log: SensorLog
  init(_ name: String, answer: Bool = true, log: SensorLog) {
    self.name = name
    self.answer = answer
    self.log = log
  }
  func sensor(_ sensor: Sensor, didRead reading: Reading) {
    log.append("\(name) read \(reading.celsius)")
  }
  func sensorShouldStart(_ sensor: Sensor) -> Bool {
    log.append("\(name) shouldStart")
    return answer
  }
}

/// Implements the optional methods too.
final class StoppingSensorListener: SensorDelegate, @unchecked Sendable {
  let log: SensorLog
  let threshold: Double
  init(log: SensorLog, threshold: Double = 30) {
    self.log = log
    self.threshold = threshold
  }
  func sensor(_ sensor: Sensor, didRead reading: Reading) { log.append("stopper read") }
  func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
  func sensorDidStop(_ sensor: Sensor) { log.append("stopper stopped") }
  func sensorThreshold(_ sensor: Sensor) -> Double { threshold }
}

final class SensorLog: @unchecked Sendable {
  private let lock = Lock<[String]>([])
  func append(_ s: String) { lock.withLock { $0.append(s) } }
  var entries: [String] { lock.withLock { $0 } }
}
