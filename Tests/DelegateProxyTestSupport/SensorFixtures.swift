import DelegateProxy
import MessageRuntime

// The sensor fixtures every Swift-protocol suite shares: a delegator, a reading passed by
// value (the C layout DelegateProxyCTestSupport's `dp_test_reading` has), a `@Delegate`
// protocol with required and optional methods, and two listeners that log to a `CallLog`.

/// A delegator, named so that logs can tell sensors apart.
package final class Sensor {
  package let name: String
  package init(name: String = "sensor") { self.name = name }
}

/// A reading, passed by value: `{double celsius; int32_t sensor_id;}` in C.
package struct Reading: Equatable {
  package var celsius: Double
  package var sensorID: Int32
  package init(celsius: Double, sensorID: Int32) {
    self.celsius = celsius
    self.sensorID = sensorID
  }
}

@Delegate(cFace: true)
package protocol SensorDelegate: AnyObject {
  func sensor(_ sensor: Sensor, didRead reading: Reading)
  func sensorShouldStart(_ sensor: Sensor) -> Bool
  @Optional func sensorDidStop(_ sensor: Sensor)
  @Optional func sensorThreshold(_ sensor: Sensor) -> Double
}

/// Records what it receives ("name read 21.5", "name shouldStart"); answers `answer`.
package final class RecordingSensorListener: SensorDelegate, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable; the log is thread-safe.
  package let name: String
  package let answer: Bool
  package let log: CallLog
  package init(_ name: String, answer: Bool = true, log: CallLog) {
    self.name = name
    self.answer = answer
    self.log = log
  }
  package func sensor(_ sensor: Sensor, didRead reading: Reading) {
    log.append("\(name) read \(reading.celsius)")
  }
  package func sensorShouldStart(_ sensor: Sensor) -> Bool {
    log.append("\(name) shouldStart")
    return answer
  }
}

/// Implements the optional methods too.
package final class StoppingSensorListener: SensorDelegate, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable; the log is thread-safe.
  package let log: CallLog
  package let threshold: Double
  package init(log: CallLog, threshold: Double = 30) {
    self.log = log
    self.threshold = threshold
  }
  package func sensor(_ sensor: Sensor, didRead reading: Reading) { log.append("stopper read") }
  package func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
  package func sensorDidStop(_ sensor: Sensor) { log.append("stopper stopped") }
  package func sensorThreshold(_ sensor: Sensor) -> Double { threshold }
}
