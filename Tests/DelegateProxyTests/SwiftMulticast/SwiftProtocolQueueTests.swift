import DelegateProxy
import Dispatch
import MessageRuntime
import Testing

@Suite("Swift protocols: queues, aggregation, observers")
struct SwiftProtocolQueueTests {
  /// Records the queue label each call ran on.
  final class QueueListener: SensorDelegate, @unchecked Sendable {
    let name: String
    let answer: Bool
    let log: CallLog
    let gate: DispatchSemaphore?
    init(_ name: String, answer: Bool = true, log: CallLog, gate: DispatchSemaphore? = nil) {
      self.name = name
      self.answer = answer
      self.log = log
      self.gate = gate
    }
    func sensor(_ sensor: Sensor, didRead reading: Reading) {
      gate?.wait()
      log.append("\(name) read \(reading.celsius) on \(SwiftProtocolQueueTests.currentLabel())")
    }
    func sensorShouldStart(_ sensor: Sensor) -> Bool {
      log.append("\(name) shouldStart on \(SwiftProtocolQueueTests.currentLabel())")
      return answer
    }
    func sensorDidStop(_ sensor: Sensor) {
      log.append("\(name) stopped on \(SwiftProtocolQueueTests.currentLabel())")
    }
  }

  static func currentLabel() -> String { DispatchQueue.getSpecific(key: labelKey) ?? "caller" }

  static let labelKey = DispatchSpecificKey<String>()

  /// A queue that says its label to `currentLabel()`.
  static func queue(_ label: String) -> DispatchQueue {
    let q = DispatchQueue(label: label)
    q.setSpecific(key: labelKey, value: label)
    return q
  }

  @Test func voidMessagesReachQueuedDelegatesAsynchronouslyOnTheirQueues() async throws {
    let log = CallLog()
    let queue = SwiftProtocolQueueTests.queue("listener.queue")
    let gate = DispatchSemaphore(value: 0)
    let queued = QueueListener("queued", log: log, gate: gate)
    let direct = QueueListener("direct", log: log)
    let proxy = SensorDelegateMulticast()
    proxy.add(queued, queue: queue)
    proxy.add(direct)
    proxy.sensor(Sensor(name: "s"), didRead: Reading(celsius: 1, sensorID: 1))
    // The send returned while the queued delegate is still blocked: it was not waited for.
    #expect(log.entries.count == 1)
    #expect(log.entries[0].hasPrefix("direct read 1.0"))
    gate.signal()
    queue.sync {}
    #expect(log.entries.last == "queued read 1.0 on listener.queue")
  }

  @Test func anAwaitedBroadcastReturnsOnceEveryQueuedDelegateHasRun() async throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let listeners = (0..<4).map { QueueListener("l\($0)", log: log) }
    for (i, l) in listeners.enumerated() {
      proxy.add(l, queue: SwiftProtocolQueueTests.queue("q\(i)"))
    }
    await proxy.broadcast(\.sensorDidStop, Sensor(name: "s"))
    #expect(Set(log.entries) == Set((0..<4).map { "l\($0) stopped on q\($0)" }))
  }

  @Test func aSynchronousValueMessageIncludesQueuedDelegatesAnswers() throws {
    let log = CallLog()
    let queue = SwiftProtocolQueueTests.queue("answer.queue")
    let proxy = SensorDelegateMulticast()
    let yes = QueueListener("yes", answer: true, log: log)
    let no = QueueListener("no", answer: false, log: log)
    proxy.add(yes)
    proxy.add(no, queue: queue)
    // Last responder: the queued delegate's answer is the one returned, not dropped.
    #expect(proxy.sensorShouldStart(Sensor(name: "s")) == false)
    #expect(log.entries == ["yes shouldStart on caller", "no shouldStart on answer.queue"])
    // Sent from that queue itself, it is called directly instead of deadlocking.
    let fromQueue = queue.sync { proxy.sensorShouldStart(Sensor(name: "s")) }
    #expect(fromQueue == false)
    withExtendedLifetime((yes, no)) {}
  }

  @Test func aggregationFoldsQueuedAnswersWithoutBlocking() async throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let listeners = [
      QueueListener("a", answer: true, log: log), QueueListener("b", answer: false, log: log),
      QueueListener("c", answer: true, log: log),
    ]
    proxy.add(listeners[0], queue: SwiftProtocolQueueTests.queue("a"))
    proxy.add(listeners[1], queue: SwiftProtocolQueueTests.queue("b"))
    proxy.add(listeners[2])
    #expect(
      await proxy.aggregate(\.sensorShouldStart, Sensor(name: "s"), reducer: .allTrue) == false)
    #expect(
      await proxy.aggregate(\.sensorShouldStart, Sensor(name: "s"), reducer: .anyTrue) == true)
    // The method's own policy when no reducer is given: last responder (c, unqueued).
    #expect(await proxy.aggregate(\.sensorShouldStart, Sensor(name: "s")) == true)
    // `reducer: .allTrue` for the `Double` threshold does not compile (reducers are typed).

    let done = DispatchSemaphore(value: 0)
    let answer = Lock<Bool?>(nil)
    proxy.aggregate(
      \.sensorShouldStart, Sensor(name: "s"), reducer: .allTrue,
      completionQueue: SwiftProtocolQueueTests.queue("done")
    ) { value in
      answer.withLock { $0 = value }
      done.signal()
    }
    done.wait()
    #expect(answer.withLock { $0 } == false)
    withExtendedLifetime(listeners) {}
  }

  @Test func observersSeeTypedArgumentsBeforeOrAfterDelivery() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let d = QueueListener("d", log: log)
    proxy.add(d)
    let before = proxy.observe(\.sensorDidRead, .before) { sensor, reading in
      log.append("before \(sensor.name) \(reading.celsius)")
    }
    let after = proxy.observe(\.sensorDidRead) { _, reading in
      log.append("after \(reading.sensorID)")
    }
    proxy.sensor(Sensor(name: "probe"), didRead: Reading(celsius: 2.5, sensorID: 9))
    #expect(log.entries.count == 3)
    #expect(log.entries.first == "before probe 2.5")
    #expect(log.entries.last == "after 9")
    before.cancel()
    withExtendedLifetime((after, d)) {}
    proxy.sensor(Sensor(name: "probe"), didRead: Reading(celsius: 3, sensorID: 4))
    #expect(log.entries.suffix(2).last == "after 4")
    #expect(!log.entries.contains("before probe 3.0"))
    // An observed void method is answered even with no delegate.
    let empty = SensorDelegateMulticast()
    #expect(!empty.responds(to: \.sensorDidStop))
    let watching = empty.observe(\.sensorDidStop) { _ in }
    #expect(empty.responds(to: \.sensorDidStop))
    watching.cancel()
    #expect(!empty.responds(to: \.sensorDidStop))
  }

  @Test func messagesAreAnAsyncSequenceOfArgumentTuples() async throws {
    let proxy = SensorDelegateMulticast()
    let stream = proxy.messages(\.sensorDidRead)
    proxy.sensor(Sensor(name: "a"), didRead: Reading(celsius: 1, sensorID: 1))
    proxy.sensor(Sensor(name: "b"), didRead: Reading(celsius: 2, sensorID: 2))
    var seen: [String] = []
    for await (sensor, reading) in stream {
      seen.append("\(sensor.name)=\(reading.celsius)")
      if seen.count == 2 { break }
    }
    #expect(seen == ["a=1.0", "b=2.0"])
  }

  @Test func introspectionReportsRespondersPoliciesAndQueues() throws {
    let log = CallLog()
    let proxy = SensorDelegateMulticast()
    let a = QueueListener("a", log: log)
    let plain = RecordingSensorListener("plain", log: log)
    proxy.add(a, queue: SwiftProtocolQueueTests.queue("reports"))
    proxy.add(plain)
    proxy.setPolicy(.reduce(.anyTrue), for: \.sensorShouldStart)
    let report = proxy.report(for: \.sensorShouldStart)
    #expect(report.contains("sensorShouldStart:"))
    #expect(report.contains("policy: reduce(any true)"))
    #expect(report.contains("queue=reports"))
    #expect(proxy.runtime.method(\.sensorDidRead).selector == Selector("sensor:didRead:"))
    #expect(proxy.count(ofClass: RecordingSensorListener.self) == 1)
    #expect(proxy.responders(for: \.sensorShouldStart).count == 2)
    #expect(proxy.description.contains("queue=reports"))
  }
}
