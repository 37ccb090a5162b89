import DelegateProxy
import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import DelegateProxyTesting
import MessageRuntime
import Testing

// The protocol, its delegator and its reading are the shared sensor fixtures
// (DelegateProxyTestSupport); the reading has DelegateProxyCTestSupport's `dp_test_reading`
// layout.

/// A double for a `@Delegate` Swift protocol: its selectors and encodings come from the
/// generated description, its recorded arguments carry the Swift names and types, and C
/// callers (DelegateProxyCTestSupport's, which cast an IMP to the method's C type) reach it.
@Suite struct SwiftProtocolDoubleTests {
  @Test func knowsTheProtocolsMethodsAndRespondsAsTold() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, responding: .required)
    #expect(double.name == "SensorDelegate")
    #expect(
      double.knownMethods.map(\.description) == [
        "sensor(_:didRead:) [sensor:didRead:]",
        "sensorShouldStart(_:) [sensorShouldStart:]",
        "sensorDidStop(_:) [sensorDidStop:]",
        "sensorThreshold(_:) [sensorThreshold:]",
      ])
    #expect(double.responds(to: \.sensorShouldStart))
    #expect(!double.responds(to: \.sensorDidStop))
    #expect(double.knownMethod(\.sensorDidRead).selector == "sensor:didRead:")
    double.setResponds(true, to: \.sensorDidStop)
    #expect(double.responds(to: "sensorDidStop:"))
    let chosen = try SwiftDelegateDouble(
      SensorDelegateMulticast.self, respondingTo: [\.sensorDidRead, \.sensorThreshold])
    #expect(chosen.responds(to: \.sensorDidRead) && chosen.responds(to: \.sensorThreshold))
    #expect(!chosen.responds(to: \.sensorShouldStart) && !chosen.responds(to: \.sensorDidStop))
  }

  /// C callers reach a typed double too: stubs that only return values answer them; their
  /// class instance arguments are addresses, so such calls are read with the selector API.
  @Test func aCCallerReachesAStrictDoubleWithSwiftNamedArguments() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, mode: .strict)
    double.stub(\.sensorShouldStart, .returning(true))
    double.stub(\.sensorDidRead)
    let probe = Sensor()
    let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(probe).toOpaque())
    let shouldStart = Selector("sensorShouldStart:")
    let didRead = Selector("sensor:didRead:")

    // The C delegator: asks, then reports a reading by value.
    if dp_test_c_sensor_should_start(
      try double.imp(for: shouldStart).rawValue, double.rawValue, shouldStart.rawValue, address)
    {
      dp_test_c_sensor_did_read(
        try double.imp(for: didRead).rawValue, double.rawValue, didRead.rawValue, address,
        dp_test_reading(celsius: 21.5, sensor_id: 3))
    }

    double.verify(\.sensorDidRead, called: .once)
    double.verify(
      didRead, called: .once, with: [.any, .matching("21.5 °C") { $0.text.hasPrefix("{21.5,") }])
    let call = try #require(double.calls(to: didRead).first)
    #expect(call.arguments.map(\.name) == ["sensor", "reading"])
    #expect(call.arguments.map(\.swiftType) == ["Sensor", "Reading"])
    #expect(call.arguments[0].pointer == UnsafeRawPointer(address))
    #expect(call.arguments[1].text == "{21.5, 3}")
    // Swift values where the type is known, checked against the parameter's type.
    #expect(
      try call.swiftArgument(1, as: Reading.self) == Reading(celsius: 21.5, sensorID: 3))
    #expect(call.arguments[1].swiftValue(as: Double.self) == nil)
    #expect(call.arguments[0].swiftValue(as: Sensor.self) == nil)  // an unretained address
    #expect(throws: DoubleError.self) { try call.swiftArgument(1, as: Int.self) }
    double.verify(
      didRead, called: .once, with: [.any, .swiftValue(Reading(celsius: 21.5, sensorID: 3))])
    double.verifyNever(
      didRead, with: [.any, .swiftValue(Reading(celsius: 21.5, sensorID: 4))])
    #expect(call.description.hasSuffix(", reading: {21.5, 3})"))
    // Typed, the C caller's call cannot be read: its Sensor is only an address.
    let found = failures { _ = double.calls(to: \.sensorDidRead) }
    #expect(found.count == 1)
    #expect(
      found.first?.message.hasPrefix(
        "1 call of sensor(_:didRead:) on DelegateDouble <SensorDelegate> (strict) cannot be read as (Sensor, Reading): an object a C caller passed is only an address or handle"
      ) == true)
  }
}

/// A Swift delegator of a `@Delegate` protocol: its ordinary weak slot, called as Swift.
final class SensorSampler {
  weak var delegate: (any SensorDelegate)?
  let probe = Sensor()

  func sample(_ celsius: Double) {
    guard delegate?.sensorShouldStart(probe) ?? false else { return }
    delegate?.sensor(probe, didRead: Reading(celsius: celsius, sensorID: 9))
    delegate?.sensorDidStop(probe)
  }
}

/// Swift delegators reach a double through the protocol's generated stand-in.
@Suite struct SwiftDelegatorDoubleTests {
  @Test func aSwiftDelegatorReachesAStrictDouble() throws {
    let double = try SwiftDelegateDouble(
      SensorDelegateMulticast.self, responding: .required, mode: .strict)
    double.stub(\.sensorShouldStart, .returning(true))
    double.stub(\.sensorDidRead)
    let sampler = SensorSampler()
    sampler.delegate = double.delegate

    sampler.sample(36.6)

    double.verify(\.sensorShouldStart, called: .once) { sensor in sensor === sampler.probe }
    double.verify(\.sensorDidRead, called: .once) { _, reading in reading.celsius == 36.6 }
    double.verifyNever(\.sensorDidStop)  // optional, and the double does not respond to it
    #expect(double.calls.map(\.selector.name) == ["sensorShouldStart:", "sensor:didRead:"])
    #expect(double.delegate === sampler.delegate)
  }

  @Test func theStandInAnswersWhatTheDoubleIsStubbedWith() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    let delegate = double.delegate
    #expect(delegate.sensorShouldStart(Sensor()) == false)  // nice: zero
    double.stub(\.sensorShouldStart, .returning(true))
    #expect(delegate.sensorShouldStart(Sensor()) == true)
    double.verify(\.sensorShouldStart, called: .twice)
  }

  @Test func aFailingVerificationOfASwiftDelegatorNamesTheSwiftArguments() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    double.stub(\.sensorShouldStart, .returning(true))
    let sampler = SensorSampler()
    sampler.delegate = double.delegate
    sampler.sample(20)
    let line = #line + 1
    let found = failures { double.verify(\.sensorDidRead, called: .twice) }
    let failure = try #require(found.first)
    #expect(found.count == 1)
    #expect(failure.line == line)
    #expect(
      failure.message == """
        Expected sensor(_:didRead:) to be called exactly twice on DelegateDouble <SensorDelegate> (nice), but it was called once:
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 20.0, sensorID: 9))
        """)
  }
}

/// A double joins a Swift multicast through its stand-in, beside plain Swift delegates:
/// Swift calls on the multicast and C calls through the multicast's IMPs reach it.
@Suite struct MulticastMemberDoubleTests {
  final class Listener: SensorDelegate, @unchecked Sendable {
    // @unchecked Sendable: `readings` is written by the test's own thread only.
    var readings: [Double] = []
    func sensor(_ sensor: Sensor, didRead reading: Reading) { readings.append(reading.celsius) }
    func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
  }

  @Test func swiftAndCCallsOfTheMulticastReachTheDouble() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, responding: .required)
    let listener = Listener()
    let multicast = SensorDelegateMulticast()
    multicast.add(listener)
    multicast.add(double.delegate)
    let probe = Sensor()

    multicast.sensor(probe, didRead: Reading(celsius: 1.5, sensorID: 1))  // Swift
    let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(probe).toOpaque())
    dp_test_c_sensor_did_read(  // C, through the multicast's C face
      try multicast.runtime.imp(for: \.sensorDidRead).rawValue, try multicast.runtime.rawValue(),
      multicast.runtime.selector(for: \.sensorDidRead).rawValue, address,
      dp_test_reading(celsius: 2.5, sensor_id: 2))

    #expect(listener.readings == [1.5, 2.5])
    // The multicast calls the stand-in in Swift either way: the double sees the sensor.
    let calls = double.calls(to: \.sensorDidRead)
    #expect(calls.map(\.1) == [Reading(celsius: 1.5, sensorID: 1), Reading(celsius: 2.5, sensorID: 2)])
    #expect(calls.allSatisfy { sensor, _ in sensor === probe })
  }

  final class Scorer: ScoreDelegate {
    func score(_ item: Int) -> Int { item * 10 }
  }

  /// Under the last-responder rule a stand-in whose double does not respond to an optional
  /// method is no responder: the plain delegate before it answers, not the stand-in's zero.
  /// Two stand-ins of one class are told apart (one double responds, the other not).
  @Test func aStandInImplementsOnlyTheOptionalMethodsItsDoubleAnswers() throws {
    let silent = try SwiftDelegateDouble(ScoreDelegateMulticast.self, responding: .required)
    let answering = try SwiftDelegateDouble(ScoreDelegateMulticast.self, responding: .all)
    answering.stub(\.score, .returning(7))
    let scorer = Scorer()
    let silentStandIn = silent.delegate
    let answeringStandIn = answering.delegate

    let multicast = ScoreDelegateMulticast()
    multicast.add(scorer)
    multicast.add(silentStandIn)
    #expect(multicast.score(4) == 40)  // the first call learns the stand-in lacks it
    #expect(multicast.score(5) == 50)
    #expect(!multicast.responds(silentStandIn, to: \.score))
    #expect(multicast.responders(for: \.score).count == 1)
    silent.verifyNever(\.score)

    multicast.add(answeringStandIn)
    #expect(multicast.responds(answeringStandIn, to: \.score))
    #expect(multicast.score(6) == 7)  // the answering double is now the last responder
    answering.verify(\.score, called: .once) { item in item == 6 }
  }
}

@Delegate(cFace: true)
protocol ScoreDelegate: AnyObject {
  @Optional func score(_ item: Int) -> Int
}
