import DelegateProxy
import DelegateProxyCTestSupport
import MessageRuntime
import Testing

/// Records every C call it receives, with the values as Swift sees them.
final class CFaceListener: SensorDelegate, @unchecked Sendable {
  let name: String
  let answer: Bool
  let log: CallLog
  init(_ name: String, answer: Bool = true, log: CallLog) {
    self.name = name
    self.answer = answer
    self.log = log
  }
  func sensor(_ sensor: Sensor, didRead reading: Reading) {
    log.append("\(name) \(sensor.name) \(reading.celsius) #\(reading.sensorID)")
  }
  func sensorShouldStart(_ sensor: Sensor) -> Bool {
    log.append("\(name) shouldStart \(sensor.name)")
    return answer
  }
}

struct Box: Equatable {
  var x: Double
  var y: Double
  var z: Double
}

/// A protocol whose method passes and returns a struct in memory.
@Delegate(cFace: true)
protocol BoxDelegate: AnyObject {
  @Default(Box(x: 0, y: 0, z: 0)) func place(_ box: Box, at index: Int) -> Box
}

final class BoxMover: BoxDelegate, @unchecked Sendable {
  let shift: Double
  let log: CallLog
  init(shift: Double, log: CallLog) {
    self.shift = shift
    self.log = log
  }
  func place(_ box: Box, at index: Int) -> Box {
    log.append("\(shift) \(box.x) \(box.y) \(box.z) @\(index)")
    return Box(x: box.x + shift, y: box.y, z: box.z * Double(index))
  }
}

/// A main-actor protocol: its C calls reach the delegates through MainActor.assumeIsolated.
@MainActor
@Delegate(cFace: true)
protocol ScreenDelegate: AnyObject {
  func frames(_ count: Int) -> Int
}

@MainActor
final class ScreenCounter: ScreenDelegate {
  var seen = 0
  func frames(_ count: Int) -> Int {
    seen += count
    return seen * 10
  }
}

/// C callers reaching plain Swift delegates through `imp(for:)` and the C routes.
@Suite("Swift protocols from C")
struct SwiftProtocolCFaceTests {
  let sensor = Sensor(name: "probe")
  var sensorPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(sensor).toOpaque() }

  func didRead(_ proxy: SensorDelegateMulticast, _ celsius: Double, id: Int32) throws {
    dp_test_c_sensor_did_read(
      try proxy.runtime.imp(for: \.sensorDidRead).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorDidRead).rawValue, sensorPointer,
      dp_test_reading(celsius: celsius, sensor_id: id))
  }

  func shouldStart(_ proxy: SensorDelegateMulticast) throws -> Bool {
    dp_test_c_sensor_should_start(
      try proxy.runtime.imp(for: \.sensorShouldStart).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorShouldStart).rawValue, sensorPointer)
  }

  func threshold(_ proxy: SensorDelegateMulticast) throws -> Double {
    dp_test_c_sensor_threshold(
      try proxy.runtime.imp(for: \.sensorThreshold).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorThreshold).rawValue, sensorPointer)
  }

  func didStop(_ proxy: SensorDelegateMulticast) throws {
    dp_test_c_sensor_did_stop(
      try proxy.runtime.imp(for: \.sensorDidStop).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorDidStop).rawValue, sensorPointer)
  }

  @Test func aPaddedStructByValueFromCReachesEveryDelegateInOrderOnTheRegisterRoute() throws {
    let log = CallLog()
    let (a, b, c) = (
      CFaceListener("a", log: log), CFaceListener("b", log: log), CFaceListener("c", log: log)
    )
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.add(c, retention: .strong)
    try didRead(proxy, 21.5, id: -7)
    #expect(log.entries == ["a probe 21.5 #-7", "b probe 21.5 #-7", "c probe 21.5 #-7"])
    // One C face runs the multicast's own dispatch; its method is a static register
    // entry (no libffi closure), and it keeps no members of its own.
    let runtime = try proxy.runtime.proxy()
    #expect(
      runtime.method(for: proxy.runtime.selector(for: \.sensorDidRead))?.isClosureBacked == false)
    #expect(!(runtime is MulticastProxy))
    #expect(proxy.count == 3)
    withExtendedLifetime((a, b, c)) {}
  }

  @Test func methodsOfCScalarsAndObjectsAreGeneratedCFunctionsAndStructsTakeFrames() throws {
    let log = CallLog()
    let (a, b) = (CFaceListener("a", log: log), CFaceListener("b", log: log))
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b, retention: .strong)
    let entries = SensorDelegateMulticast.__cFunctions
    let shouldStartSelector = proxy.runtime.selector(for: \.sensorShouldStart)
    let didReadSelector = proxy.runtime.selector(for: \.sensorDidRead)
    #expect(try shouldStart(proxy) == true)
    try didRead(proxy, 7.5, id: 3)
    #expect(
      log.entries == [
        "a shouldStart probe", "b shouldStart probe", "a probe 7.5 #3", "b probe 7.5 #3",
      ])
    let face = try proxy.runtime.proxy()
    // `Sensor` is a class: the macro's guess holds, C calls the generated C function
    // `(self, _cmd, void *) -> bool` directly.
    #expect(face.method(for: shouldStartSelector)?.imp == entries[1]?.imp)
    #expect(try proxy.runtime.imp(for: \.sensorShouldStart) == entries[1]?.imp)
    // `Reading` is a struct the macro took for a class: its entry is not used; the
    // static register entry and frame decoding serve it.
    let readMethod = face.method(for: didReadSelector)
    #expect(readMethod != nil)
    #expect(readMethod?.imp != entries[0]?.imp)
    #expect(readMethod?.isClosureBacked == false)
    withExtendedLifetime((a, b)) {}
  }

  @Test func observersAndMessageSequencesHearCCallsWithTheirSwiftTypes() async throws {
    let log = CallLog()
    let a = CFaceListener("a", log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    let heard = CallLog()
    let before = proxy.observe(\.sensorDidRead, .before) { sensor, reading in
      heard.append(
        "before \(sensor.name) \(reading.celsius) #\(reading.sensorID) (\(log.entries.count))")
    }
    let after = proxy.observe(\.sensorDidRead) { sensor, reading in
      heard.append(
        "after \(sensor.name) \(reading.celsius) #\(reading.sensorID) (\(log.entries.count))")
    }
    let stream = proxy.messages(\.sensorShouldStart)
    try didRead(proxy, 8.5, id: 9)
    #expect(log.entries == ["a probe 8.5 #9"])
    #expect(heard.entries == ["before probe 8.5 #9 (0)", "after probe 8.5 #9 (1)"])
    // A call from Swift is heard once, by the Swift path.
    proxy.sensor(sensor, didRead: Reading(celsius: 1, sensorID: 2))
    #expect(heard.entries.count == 4)
    #expect(try shouldStart(proxy) == true)
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.name == "probe")
    before.cancel()
    after.cancel()
    try didRead(proxy, 3, id: 3)
    #expect(heard.entries.count == 4)
    // Observed or not, the C face's method is the register entry into the dispatch.
    #expect(
      try proxy.runtime.proxy().method(for: proxy.runtime.selector(for: \.sensorDidRead))?
        .isClosureBacked == false)
    withExtendedLifetime(a) {}
  }

  @Test func boolResultsFollowThePolicyFromC() throws {
    let log = CallLog()
    let no = CFaceListener("no", answer: false, log: log)
    let yes1 = CFaceListener("yes1", log: log)
    let yes2 = CFaceListener("yes2", log: log)
    let proxy = SensorDelegateMulticast()
    for d in [no, yes1, yes2] { proxy.add(d) }
    let selector = proxy.runtime.selector(for: \.sensorShouldStart)

    #expect(try shouldStart(proxy) == true)  // last responder
    #expect(
      log.entries == ["no shouldStart probe", "yes1 shouldStart probe", "yes2 shouldStart probe"])
    let entry = try proxy.runtime.imp(for: \.sensorShouldStart)
    #expect(try proxy.runtime.proxy().method(for: selector)?.imp == entry)

    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    #expect(try shouldStart(proxy) == false)
    #expect(log.entries.count == 6)  // every responder called
    // A policy is the multicast's: the C face's method stays the same C function.
    #expect(try proxy.runtime.imp(for: \.sensorShouldStart) == entry)

    proxy.setPolicy(.firstResponder, for: \.sensorShouldStart)
    #expect(try shouldStart(proxy) == false)
    #expect(log.entries.suffix(1) == ["no shouldStart probe"])
    #expect(log.entries.count == 7)

    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    proxy.remove(no)
    #expect(try shouldStart(proxy) == true)
    withExtendedLifetime((no, yes1, yes2)) {}
  }

  @Test func aDoubleResultFromC() throws {
    let log = CallLog()
    let low = StoppingSensorListener(log: log, threshold: 10.25)
    let high = StoppingSensorListener(log: log, threshold: -30.5)
    let proxy = SensorDelegateMulticast()
    proxy.add(low)
    proxy.add(high)
    #expect(try threshold(proxy) == -30.5)
    #expect(
      try proxy.runtime.proxy().method(for: proxy.runtime.selector(for: \.sensorThreshold))?
        .isClosureBacked == false)
    proxy.setPolicy(.firstResponder, for: \.sensorThreshold)
    #expect(try threshold(proxy) == 10.25)
    withExtendedLifetime((low, high)) {}
  }

  @Test func aDeallocatedWeakDelegateIsNeverCalledFromC() throws {
    let log = CallLog()
    let a = CFaceListener("a", log: log)
    let c = CFaceListener("c", log: log)
    let proxy = SensorDelegateMulticast()
    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    proxy.add(a)
    weak var gone: CFaceListener?
    do {
      let b = CFaceListener("b", answer: true, log: log)
      gone = b
      proxy.add(b)
      proxy.add(c)
      try didRead(proxy, 1, id: 1)
      #expect(log.entries.count == 3)
    }
    #expect(gone == nil)
    // The published table still lists b: the dispatch finds b gone, does not call it,
    // and counts no answer from it, so it does not turn all-true false.
    #expect(try shouldStart(proxy) == true)
    #expect(log.entries.suffix(2) == ["a shouldStart probe", "c shouldStart probe"])
    try didRead(proxy, 2, id: 2)
    #expect(log.entries.suffix(2) == ["a probe 2.0 #2", "c probe 2.0 #2"])
    try didRead(proxy, 3, id: 3)
    #expect(log.entries.suffix(2) == ["a probe 3.0 #3", "c probe 3.0 #3"])
    #expect(!log.entries.contains { $0.hasPrefix("b") && !$0.hasSuffix("#1") })
    withExtendedLifetime((a, c)) {}
  }

  @Test func aRemovedDelegateIsNeverCalledFromC() throws {
    let log = CallLog()
    let (a, b, c) = (
      CFaceListener("a", log: log), CFaceListener("b", log: log), CFaceListener("c", log: log)
    )
    let proxy = SensorDelegateMulticast()
    for d in [a, b, c] { proxy.add(d) }
    let imp = try proxy.runtime.imp(for: \.sensorDidRead)  // looked up before the removal
    proxy.remove(b)
    dp_test_c_sensor_did_read(
      imp.rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorDidRead).rawValue,
      sensorPointer,
      dp_test_reading(celsius: 4, sensor_id: 4))
    #expect(log.entries == ["a probe 4.0 #4", "c probe 4.0 #4"])
    #expect(proxy.count == 2)
    proxy.insert(b, at: 0)
    try didRead(proxy, 5, id: 5)
    #expect(log.entries.suffix(3) == ["b probe 5.0 #5", "a probe 5.0 #5", "c probe 5.0 #5"])
    withExtendedLifetime((a, b, c)) {}
  }

  @Test func optionalMethodsReachOnlyTheClassesThatImplementThem() throws {
    let log = CallLog()
    let plain = CFaceListener("plain", log: log)  // implements neither optional method
    let stopper = StoppingSensorListener(log: log, threshold: 12)
    let proxy = SensorDelegateMulticast()
    proxy.add(stopper)
    proxy.add(plain)
    let stop = proxy.runtime.selector(for: \.sensorDidStop)
    // The first call teaches the multicast that CFaceListener lacks the method (its
    // generated default runs, none of its code); the next lookup leaves it out.
    try didStop(proxy)
    #expect(log.entries == ["stopper stopped"])
    try didStop(proxy)
    #expect(log.entries == ["stopper stopped", "stopper stopped"])
    #expect(proxy.count(respondingTo: \.sensorDidStop) == 1)
    #expect(dp_test_c_responds(try proxy.runtime.rawValue(), stop.name))
    #expect(DelegateOptional.isKnownMissing("sensorThreshold:", in: CFaceListener.self) == false)
    // Learned on the Swift path, honoured on the C path: last responder is the stopper.
    _ = proxy.sensorThreshold(sensor)
    _ = try proxy.runtime.imp(for: \.sensorThreshold)
    #expect(proxy.count(respondingTo: \.sensorThreshold) == 1)
    #expect(try threshold(proxy) == 12)
    withExtendedLifetime((plain, stopper)) {}
  }

  @Test func theCFaceKeepsNeitherTheMulticastNorWeakDelegatesAlive() throws {
    weak var weakProxy: SensorDelegateMulticast?
    weak var weakDelegate: CFaceListener?
    let log = CallLog()
    do {
      let proxy = SensorDelegateMulticast()
      weakProxy = proxy
      let d = CFaceListener("d", log: log)
      weakDelegate = d
      proxy.add(d)
      try didRead(proxy, 6, id: 6)
      #expect(log.entries == ["d probe 6.0 #6"])
    }
    #expect(weakDelegate == nil)
    #expect(weakProxy == nil)
  }

  @Test func aSignatureInMemoryTakesTheClosurePathFromC() throws {
    let log = CallLog()
    let (a, b) = (BoxMover(shift: 1, log: log), BoxMover(shift: 100, log: log))
    let proxy = BoxDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    let selector = proxy.runtime.selector(for: \.placeAt)
    let result = dp_test_c_place(
      try proxy.runtime.imp(for: \.placeAt).rawValue, try proxy.runtime.rawValue(),
      selector.rawValue,
      dp_test_box(x: 1.5, y: -2, z: 3), 4)
    #expect(log.entries == ["1.0 1.5 -2.0 3.0 @4", "100.0 1.5 -2.0 3.0 @4"])
    #expect(result.x == 101.5 && result.y == -2 && result.z == 12)  // the last responder's
    #expect(try proxy.runtime.proxy().method(for: selector)?.isClosureBacked == true)
    withExtendedLifetime((a, b)) {}
  }

  @MainActor
  @Test func aMainActorProtocolIsReachedFromCOnTheMainActor() throws {
    let (a, b) = (ScreenCounter(), ScreenCounter())
    let proxy = ScreenDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    _ = b.frames(1)
    let got = dp_test_c_frames(
      try proxy.runtime.imp(for: \.frames).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.frames).rawValue, 2)
    #expect(a.seen == 2 && b.seen == 3)
    #expect(got == 30)
  }
}

/// #34 item 8: the seeds' silent mode on a `@Delegate` multicast's C face, under the one
/// name both multicasts use.
@Suite("The C face's silent mode (silentWhenEmpty)")
struct CFaceSilentModeTests {
  static let unknown = Message<Void, OpaquePointer?>("nobodyImplementsThis:")
  static let unknownInt = Message<Int, OpaquePointer?>("nobodyCounts:")

  @Test("Without it, a selector the protocol lacks is an unrecognized selector")
  func unknownSelectorIsUnrecognized() throws {
    let multicast = SensorDelegateMulticast()
    let face = try multicast.runtime.proxy()
    #expect(throws: RuntimeError.self) { try Self.unknown.send(to: face, nil) }
    #expect(!multicast.silentWhenEmpty)
  }

  @Test("With it, Swift and C senders of an unknown selector get zero and nothing traps")
  func silentFaceAnswersZero() throws {
    let multicast = SensorDelegateMulticast(options: .silentWhenEmpty)
    let log = CallLog()
    multicast.add(CFaceListener("a", log: log), retention: .strong)
    let face = try multicast.runtime.proxy()
    #expect(throws: Never.self) { try Self.unknown.send(to: face, nil) }
    #expect(try Self.unknownInt.send(to: face, nil) == 0)
    // From C: the forwarding IMP for the "any signature" answer.
    let imp = try face.imp(for: Self.unknown.selector)
    let f = imp.unsafeCast(
      to: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void).self)
    f(face.rawValue, Self.unknown.selector.rawValue, nil)
    #expect(log.entries.isEmpty)
  }

  @Test("Set after the face exists, it takes effect; cleared, the error is back")
  func toggled() throws {
    let multicast = SensorDelegateMulticast()
    let face = try multicast.runtime.proxy()
    multicast.silentWhenEmpty = true
    #expect(multicast.options.contains(.silentWhenEmpty))
    #expect(throws: Never.self) { try Self.unknown.send(to: face, nil) }
    multicast.silentWhenEmpty = false
    #expect(throws: RuntimeError.self) { try Self.unknown.send(to: face, nil) }
  }
}
