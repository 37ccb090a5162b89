import DelegateProxy
import DelegateProxyTestSupport
import DelegateProxyTesting
import Dispatch
import MessageRuntime
import Testing

// The typed API of a double of a `@Delegate` protocol: stubs, recorded calls, matchers and
// verification by handle, with the methods' own types, and the failures it records.

@Delegate(cFace: true)
protocol PanDelegate: AnyObject {
  func pan(_ id: Int32, target: inout Double)
  func panShouldBegin(_ id: Int32) -> Bool
}

/// A delegator with an `inout` parameter: the delegate may move the target.
final class Panner {
  weak var delegate: (any PanDelegate)?
  func end(_ id: Int32, at target: Double) -> Double {
    var target = target
    delegate?.pan(id, target: &target)
    return target
  }
}

@Suite("Typed doubles")
struct TypedDoubleTests {
  @Test func stubsAnswerInTheMethodsOwnTypes() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    let sensor = Sensor(name: "probe")
    double.stub(\.sensorShouldStart) { sensor in sensor.name == "probe" }
    double.stub(\.sensorThreshold, .returning(inOrder: [30, 35]))
    let delegate = double.delegate
    #expect(delegate.sensorShouldStart(sensor))
    #expect(!delegate.sensorShouldStart(Sensor(name: "other")))
    #expect(
      [
        delegate.sensorThreshold(sensor), delegate.sensorThreshold(sensor),
        delegate.sensorThreshold(sensor),
      ] == [30, 35, 35])
    // A later stub with a condition wins for the calls it accepts.
    double.stub(\.sensorShouldStart, where: { $0.name == "other" }, .returning(true))
    #expect(delegate.sensorShouldStart(Sensor(name: "other")))
    double.removeStubs(\.sensorShouldStart)
    #expect(!delegate.sensorShouldStart(sensor))  // nice: the empty answer
  }

  @Test func callsAreTypedArgumentTuplesThatKeepTheInstances() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    double.stub(\.sensorShouldStart, .returning(true))
    let sampler = SensorSampler()
    sampler.delegate = double.delegate
    sampler.sample(21.5)
    sampler.sample(7)
    let readings = double.calls(to: \.sensorDidRead)
    #expect(readings.map { _, reading in reading.celsius } == [21.5, 7])
    #expect(readings.allSatisfy { sensor, _ in sensor === sampler.probe })
    #expect(double.calls(to: \.sensorShouldStart).count == 2)
    #expect(double.recordedCalls(to: \.sensorDidRead).map(\.arguments.count) == [2, 2])
    // A temporary delegator is kept with the call, until the calls are reset.
    weak var gone: Sensor?
    do {
      let temporary = Sensor(name: "temporary")
      gone = temporary
      _ = double.delegate.sensorShouldStart(temporary)
    }
    #expect(double.calls(to: \.sensorShouldStart).last?.name == "temporary")
    double.resetCalls()
    #expect(gone == nil)
    #expect(double.calls(to: \.sensorDidRead).isEmpty)
  }

  @Test func aStubWritesAnInoutArgumentAndTheCallRecordsItAsItArrived() throws {
    let double = try SwiftDelegateDouble(PanDelegateMulticast.self, mode: .strict)
    double.stub(\.panTarget, where: { id, _ in id == 1 }) { _, target in
      target.value = (target.value / 100).rounded() * 100
    }
    let panner = Panner()
    panner.delegate = double.delegate
    #expect(panner.end(1, at: 130) == 100)
    let (id, target) = try #require(double.calls(to: \.panTarget).first)
    #expect(id == 1 && target.value == 130)
    // The strict double did not expect a pan of 2: reported where the double was made.
    let found = failures { #expect(panner.end(2, at: 130) == 130) }
    #expect(
      found.first?.message.hasPrefix(
        "Unexpected call pan(_:target:)(id: 2, target: inout 130.0) to strict DelegateDouble <PanDelegate> (strict): no stub answers it"
      ) == true)
  }

  @Test func aStrictDoubleReportsAnUnexpectedCallAsSwiftWritesIt() throws {
    let line = #line + 1
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, mode: .strict)
    let found = failures { _ = double.delegate.sensorShouldStart(Sensor()) }
    #expect(found.map(\.line) == [line])
    #expect(
      found.first?.message.hasPrefix(
        "Unexpected call sensorShouldStart(_:)(sensor: <Sensor>) to strict DelegateDouble <SensorDelegate> (strict): no stub answers it"
      ) == true)
  }

  @Test func verificationsWithConditionsCountOnlyTheCallsTheyAccept() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    double.stub(\.sensorShouldStart, .returning(true))
    let sampler = SensorSampler()
    sampler.delegate = double.delegate
    for celsius in [20.0, 21.5, 30] { sampler.sample(celsius) }
    #expect(double.verify(\.sensorDidRead, called: .exactly(3)))
    #expect(double.verify(\.sensorDidRead, called: .twice) { _, reading in reading.celsius > 21 })
    #expect(double.verifyNever(\.sensorDidRead) { _, reading in reading.celsius < 0 })
    #expect(double.verify(\.sensorDidStop, called: .exactly(3)))  // optional, answered
    let line = #line + 1
    let found = failures { double.verify(\.sensorDidRead, called: .once) { $1.celsius > 21 } }
    #expect(found.map(\.line) == [line])
    #expect(
      found.first?.message == """
        Expected sensor(_:didRead:) with matching arguments to be called exactly once on DelegateDouble <SensorDelegate> (nice), but it was called twice:
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 21.5, sensorID: 9))
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 30.0, sensorID: 9))
        Calls of sensor(_:didRead:) with other arguments:
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 20.0, sensorID: 9))
        """)
    let bools = failures { double.verifyNever(\.sensorShouldStart) }
    #expect(
      bools.first?.message.hasPrefix(
        "Expected sensorShouldStart(_:) -> Bool to be called never on DelegateDouble <SensorDelegate> (nice), but it was called 3 times:"
      ) == true)
  }

  @Test func callsInOrderAcrossDoublesByHandle() throws {
    let primary = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    let secondary = try SwiftDelegateDouble(PanDelegateMulticast.self)
    primary.stub(\.sensorShouldStart, .returning(true))
    let sampler = SensorSampler()
    sampler.delegate = primary.delegate
    let panner = Panner()
    panner.delegate = secondary.delegate

    sampler.sample(10)
    _ = panner.end(3, at: 50)
    sampler.sample(11)

    #expect(
      DelegateDouble.verifyInOrder(
        primary.received(\.sensorShouldStart), secondary.received(\.panTarget),
        primary.received(\.sensorDidRead) { _, reading in reading.celsius == 11 }))
    let line = #line + 2
    let found = failures {
      DelegateDouble.verifyInOrder(
        secondary.received(\.panTarget), primary.received(\.sensorDidRead) { $1.celsius == 10 })
    }
    #expect(found.map(\.line) == [line])
    let message = try #require(found.first?.message)
    #expect(
      message == """
        Expected calls in order: pan(_:target:) on PanDelegate, then sensor(_:didRead:) with matching arguments on SensorDelegate; no call of sensor(_:didRead:) with matching arguments on DelegateDouble <SensorDelegate> (nice) came after pan(_:target:).
        Calls received, in order:
          sensorShouldStart(_:)(sensor: <Sensor>) on SensorDelegate
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 10.0, sensorID: 9)) on SensorDelegate
          sensorDidStop(_:)(sensor: <Sensor>) on SensorDelegate
          pan(_:target:)(id: 3, target: inout 50.0) on PanDelegate
          sensorShouldStart(_:)(sensor: <Sensor>) on SensorDelegate
          sensor(_:didRead:)(sensor: <Sensor>, reading: Reading(celsius: 11.0, sensorID: 9)) on SensorDelegate
          sensorDidStop(_:)(sensor: <Sensor>) on SensorDelegate
        """)
  }

  @Test func waitingForACallFromAnotherThread() async throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    let delegate = double.delegate
    let probe = Sensor(name: "queued")
    nonisolated(unsafe) let sent = (delegate, probe)
    DispatchQueue(label: "sensor").asyncAfter(deadline: .now() + .milliseconds(50)) {
      sent.0.sensor(sent.1, didRead: Reading(celsius: 3, sensorID: 1))
    }
    let arrived = try #require(
      await double.waitForCall(to: \.sensorDidRead, timeLimit: .seconds(10)))
    #expect(arrived.0 === probe && arrived.1.celsius == 3)
    #expect(double.recordedCalls(to: \.sensorDidRead).first?.context.queueLabel == "sensor")

    let line = #line + 2
    await withKnownIssue {
      _ = await double.waitForCall(to: \.sensorDidStop, timeLimit: .milliseconds(20))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue).joined().hasPrefix(
          "Timed out after 0.02 seconds waiting for sensorDidStop(_:) to be called at least once on DelegateDouble <SensorDelegate> (nice); it was never called."
        )
    }
  }
}

/// A user's own types, which DeliveryCheck has no samples of until it is given some.
enum Mood: Equatable, Sendable {
  case calm
  case upset(level: Int)
}

final class Badge: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

@Delegate(cFace: true)
protocol MoodDelegate: AnyObject {
  func member(_ name: String, feels mood: Mood)
  func member(_ badge: Badge, count: Int32)
}

@Suite("DeliveryCheck with samples of your own types")
struct DeliveryCheckSampleTests {
  @Test func samplesOfYourOwnTypesAreSentThroughAMulticastAndCompared() throws {
    let badges = [Badge(1), Badge(2)]
    let first = try SwiftDelegateDouble(MoodDelegateMulticast.self)
    let second = try SwiftDelegateDouble(MoodDelegateMulticast.self)
    let multicast = MoodDelegateMulticast()
    for s in [first.delegate, second.delegate] { multicast.add(s) }
    // Without samples of Mood, the method that takes one is skipped.
    let bare = DeliveryCheck(seed: 3, randomCases: 1)
    let mood = first.knownMethod(\.memberFeels)
    #expect(
      try bare.run([mood], to: [first, second]) { try $0.invoke(target: multicast.runtime.proxy()) }
        == 0)
    #expect(second.calls(to: \.memberFeels).isEmpty)

    let check = bare.withSamples([Mood.calm, .upset(level: 0), .upset(level: .max)])
      .withSamples(badges) { $0 === $1 }
    let send: (Invocation) throws -> Void = { try $0.invoke(target: multicast.runtime.proxy()) }
    // The doubles are reset before each case: the last case's values stay recorded.
    #expect(try check.run([mood], to: [first, second], send: send) == 0)
    let (_, felt) = try #require(second.calls(to: \.memberFeels).last)
    #expect([Mood.calm, .upset(level: 0), .upset(level: .max)].contains(felt))
    #expect(
      try check.run([first.knownMethod(\.memberCount)], to: [first, second], send: send) == 0)
    let (badge, _) = try #require(second.calls(to: \.memberCount).last)
    #expect(badges.contains { $0 === badge })
    #expect(check.cases(for: mood, methodIndex: 0, values: ArgumentValues()).count == 1 + 4)
  }

  @Test func aSenderThatChangesAValueOfYourTypeFailsNamingIt() throws {
    let double = try SwiftDelegateDouble(MoodDelegateMulticast.self)
    let standIn = double.delegate
    let check = DeliveryCheck(seed: 1, randomCases: 0).withSamples([Mood.calm, .upset(level: 2)])
    let messages = failureMessages {
      check.run([double.knownMethod(\.memberFeels)], to: [double]) { _ in
        standIn.member("x", feels: .upset(level: 9))
      }
    }
    #expect(messages.count == 4)  // String has four samples: four boundary cases
    #expect(messages.allSatisfy { $0.contains("upset(level: 9)") || $0.contains("\"x\"") })
  }
}

@Delegate(cFace: true)
protocol StoreDelegate: AnyObject {
  func storeWillSave(_ id: Int32) throws
  func storeTitle(_ id: Int32) async throws -> String?
}

@Suite("Typed doubles of throwing and async methods")
struct TypedEffectsDoubleTests {
  /// Throwing and async handles take typed stubs and verifications too (the stand-in
  /// delivers every call synchronously).
  @Test func throwingAndAsyncMethodsAreStubbedAndVerifiedByHandle() async throws {
    let double = try SwiftDelegateDouble(StoreDelegateMulticast.self, mode: .strict)
    double.stub(\.storeWillSave)
    double.stub(\.storeTitle) { id in id == 1 ? "first" : nil }
    let store = double.delegate
    try store.storeWillSave(1)
    #expect(try await store.storeTitle(1) == "first")
    #expect(try await store.storeTitle(2) == nil)
    double.verify(\.storeWillSave, called: .once) { $0 == 1 }
    #expect(double.calls(to: \.storeTitle) == [1, 2])
  }
}

/// The error a store's delegate refuses a save with.
enum StoreError: Error, Equatable {
  case readOnly
  case full(Int)
}

/// A delegator whose error path depends on its delegate: it saves only when the delegate
/// does not throw, and reports the error it threw.
final class Store {
  weak var delegate: (any StoreDelegate)?
  private(set) var saved: [Int32] = []
  func save(_ id: Int32) -> (any Error)? {
    do {
      try delegate?.storeWillSave(id)
      saved.append(id)
      return nil
    } catch {
      return error
    }
  }
}

@Suite("Typed doubles that throw")
struct ThrowingDoubleTests {
  /// `.throwing(error)` makes the delegator's call throw it: its error path is testable.
  @Test func aThrowingStubMakesTheDelegatorsCallThrow() throws {
    let double = try SwiftDelegateDouble(StoreDelegateMulticast.self)
    let store = Store()
    store.delegate = double.delegate
    double.stub(\.storeWillSave, where: { $0 == 2 }, .throwing(StoreError.readOnly))
    double.stub(\.storeWillSave, where: { $0 == 3 }) { id in throw StoreError.full(Int(id)) }
    #expect(store.save(1) == nil)
    #expect(store.save(2) as? StoreError == .readOnly)
    #expect(store.save(3) as? StoreError == .full(3))
    #expect(store.saved == [1])
    double.verify(\.storeWillSave, called: .exactly(3))
    double.verify(\.storeWillSave, threw: .twice)
    double.verify(\.storeWillSave, threw: .once) { $0 as? StoreError == .readOnly }
    #expect(double.calls(to: \.storeWillSave) == [1, 2, 3])
  }

  /// An `async throws` method's stub throws too, with a value-returning one.
  @Test func anAsyncThrowingStubThrowsToTheAwaitingCaller() async throws {
    let double = try SwiftDelegateDouble(StoreDelegateMulticast.self)
    double.stub(\.storeTitle) { id in
      if id < 0 { throw StoreError.full(Int(id)) }
      return "title \(id)"
    }
    let store = double.delegate
    #expect(try await store.storeTitle(1) == "title 1")
    await #expect(throws: StoreError.full(-1)) { try await store.storeTitle(-1) }
    double.verify(\.storeTitle, threw: .once)
  }

  /// A verification of thrown errors that fails says what each call threw.
  @Test func aFailedVerificationOfThrownErrorsListsEachCall() throws {
    let double = try SwiftDelegateDouble(StoreDelegateMulticast.self)
    double.stub(\.storeWillSave, .throwing(StoreError.readOnly))
    let store = double.delegate
    #expect(throws: StoreError.readOnly) { try store.storeWillSave(5) }
    withKnownIssue {
      double.verify(\.storeWillSave, threw: .once) { $0 as? StoreError == .full(0) }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("never did") && $0.rawValue.contains("threw readOnly")
      }
    }
  }
}

@Delegate(cFace: true)
protocol TableEvents: AnyObject {
  func table(_ table: RuntimeObject, didSelect row: Int)
}

@Suite("Typed doubles and runtime objects")
struct TypedRuntimeObjectDoubleTests {
  /// A runtime object a stand-in sends is recorded as the object; one a message carries
  /// is only a handle (here nil, where the protocol says RuntimeObject): recorded and
  /// counted, never read from the handle, and reported when read back typed.
  @Test func aRuntimeObjectArgumentIsReadOnlyFromASwiftCaller() throws {
    let double = try SwiftDelegateDouble(TableEventsMulticast.self)
    let table = RuntimeObject()
    double.delegate.table(table, didSelect: 2)
    try Message<Void, RuntimeObject?, Int>("table:didSelect:").send(to: double, nil, 3)
    double.verify(\.tableDidSelect, called: .twice)
    withKnownIssue {
      let calls = double.calls(to: \.tableDidSelect)
      #expect(calls.count == 1)
      #expect(calls.first?.0 === table && calls.first?.1 == 2)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix(
        "1 call of table(_:didSelect:) on DelegateDouble <TableEvents> (nice) cannot be read as (RuntimeObject, Int)"
      )
    }
    #expect(double.recordedCalls(to: \.tableDidSelect).last?.arguments[1].integer == 3)
  }
}
