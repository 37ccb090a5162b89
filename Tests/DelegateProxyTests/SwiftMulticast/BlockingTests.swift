import DelegateProxy
import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Dispatch
import MessageRuntime
import Testing

/// Muting a member without removing it (GObject's `g_signal_handler_block`, libsigc++'s
/// `connection.block()`, Boost.Signals2's `shared_connection_block`): counted, its place,
/// queue and observers kept, skipped by every path.
@Suite("Blocking a member")
struct BlockingTests {
  let sensor = Sensor(name: "probe")
  let reading = Reading(celsius: 20, sensorID: 1)

  @Test func aBlockedMemberIsSkippedAndKeepsItsPlaceAndCount() {
    let log = CallLog()
    let (a, b, c) = (
      RecordingSensorListener("a", log: log), RecordingSensorListener("b", log: log),
      RecordingSensorListener("c", log: log)
    )
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.add(c)
    let generation = proxy.generation
    proxy.block(b)
    proxy.block(b)  // counted: two blocks need two unblocks
    #expect(proxy.isBlocked(b) && !proxy.isBlocked(a))
    #expect(proxy.generation != generation)  // responds(to:) answers may have changed
    proxy.sensor(sensor, didRead: reading)
    #expect(log.entries == ["a read 20.0", "c read 20.0"])
    #expect(proxy.count == 3 && proxy.contains(b))  // still a member
    #expect(proxy.count(respondingTo: \.sensorDidRead) == 2)
    proxy.unblock(b)
    log.clear()
    proxy.sensor(sensor, didRead: reading)
    #expect(log.entries == ["a read 20.0", "c read 20.0"])  // one block left
    proxy.unblock(b)
    log.clear()
    proxy.sensor(sensor, didRead: reading)
    #expect(log.entries == ["a read 20.0", "b read 20.0", "c read 20.0"])  // its place
    proxy.unblock(b)  // not blocked: nothing happens
    #expect(!proxy.isBlocked(b))
    proxy.block(RecordingSensorListener("stranger", log: log))  // not a member: nothing
  }

  @Test func theOnlyResponderBlockedMeansNobodyRespondsAndTheDefaultAnswers() {
    let log = CallLog()
    let only = RecordingSensorListener("only", answer: true, log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(only)
    #expect(proxy.responds(to: \.sensorShouldStart))
    proxy.block(only)
    #expect(!proxy.responds(to: \.sensorShouldStart))
    #expect(proxy.sensorShouldStart(sensor) == false)  // Bool's empty answer
    #expect(log.entries.isEmpty)
    proxy.unblock(only)
    #expect(proxy.sensorShouldStart(sensor) == true)
  }

  @Test func aBlockedMemberOnAQueueIsNotCalledAndObserversStillHear() async {
    let log = CallLog()
    let queued = RecordingSensorListener("queued", log: log)
    let plain = RecordingSensorListener("plain", log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(queued, queue: DispatchQueue(label: "blocking.queued"))
    proxy.add(plain)
    let heard = CallLog()
    let watching = proxy.observe(\.sensorDidRead) { _, r in heard.append("saw \(r.celsius)") }
    proxy.block(queued)
    await proxy.broadcast(\.sensorDidRead, sensor, reading)
    #expect(log.entries == ["plain read 20.0"])
    #expect(heard.entries == ["saw 20.0"])
    proxy.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    #expect(await proxy.aggregate(\.sensorShouldStart, sensor) == true)
    #expect(log.entries.last == "plain shouldStart")
    watching.cancel()
  }

  @Test func cCallersSkipABlockedMemberToo() throws {
    let log = CallLog()
    let (a, b) = (RecordingSensorListener("a", log: log), RecordingSensorListener("b", log: log))
    let proxy = SensorDelegateMulticast()
    proxy.add(a)
    proxy.add(b)
    proxy.block(a)
    let pointer = Unmanaged.passUnretained(sensor).toOpaque()
    dp_test_c_sensor_did_read(
      try proxy.runtime.imp(for: \.sensorDidRead).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorDidRead).rawValue, pointer,
      dp_test_reading(celsius: 5, sensor_id: 2))
    #expect(log.entries == ["b read 5.0"])
    proxy.unblock(a)
    dp_test_c_sensor_did_read(
      try proxy.runtime.imp(for: \.sensorDidRead).rawValue, try proxy.runtime.rawValue(),
      proxy.runtime.selector(for: \.sensorDidRead).rawValue, pointer,
      dp_test_reading(celsius: 6, sensor_id: 2))
    #expect(log.entries.suffix(2) == ["a read 6.0", "b read 6.0"])
  }

  @Test func theRuntimeProxyBlocksAMemberTheSameWay() throws {
    let ping = Message<Void, Int>("ping:")
    let cls = try RuntimeClass(name: uniqueClassName("BlockingTestsDelegate"))
    let hits = CallLog()
    try cls.addMethod(ping) { _, value in hits.append("ping \(value)") }
    let d = RuntimeObject(class: cls)
    let proxy = MulticastProxy(options: .silentWhenEmpty)
    try proxy.add(d, retention: .strong)
    #expect(proxy.responds(to: ping.selector))
    proxy.block(d)
    #expect(!proxy.responds(to: ping.selector) && proxy.isBlocked(d) && proxy.count == 1)
    try ping.send(to: proxy, 1)
    proxy.unblock(d)
    try ping.send(to: proxy, 2)
    #expect(hits.entries == ["ping 2"])
  }
}
