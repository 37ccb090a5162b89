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

protocol SensorDelegate: AnyObject {
  func sensor(_ sensor: Sensor, didRead reading: Reading)
  func sensorShouldStart(_ sensor: Sensor) -> Bool
  func sensorDidStop(_ sensor: Sensor)
  func sensorThreshold(_ sensor: Sensor) -> Double
}

extension SensorDelegate {
  func sensorDidStop(_ sensor: Sensor) {
    DelegateOptional.notImplemented(by: self, selector: "sensorDidStop:")
  }
  func sensorThreshold(_ sensor: Sensor) -> Double {
    DelegateOptional.notImplemented(by: self, selector: "sensorThreshold:", returning: Double.self)
  }
}

final class SensorDelegateMulticast: DelegateMulticast<any SensorDelegate, SensorDelegateMulticast.Messages>,
  SensorDelegate, @unchecked Sendable
{
  override class var delegateProtocol: DelegateProtocol<any SensorDelegate> { _delegateProtocol }
  private static let _delegateProtocol = DelegateProtocol<any SensorDelegate>(
    name: "SensorDelegate",
    methods: [
      DelegateMethodDescription(
        selector: "sensor:didRead:", swiftName: "sensor(_:didRead:)", isRequired: true,
        parameters: [DelegateParameter("sensor", Sensor.self), DelegateParameter("reading", Reading.self)],
        result: DelegateValueType(Void.self)),
      DelegateMethodDescription(
        selector: "sensorShouldStart:", swiftName: "sensorShouldStart(_:)", isRequired: true,
        parameters: [DelegateParameter("sensor", Sensor.self)], result: DelegateValueType(Bool.self)),
      DelegateMethodDescription(
        selector: "sensorDidStop:", swiftName: "sensorDidStop(_:)", isRequired: false,
        parameters: [DelegateParameter("sensor", Sensor.self)], result: DelegateValueType(Void.self)),
      DelegateMethodDescription(
        selector: "sensorThreshold:", swiftName: "sensorThreshold(_:)", isRequired: false,
        parameters: [DelegateParameter("sensor", Sensor.self)], result: DelegateValueType(Double.self)),
    ])
  struct Messages: DelegateMessages {
    init() {}
    var sensorDidRead: DelegateMessage<any SensorDelegate, (Sensor, Reading), Void> {
      DelegateMessage(index: 0) { d, a in d.sensor(a.0, didRead: a.1) }
    }
    var sensorShouldStart: DelegateMessage<any SensorDelegate, Sensor, Bool> {
      DelegateMessage(index: 1) { d, a in d.sensorShouldStart(a) }
    }
    var sensorDidStop: DelegateMessage<any SensorDelegate, Sensor, Void> {
      DelegateMessage(index: 2) { d, a in d.sensorDidStop(a) }
    }
    var sensorThreshold: DelegateMessage<any SensorDelegate, Sensor, Double> {
      DelegateMessage(index: 3) { d, a in d.sensorThreshold(a) }
    }
  }
  func sensor(_ sensor: Sensor, didRead reading: Reading) {
    send(0, (sensor, reading)) { d, a in d.sensor(a.0, didRead: a.1) }
  }
  func sensorShouldStart(_ sensor: Sensor) -> Bool {
    send(1, sensor) { d, a in d.sensorShouldStart(a) }
  }
  func sensorDidStop(_ sensor: Sensor) {
    send(2, sensor) { d, a in d.sensorDidStop(a) }
  }
  func sensorThreshold(_ sensor: Sensor) -> Double {
    send(3, sensor) { d, a in d.sensorThreshold(a) }
  }
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
  func sensor(_ sensor: Sensor, didRead reading: Reading) { log.append("\(name) read \(reading.celsius)") }
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
