import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Testing

// Inheritance across a module boundary (DelegateProxyTestSupport's `package`
// SensorDelegate), on the main actor, and through a shared grandparent.

/// Refines a `@Delegate` protocol declared in another module.
@Delegate
protocol CalibratedSensorDelegate: SensorDelegate {
  func sensorDidCalibrate(_ sensor: Sensor)
}

final class CalibrationLog: CalibratedSensorDelegate, @unchecked Sendable {
  // @unchecked Sendable: the log is thread-safe.
  let log: CallLog
  let answer: Bool
  init(log: CallLog, answer: Bool) {
    self.log = log
    self.answer = answer
  }
  func sensor(_ sensor: Sensor, didRead reading: Reading) { log.append("read \(reading.celsius)") }
  func sensorShouldStart(_ sensor: Sensor) -> Bool { answer }
  func sensorThreshold(_ sensor: Sensor) -> Double { 40 }
  func sensorDidCalibrate(_ sensor: Sensor) { log.append("calibrated") }
}

@MainActor
@Delegate
protocol PanelEvents: AnyObject {
  func panelDidOpen(_ name: String)
  func panelShouldClose(_ name: String) -> Bool
  func panelWillClose(_ name: String) async -> Int
}

@MainActor
@Delegate
protocol InspectorEvents: PanelEvents {
  func inspector(didSelect row: Int)
}

@MainActor
final class InspectorLog: InspectorEvents {
  var heard: [String] = []
  func panelDidOpen(_ name: String) { heard.append("open \(name)") }
  func panelShouldClose(_ name: String) -> Bool { true }
  func panelWillClose(_ name: String) async -> Int {
    heard.append("closing \(name)")
    return 1
  }
  func inspector(didSelect row: Int) { heard.append("row \(row)") }
}

/// A shared grandparent: both parents refine `PanelBase`; the child names it too, so that
/// its multicast forwards `PanelBase`'s methods itself.
@Delegate
protocol PanelBase: AnyObject {
  func baseDidLoad(_ id: Int)
}

@Delegate
protocol LeftPanelEvents: PanelBase {
  func leftDidOpen(_ id: Int)
}

@Delegate
protocol RightPanelEvents: PanelBase {
  func rightDidOpen(_ id: Int)
}

@Delegate
protocol SplitPanelEvents: LeftPanelEvents, RightPanelEvents, PanelBase {}

final class SplitLog: SplitPanelEvents, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock.
  let heard = Lock<[String]>([])
  func baseDidLoad(_ id: Int) { heard.withLock { $0.append("load \(id)") } }
  func leftDidOpen(_ id: Int) { heard.withLock { $0.append("left \(id)") } }
  func rightDidOpen(_ id: Int) { heard.withLock { $0.append("right \(id)") } }
}

@Suite("Inherited forwarding: modules, main actor, shared grandparents")
struct InheritedForwardingEdgeTests {
  @Test func aParentFromAnotherModuleIsInherited() throws {
    let log = CallLog()
    let yes = CalibrationLog(log: log, answer: true)
    let no = CalibrationLog(log: log, answer: false)
    let calibrated = CalibratedSensorDelegateMulticast()
    calibrated.add(yes)
    calibrated.add(no)
    calibrated.setPolicy(.reduce(.anyTrue), for: \.sensorShouldStart)
    let sensor = Sensor()
    let parent: any SensorDelegate = calibrated
    #expect(parent.sensorShouldStart(sensor))
    parent.sensor(sensor, didRead: Reading(celsius: 20, sensorID: 1))
    #expect(parent.sensorThreshold(sensor) == 40)
    calibrated.sensorDidCalibrate(sensor)
    #expect(log.entries == ["read 20.0", "read 20.0", "calibrated", "calibrated"])
  }

  @MainActor
  @Test func aMainActorHierarchyInherits() async throws {
    let log = InspectorLog()
    let inspector = InspectorEventsMulticast()
    inspector.add(log)
    let panel: any PanelEvents = inspector
    panel.panelDidOpen("p")
    #expect(panel.panelShouldClose("p"))
    #expect(await panel.panelWillClose("p") == 1)
    inspector.inspector(didSelect: 2)
    #expect(log.heard == ["open p", "closing p", "row 2"])
  }

  @Test func aSharedGrandparentNamedByTheChildIsForwardedOnce() throws {
    let log = SplitLog()
    let split = SplitPanelEventsMulticast()
    split.add(log)
    split.baseDidLoad(1)
    split.leftDidOpen(2)
    split.rightDidOpen(3)
    (split as any LeftPanelEvents).baseDidLoad(4)
    #expect(log.heard.withLock { $0 } == ["load 1", "left 2", "right 3", "load 4"])
    #expect(
      SplitPanelEventsMulticast.delegateProtocol.methods.map(\.swiftName) == [
        "leftDidOpen(_:)", "baseDidLoad(_:)", "rightDidOpen(_:)",
      ])
    #expect(split.responds(to: \.baseDidLoad))
  }
}
