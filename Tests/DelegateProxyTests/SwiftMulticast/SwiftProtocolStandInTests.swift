import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Testing

/// The generated stand-in: a Swift delegator's `weak var delegate` holding a runtime
/// object, each call a message with the arguments in their C form.
@Suite("Swift protocols: stand-ins for runtime objects") struct SwiftProtocolStandInTests {
  let didRead: Selector = "sensor:didRead:"
  let shouldStart: Selector = "sensorShouldStart:"

  /// A runtime object implementing `sensor:didRead:` and `sensorShouldStart:` with the
  /// protocol's own signatures, logging what arrives.
  func handler(_ name: String, answer: Bool, log: CallLog) throws -> RuntimeObject {
    let proto = try SensorDelegateMulticast.delegateProtocol.runtimeProtocol()
    let h = RuntimeObject()
    try h.setMethod(didRead, signature: proto.requirement(for: didRead)!.signature) { invocation in
      let celsius = (try? invocation.argumentBytes(at: 1)).map { bytes in
        bytes.withUnsafeBytes { $0.loadUnaligned(as: Double.self) }
      }
      let id = (try? invocation.argumentBytes(at: 1)).map { bytes in
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: Int32.self) }
      }
      log.append("\(name) read \(celsius ?? -1) from #\(id ?? -1)")
    }
    try h.setMethod(shouldStart, signature: proto.requirement(for: shouldStart)!.signature) {
      invocation in
      log.append("\(name) shouldStart")
      try? invocation.setReturnValue(answer)
    }
    return h
  }

  @Test func callsBecomeMessagesWithTheArgumentsInTheirCForm() throws {
    let log = CallLog()
    let target = try handler("a", answer: true, log: log)
    let standIn = SensorDelegateMulticast.standIn(for: target)
    let sensor = Sensor(name: "s")
    #expect(standIn.sensorShouldStart(sensor))
    standIn.sensor(sensor, didRead: Reading(celsius: 21.5, sensorID: 4))
    #expect(log.entries == ["a shouldStart", "a read 21.5 from #4"])
  }

  @Test func aMethodTheTargetLacksOrAGoneTargetAnswersZero() throws {
    let log = CallLog()
    var target: RuntimeObject? = try handler("a", answer: true, log: log)
    let standIn = SensorDelegateMulticast.standIn(for: target!)
    let sensor = Sensor(name: "s")
    #expect(standIn.sensorThreshold(sensor) == 0)  // optional, not implemented
    standIn.sensorDidStop(sensor)
    target = nil
    #expect(standIn.sensorShouldStart(sensor) == false)  // held weakly: gone
    #expect(log.entries.isEmpty)
  }

  @Test func aStandInForAMulticastProxyReachesEveryMemberUnderItsPolicy() throws {
    let log = CallLog()
    let a = try handler("a", answer: true, log: log)
    let b = try handler("b", answer: false, log: log)
    let proxy = try MulticastProxy(delegates: [a, b], policy: .reduce(.allTrue))
    let standIn = SensorDelegateMulticast.standIn(for: proxy)
    #expect(standIn.sensorShouldStart(Sensor(name: "s")) == false)
    standIn.sensor(Sensor(name: "s"), didRead: Reading(celsius: -3, sensorID: 1))
    #expect(
      log.entries == [
        "a shouldStart", "b shouldStart", "a read -3.0 from #1", "b read -3.0 from #1",
      ])
  }
}
