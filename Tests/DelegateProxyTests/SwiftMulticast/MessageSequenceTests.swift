import DelegateProxy
import DelegateProxyTestSupport
import Testing

/// `messages(_:)`'s own sequence (MessageChannel): the buffering policies, the ways it
/// ends (the multicast deallocated, the task cancelled, the sequence dropped) and several
/// iterators at once.
@Suite("Swift protocols: messages(_:) sequences")
struct MessageSequenceTests {
  let sensor = Sensor(name: "s")

  /// A sequence handed to a task: `DelegateMessageSequence` is not `Sendable`.
  struct Handed: @unchecked Sendable {
    // @unchecked Sendable: each test iterates a handed sequence in one task at a time, or
    // in several tasks on purpose (the channel's lock serializes them).
    let sequence: DelegateMessageSequence<(Sensor, Reading)>
  }

  /// Sends readings `ids` (celsius = id) to `proxy`'s `sensorDidRead`.
  func send(_ ids: ClosedRange<Int32>, to proxy: SensorDelegateMulticast) {
    for id in ids { proxy.sensor(sensor, didRead: Reading(celsius: Double(id), sensorID: id)) }
  }

  /// Every sensor ID the sequence still yields (it must end).
  static func drain(_ sequence: DelegateMessageSequence<(Sensor, Reading)>) async -> [Int32] {
    var ids: [Int32] = []
    for await (_, reading) in sequence { ids.append(reading.sensorID) }
    return ids
  }

  @Test(arguments: [
    (MessageBuffering.unbounded, [Int32]([1, 2, 3, 4])),
    (.bufferingOldest(2), [1, 2]),
    (.bufferingNewest(2), [3, 4]),
    (.bufferingOldest(0), []),
    (.bufferingNewest(0), []),
  ])
  func bufferedCallsFollowThePolicyAndOutliveTheMulticast(
    _ policy: MessageBuffering, _ expected: [Int32]
  ) async {
    var proxy: SensorDelegateMulticast? = SensorDelegateMulticast()
    let sequence = proxy!.messages(\.sensorDidRead, bufferingPolicy: policy)
    send(1...4, to: proxy!)
    proxy = nil  // finishes the sequence: what it buffered is still iterated, then nil
    #expect(await Self.drain(sequence) == expected)
  }

  @Test func droppingTheSequenceRemovesTheObserver() {
    let proxy = SensorDelegateMulticast()
    do {
      let sequence = proxy.messages(\.sensorDidRead)
      #expect(proxy.report(for: \.sensorDidRead).contains("observers: 1"))
      let iterator = sequence.makeAsyncIterator()  // keeps the channel too
      send(1...2, to: proxy)
      withExtendedLifetime((sequence, iterator)) {}
    }
    #expect(!proxy.report(for: \.sensorDidRead).contains("observers:"))
  }

  @Test func aWaitingConsumerGetsALaterCall() async {
    let proxy = SensorDelegateMulticast()
    let handed = Handed(sequence: proxy.messages(\.sensorDidRead))
    let consumer = Task {
      var iterator = handed.sequence.makeAsyncIterator()
      return await iterator.next()?.1.sensorID
    }
    send(7...7, to: proxy)
    #expect(await consumer.value == 7)
  }

  @Test func cancellingTheIteratingTaskEndsTheSequenceAndRemovesTheObserver() async {
    let proxy = SensorDelegateMulticast()
    let handed = Handed(sequence: proxy.messages(\.sensorDidRead))
    let consumer = Task {
      var ids: [Int32] = []
      for await (_, reading) in handed.sequence { ids.append(reading.sensorID) }
      return ids
    }
    consumer.cancel()
    // Ends whether it was waiting or had not started: nothing was sent.
    #expect(await consumer.value == [])
    #expect(!proxy.report(for: \.sensorDidRead).contains("observers:"))
    // Ended for good: later calls are not kept, and iterating again yields nothing.
    send(1...2, to: proxy)
    var iterator = handed.sequence.makeAsyncIterator()
    #expect(await iterator.next() == nil)
  }

  @Test func aCancelledTaskGetsNothingEvenWithCallsBuffered() async {
    let proxy = SensorDelegateMulticast()
    let handed = Handed(sequence: proxy.messages(\.sensorDidRead))
    send(1...2, to: proxy)
    let consumer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await Self.drain(handed.sequence)
    }
    #expect(await consumer.value == [])
    #expect(!proxy.report(for: \.sensorDidRead).contains("observers:"))
  }

  @Test func twoIteratorsWaitingAtOnceEachGetACall() async {
    let proxy = SensorDelegateMulticast()
    let handed = Handed(sequence: proxy.messages(\.sensorDidRead))
    let first = Task {
      var iterator = handed.sequence.makeAsyncIterator()
      return await iterator.next()?.1.sensorID
    }
    let second = Task {
      var iterator = handed.sequence.makeAsyncIterator()
      return await iterator.next()?.1.sensorID
    }
    send(1...2, to: proxy)
    let ids = [await first.value, await second.value].compactMap { $0 }.sorted()
    #expect(ids == [1, 2])
  }

  @Test func theMulticastGoneEndsAWaitingConsumer() async {
    var proxy: SensorDelegateMulticast? = SensorDelegateMulticast()
    let handed = Handed(sequence: proxy!.messages(\.sensorDidRead))
    let consumer = Task { await Self.drain(handed.sequence) }
    send(5...6, to: proxy!)
    proxy = nil
    #expect(await consumer.value == [5, 6])
  }
}
