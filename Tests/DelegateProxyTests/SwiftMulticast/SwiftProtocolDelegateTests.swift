import DelegateProxy
import MessageRuntime
import Testing

/// A delegator as Swift programmers write one: a weak delegate slot of the protocol's type.
final class SensorDevice {
  weak var delegate: (any SensorDelegate)?
  let sensor = Sensor(name: "probe")

  func start() -> Bool { delegate?.sensorShouldStart(sensor) ?? true }
  func read(_ celsius: Double) {
    delegate?.sensor(sensor, didRead: Reading(celsius: celsius, sensorID: 7))
  }
  func stop() { delegate?.sensorDidStop(sensor) }
}

@Suite("Swift protocols as delegates")
struct SwiftProtocolDelegateTests {
  @Test func aVoidMessageReachesEveryDelegateInOrderThroughAWeakDelegatorSlot() throws {
    let log = CallLog()
    let a = RecordingSensorListener("a", log: log)
    let b = RecordingSensorListener("b", log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    let device = SensorDevice()
    device.delegate = proxy
    device.read(21.5)
    #expect(log.entries == ["a read 21.5", "b read 21.5"])
  }

  @Test func returnPoliciesDecideWhoIsCalledAndWhatIsAnswered() throws {
    let log = CallLog()
    let yes = RecordingSensorListener("yes", answer: true, log: log)
    let no = RecordingSensorListener("no", answer: false, log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(no)
    proxy.add(yes)
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == true)  // last responder
    #expect(log.entries == ["no shouldStart", "yes shouldStart"])

    proxy.setPolicy(.firstResponder, for: \.sensorShouldStart)
    #expect(proxy.policy(for: \.sensorShouldStart).description == "first responder")
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == false)
    #expect(log.entries.suffix(1) == ["no shouldStart"])

    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == false)
    proxy.setPolicy(.reduce(.anyTrue), for: \.sensorShouldStart)
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == true)
    proxy.remove(yes)
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == false)
    // Other methods keep the default.
    #expect(proxy.policy(for: \.sensorThreshold).description == "last responder")
  }

  @Test func aCustomReducerFoldsTypedValues() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let a = StoppingSensorListener(log: log, threshold: 10)
    let b = StoppingSensorListener(log: log, threshold: 32.5)
    proxy.add(a)
    proxy.add(b)
    proxy.setPolicy(
      .reduce(.fold(Double.self, name: "sum", initial: 0, +)), for: \.sensorThreshold)
    #expect(proxy.sensorThreshold(Sensor(name: "s")) == 42.5)
  }

  @Test func emptyValueMessagesAnswerZeroWhenSilentOrUnderOtherPolicies() throws {
    let silent = SensorDelegateMulticast()
    #expect(silent.sensorShouldStart(Sensor(name: "s")) == false)
    #expect(silent.sensorThreshold(Sensor(name: "s")) == 0)
    let first = SensorDelegateMulticast(policy: .firstResponder)
    #expect(first.sensorShouldStart(Sensor(name: "s")) == false)
    let all = SensorDelegateMulticast(policy: .reduce(.allTrue))
    #expect(all.sensorShouldStart(Sensor(name: "s")) == true)  // an empty AND
    // Void messages are always silent.
    SensorDelegateMulticast().sensor(Sensor(name: "s"), didRead: Reading(celsius: 1, sensorID: 1))
  }

  @Test func weakDelegatesAreNotKeptAliveAndAreDroppedOnceDeallocated() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    var a: RecordingSensorListener? = RecordingSensorListener("a", log: log)
    weak let weakA = a
    let b = RecordingSensorListener("b", log: log)
    proxy.add(a!)
    proxy.add(b)
    #expect(proxy.count == 2)
    a = nil
    #expect(weakA == nil)  // the proxy did not keep it
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 3, sensorID: 1))
    #expect(log.entries == ["b read 3.0"])
    #expect(proxy.count == 1)
    #expect(proxy.delegates.count == 1)
  }

  @Test func strongDelegatesStayUntilRemoved() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    weak var weakA: RecordingSensorListener?
    do {
      let a = RecordingSensorListener("a", log: log)
      weakA = a
      proxy.add(a, retention: .strong)
    }
    #expect(weakA != nil)
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 4, sensorID: 1))
    #expect(log.entries == ["a read 4.0"])
    proxy.remove(weakA!)
    #expect(weakA == nil)
  }

  @Test func aDelegateDeallocatedMidDispatchIsNotCalled() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    final class Dropper: SensorDelegate, @unchecked Sendable {
      var victim: RecordingSensorListener?
      func sensor(_ sensor: Sensor, didRead reading: Reading) { victim = nil }
      func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
    }
    let dropper = Dropper()
    dropper.victim = RecordingSensorListener("victim", log: log)
    proxy.add(dropper)
    proxy.add(dropper.victim!)
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 5, sensorID: 1))
    #expect(log.entries.isEmpty)
    #expect(proxy.count == 1)
  }

  @Test func removedDelegatesAreNotCalledAndADelegateMayRemoveItself() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    final class Quitter: SensorDelegate, @unchecked Sendable {
      weak var proxy: SensorDelegateMulticast?
      var calls = 0
      func sensor(_ sensor: Sensor, didRead reading: Reading) {
        calls += 1
        proxy?.remove(self)
      }
      func sensorShouldStart(_ sensor: Sensor) -> Bool { true }
    }
    let quitter = Quitter()
    quitter.proxy = proxy
    let b = RecordingSensorListener("b", log: log)
    proxy.add(quitter)
    proxy.add(b)
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 6, sensorID: 1))
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 7, sensorID: 1))
    #expect(quitter.calls == 1)
    #expect(log.entries == ["b read 6.0", "b read 7.0"])
    proxy.remove(b)
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 8, sensorID: 1))
    #expect(log.entries.count == 2)
    #expect(proxy.count == 0)
  }

  @Test func optionalMethodsReachOnlyClassesThatImplementThem() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let plain = RecordingSensorListener("plain", log: log)
    let stopper = StoppingSensorListener(log: log, threshold: 25)
    proxy.add(stopper)
    proxy.add(plain)  // last: its missing sensorThreshold must not win
    #expect(proxy.sensorThreshold(Sensor(name: "s")) == 25)
    let generation = proxy.generation
    proxy.stop(Sensor(name: "s"))
    #expect(log.entries == ["stopper stopped"])
    // Learned: the plain class does not implement them.
    #expect(proxy.responds(plain, to: \.sensorDidStop) == false)
    #expect(proxy.responds(stopper, to: \.sensorDidStop) == true)
    #expect(proxy.count(respondingTo: \.sensorDidStop) == 1)
    #expect(proxy.count(respondingTo: \.sensorDidRead) == 2)
    #expect(proxy.generation != generation)
    proxy.remove(stopper)
    #expect(proxy.responds(to: \.sensorDidStop) == false)
    #expect(proxy.responds(to: \.sensorShouldStart) == true)
  }

  @Test func uniqueKeepsOneMembershipAndInsertionFollowsAIMultiDelegate() throws {
    let log = CallLog()
    let a = RecordingSensorListener("a", log: log)
    let b = RecordingSensorListener("b", log: log)
    let c = RecordingSensorListener("c", log: log)
    let unique = SensorDelegateMulticast(options: .unique)
    unique.add(a)
    unique.add(a)
    #expect(unique.count == 1)

    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.insert(b, before: a)
    proxy.insert(c, after: nil)  // nil: at the beginning
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 1, sensorID: 1))
    #expect(log.entries == ["c read 1.0", "b read 1.0", "a read 1.0"])
    #expect(proxy.contains(b))
  }

  /// Adding a multicast into itself, directly or through a nest, is a programming error:
  /// the process stops with a message naming the cycle (an exit test each).
  @Test func aMulticastCannotContainItself() async throws {
    await #expect(processExitsWith: .failure) {
      let outer = SensorDelegateMulticast()
      let inner = SensorDelegateMulticast()
      outer.add(inner)
      inner.add(outer)
    }
    await #expect(processExitsWith: .failure) {
      let outer = SensorDelegateMulticast()
      outer.insert(outer, at: 0)
    }
    let outer = SensorDelegateMulticast()
    let inner = SensorDelegateMulticast()
    outer.add(inner)
    let log = CallLog()
    inner.add(RecordingSensorListener("deep", log: log), retention: .strong)
    outer.sensor(Sensor(name: "s"), didRead: Reading(celsius: 2, sensorID: 1))
    #expect(log.entries == ["deep read 2.0"])
  }

  @Test func theRuntimeProtocolIsDerivedFromTheSwiftTypes() throws {
    let runtime = try SensorDelegateMulticast.delegateProtocol.runtimeProtocol()
    let read = try #require(runtime.requirement(for: Selector("sensor:didRead:")))
    #expect(read.signature.encoding == "v@:^v{Reading=di}")
    #expect(read.isRequired)
    let stop = try #require(runtime.requirement(for: Selector("sensorDidStop:")))
    #expect(!stop.isRequired)
    #expect(runtime.requirement(for: Selector("sensorShouldStart:"))?.signature.encoding == "B@:^v")
  }
}

extension SensorDelegateMulticast {
  func stop(_ sensor: Sensor) { sensorDidStop(sensor) }
}

@Suite("Swift protocols: a secondary delegate injected into a delegator's slot")
struct SwiftProtocolInjectionTests {
  /// A device whose delegate (the primary) says no to starting, and a secondary that
  /// would say yes, both logging into one log.
  struct Scene {
    let log = CallLog()
    let device = SensorDevice()
    let primary: RecordingSensorListener
    let secondary: RecordingSensorListener
    init(secondaryName: String = "secondary") {
      primary = RecordingSensorListener("primary", answer: false, log: log)
      secondary = RecordingSensorListener(secondaryName, answer: true, log: log)
      device.delegate = primary
    }
  }

  @Test func theSecondaryHearsTheDelegatorBesideThePrimaryUntilRemoved() throws {
    let scene = Scene()
    let (log, device, primary, secondary) = (scene.log, scene.device, scene.primary, scene.secondary)
    let injection = SensorDelegateMulticast.inject(secondary, into: device, at: \.delegate)
    #expect(device.delegate !== primary)
    device.read(1)
    #expect(log.entries == ["primary read 1.0", "secondary read 1.0"])
    #expect(device.start() == false)  // both called; the primary answers
    #expect(log.entries.suffix(2) == ["primary shouldStart", "secondary shouldStart"])
    injection.remove()
    #expect(device.delegate === primary)
    device.read(2)
    #expect(log.entries.last == "primary read 2.0")
  }

  @Test func aggregationLeavesAnInjectedListenersAnswerOutToo() async {
    let scene = Scene(secondaryName: "listener")
    let (log, device, listener) = (scene.log, scene.device, scene.secondary)
    let injection = SensorDelegateMulticast.inject(listener, into: device, at: \.delegate)
    let multicast = injection.multicast
    // Every member is asked; the listener's `true` does not count, so any-true sees only
    // the primary's `false`.
    #expect(await multicast.aggregate(\.sensorShouldStart, Sensor(name: "s"), reducer: .anyTrue) == false)
    #expect(log.entries == ["primary shouldStart", "listener shouldStart"])
    withExtendedLifetime(injection) {}
  }

  @Test func aSecondaryInjectedAnsweringAnswersInsteadOfThePrimary() throws {
    let scene = Scene()
    let (log, device, secondary) = (scene.log, scene.device, scene.secondary)
    let injection = SensorDelegateMulticast.inject(
      secondary, into: device, at: \.delegate, answering: true)
    #expect(device.start() == true)  // both called; the secondary, last invoked, wins
    #expect(log.entries.suffix(2) == ["primary shouldStart", "secondary shouldStart"])
    withExtendedLifetime(injection) {}
  }

  @Test func aLatePrimaryKeepsTheSecondaryAndDroppingTheInjectionRestoresThePrimary() throws {
    let log = CallLog()
    let device = SensorDevice()
    let secondary = RecordingSensorListener("secondary", log: log)
    let late = RecordingSensorListener("late", log: log)
    do {
      let injection = SensorDelegateMulticast.inject(secondary, into: device, at: \.delegate)
      #expect(injection.primary == nil)
      device.read(1)
      injection.setPrimary(late)
      device.read(2)
      #expect(log.entries == ["secondary read 1.0", "late read 2.0", "secondary read 2.0"])
      #expect(injection.multicast.count == 2)
    }
    // The injection is gone: the slot holds the primary again (the late one).
    #expect(device.delegate === late)
  }
}
