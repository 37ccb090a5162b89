import DelegateProxy
import DelegateProxyCTestSupport
import Dispatch
import MessageRuntime
import Testing

/// The C face of a `@Delegate` multicast is one runtime object over the multicast's own
/// dispatch: nothing of its own to rebuild, the same answers as a Swift caller gets.
@Suite("C face: one engine")
struct CFaceEngineTests {
  let sensor = Sensor(name: "probe")
  var sensorPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(sensor).toOpaque() }

  func shouldStart(_ imp: IMP, _ proxy: SensorDelegateMulticast) throws -> Bool {
    dp_test_c_sensor_should_start(
      imp.rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorShouldStart).rawValue, sensorPointer)
  }

  @Test func anIMPLookedUpOnceFollowsMembershipPoliciesAndBlocking() throws {
    let log = CallLog()
    let (a, b) = (CFaceListener("a", answer: false, log: log), CFaceListener("b", log: log))
    let proxy = SensorDelegateMulticast()
    let imp = try proxy.runtime.imp(for: \.sensorShouldStart)
    // Empty: the method's answer for no delegates, as from Swift.
    #expect(try shouldStart(imp, proxy) == proxy.sensorShouldStart(sensor))
    #expect(log.entries.isEmpty)
    proxy.add(a)
    proxy.add(b)
    #expect(try shouldStart(imp, proxy) == true)  // last responder
    #expect(log.entries == ["a shouldStart probe", "b shouldStart probe"])
    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    #expect(try shouldStart(imp, proxy) == false)
    proxy.block(a)
    #expect(try shouldStart(imp, proxy) == true)
    #expect(log.entries.suffix(1) == ["b shouldStart probe"])
    proxy.unblock(a)
    proxy.remove(b)
    #expect(try shouldStart(imp, proxy) == false)
    #expect(log.entries.suffix(1) == ["a shouldStart probe"])
    #expect(try proxy.runtime.imp(for: \.sensorShouldStart) == imp)
    withExtendedLifetime((a, b)) {}
  }

  @Test func aFilterChoosesTheMembersACCallReachesToo() throws {
    let log = CallLog()
    let (a, b) = (CFaceListener("a", answer: false, log: log), CFaceListener("b", log: log))
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    let imp = try proxy.runtime.imp(for: \.sensorShouldStart)
    // Only the members whose answer would be true: a filter over the member, from C too.
    let skipped = ObjectIdentifier(a)
    proxy.setFilter(for: \.sensorShouldStart) { member, _ in ObjectIdentifier(member) != skipped }
    #expect(try shouldStart(imp, proxy) == true)
    #expect(log.entries == ["b shouldStart probe"])
    proxy.setFilter(for: \.sensorShouldStart, nil)
    #expect(try shouldStart(imp, proxy) == true)
    #expect(log.entries.suffix(2) == ["a shouldStart probe", "b shouldStart probe"])
    withExtendedLifetime((a, b)) {}
  }

  @Test func respondsToFromCIsTheMulticastsAnswer() throws {
    let log = CallLog()
    let plain = CFaceListener("plain", log: log)
    let stopper = StoppingSensorListener(log: log, threshold: 1)
    let proxy = SensorDelegateMulticast()
    let face = try proxy.runtime.rawValue()
    let stop = proxy.runtime.selector(for: \.sensorDidStop).name
    let start = proxy.runtime.selector(for: \.sensorShouldStart).name
    #expect(!dp_test_c_responds(face, start))
    proxy.add(plain)
    #expect(dp_test_c_responds(face, start))
    // `plain`'s class lacks the optional method: learned on the first call.
    proxy.sensorDidStop(sensor)
    #expect(!dp_test_c_responds(face, stop))
    proxy.add(stopper)
    #expect(dp_test_c_responds(face, stop) == proxy.responds(to: \.sensorDidStop))
    #expect(dp_test_c_responds(face, stop))
    proxy.block(stopper)
    #expect(!dp_test_c_responds(face, stop))
    withExtendedLifetime((plain, stopper)) {}
  }

  @Test func aQueuedMemberAnswersACCallOnItsQueue() throws {
    let log = CallLog()
    let a = CFaceListener("a", answer: true, log: log)
    let b = CFaceListener("b", answer: false, log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b, queue: DispatchQueue(label: "cface.engine.b"))
    // The last responder is queued: called on its queue and waited for, as from Swift.
    let imp = try proxy.runtime.imp(for: \.sensorShouldStart)
    #expect(try shouldStart(imp, proxy) == false)
    #expect(log.entries == ["a shouldStart probe", "b shouldStart probe"])
    withExtendedLifetime((a, b)) {}
  }

  @Test func aCallbackAdapterThatOutlivesItsMulticastCallsNobody() throws {
    let log = CallLog()
    let a = CFaceListener("a", log: log)
    weak var gone: SensorDelegateMulticast?
    let adapter: CallbackAdapter
    do {
      let proxy = SensorDelegateMulticast()
      gone = proxy
      proxy.add(a)
      adapter = try proxy.runtime.callbackAdapter(for: \.sensorShouldStart, context: .first)
    }
    #expect(gone == nil)  // the adapter keeps the C face, not the multicast
    typealias Callback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool
    let callback = try adapter.function(as: Callback.self)
    #expect(callback(adapter.context, sensorPointer) == false)
    #expect(log.entries.isEmpty)
    withExtendedLifetime(a) {}
  }
}
