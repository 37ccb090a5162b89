import Dispatch
import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// RxCocoa's `DelegateProxy`: observers per selector before (`sentMessage`) and after
/// (`methodInvoked`) delivery, with the arguments; the same as an `AsyncSequence`; a
/// protocol that supplies signatures, so observed void methods are answered even with
/// no delegate; weak or strong delegates.
@Suite("RxDelegateProxyObservers") struct RxDelegateProxyObserversTests {
  static let didSelect = Message<Void, RuntimeObject?, Int>("tableView:didSelectRow:")
  static let heightForRow = Message<Double, RuntimeObject?, Int>("tableView:heightForRow:")
  static let didEndDisplaying = Message<Void, RuntimeObject?, Int>("tableView:didEndDisplayingRow:")

  let tableDelegate: RuntimeProtocol
  let cls: RuntimeClass
  let log = CallLog()

  init() throws {
    tableDelegate = try RuntimeProtocol(
      name: uniqueClassName("TableViewDelegate"),
      optional: [
        "tableView:didSelectRow:": "v@:@q", "tableView:heightForRow:": "d@:@q",
        "tableView:didEndDisplayingRow:": "v@:@q",
      ])
    cls = try RuntimeClass(name: uniqueClassName("TableController"))
    try cls.addMethod(Self.didSelect) { r, _, row in
      r.named.log.append("\(r.named.name) selected \(row)")
    }
    try cls.addMethod(Self.heightForRow) { r, _, row in
      r.named.log.append("\(r.named.name) height \(row)")
      return Double(row) * 10
    }
  }

  @Test func beforeAndAfterDeliveryWithArguments() throws {
    let proxy = MulticastProxy(protocol: tableDelegate)
    let controller = Named(cls, "controller", log: log)
    try proxy.add(controller)
    let table = Named(cls, "table")
    let sent = proxy.observe(Self.didSelect.selector, .before) { snap in
      let row = (try? snap.argument(at: 1, as: Int.self)) ?? -1
      let view =
        (try? snap.argument(at: 0, as: RuntimeObject?.self))?.map { $0.named.name } ?? "nil"
      self.log.append("sentMessage \(view) \(row)")
    }
    let invoked = proxy.observe(Self.didSelect, .after) { view, row in
      self.log.append("methodInvoked \(view?.named.name ?? "nil") \(row)")
    }
    try Self.didSelect.send(to: proxy, table, 3)
    #expect(
      log.entries == ["sentMessage table 3", "controller selected 3", "methodInvoked table 3"])
    withExtendedLifetime((sent, invoked)) {}
  }

  @Test func afterObserversSeeTheReturnValue() throws {
    let proxy = MulticastProxy(protocol: tableDelegate)
    let controller = Named(cls, "controller", log: log)
    try proxy.add(controller)
    let heights = Lock<[Double]>([])
    let observation = proxy.observe(Self.heightForRow.selector) { snap in
      if let h = try? snap.returnValue?.value(as: Double.self) { heights.withLock { $0.append(h) } }
    }
    #expect(try Self.heightForRow.send(to: proxy, nil, 4) == 40)
    #expect(heights.withLock { $0 } == [40])
    withExtendedLifetime(observation) {}
  }

  @Test func droppingOrCancellingTheObservationRemovesIt() throws {
    let proxy = MulticastProxy(protocol: tableDelegate)
    try proxy.add(Named(cls, "controller", log: log), retention: .strong)
    let heard = Atomic<Int>(0)
    do {
      let observation = proxy.observe(Self.didSelect.selector) { _ in
        heard.add(1, ordering: .relaxed)
      }
      try Self.didSelect.send(to: proxy, nil, 1)
      #expect(heard.load(ordering: .relaxed) == 1)
      withExtendedLifetime(observation) {}
    }
    try Self.didSelect.send(to: proxy, nil, 2)
    #expect(heard.load(ordering: .relaxed) == 1)
    #expect(proxy.selectorReport(for: Self.didSelect.selector).observerCount.after == 0)

    let observation = proxy.observe(Self.didSelect.selector) { _ in heard.add(1, ordering: .relaxed)
    }
    observation.cancel()
    #expect(!observation.isActive)
    try Self.didSelect.send(to: proxy, nil, 3)
    #expect(heard.load(ordering: .relaxed) == 1)
  }

  @Test func messagesAsAnAsyncSequence() async throws {
    let proxy = MulticastProxy(protocol: tableDelegate)
    let controller = Named(cls, "controller", log: log)
    try proxy.add(controller)
    // The stream is moved into the consumer: when it stops iterating, nothing holds it.
    let consumer = firstRows(3, of: proxy.messages(Self.didSelect.selector))
    #expect(proxy.selectorReport(for: Self.didSelect.selector).observerCount.after == 1)
    for row in [5, 6, 7] { try Self.didSelect.send(to: proxy, nil, row) }
    #expect(try await consumer.value == [5, 6, 7])
    #expect(
      eventually { proxy.selectorReport(for: Self.didSelect.selector).observerCount.after == 0 })
  }

  func firstRows(_ n: Int, of stream: AsyncStream<MessageSnapshot>) -> Task<[Int], any Error> {
    Task {
      var rows: [Int] = []
      for await snap in stream {
        rows.append(try snap.argument(at: 1, as: Int.self))
        if rows.count == n { break }  // ending the sequence removes the observer
      }
      return rows
    }
  }

  @Test func theSequenceEndsWithTheProxy() async throws {
    var proxy: MulticastProxy? = MulticastProxy(protocol: tableDelegate)
    let stream = proxy!.messages(Self.didEndDisplaying.selector, .before)
    let consumer = Task {
      var n = 0
      for await _ in stream { n += 1 }
      return n
    }
    try Self.didEndDisplaying.send(to: proxy!, nil, 1)
    proxy = nil
    #expect(await consumer.value == 1)
  }

  /// With a protocol, a void method that only an observer wants is still answered:
  /// `responds(to:)` is true, so a delegator that checks first sends it.
  @Test func protocolDeclaredSignaturesWithoutAnyDelegate() throws {
    let proxy = MulticastProxy(protocol: tableDelegate)
    #expect(
      proxy.methodSignature(for: Self.didEndDisplaying.selector) === Self.didEndDisplaying.signature
    )
    #expect(proxy.methodSignature(for: Self.heightForRow.selector) === Self.heightForRow.signature)
    #expect(!proxy.responds(to: Self.didEndDisplaying.selector))
    #expect(proxy.conforms(to: tableDelegate))

    let rows = Lock<[Int]>([])
    let observation = proxy.observe(Self.didEndDisplaying) { _, row in
      rows.withLock { $0.append(row) }
    }
    #expect(proxy.responds(to: Self.didEndDisplaying.selector))
    // A value-returning method cannot be answered by an observer alone.
    let heightObservation = proxy.observe(Self.heightForRow.selector) { _ in }
    #expect(!proxy.responds(to: Self.heightForRow.selector))

    try Self.didEndDisplaying.send(to: proxy, nil, 9)
    let f = try proxy.imp(for: Self.didEndDisplaying.selector)
      .unsafeCast(
        to: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, Int) -> Void).self)
    f(proxy.rawValue, Self.didEndDisplaying.selector.rawValue, nil, 10)  // from C
    #expect(rows.withLock { $0 } == [9, 10])

    observation.cancel()
    #expect(!proxy.responds(to: Self.didEndDisplaying.selector))
    withExtendedLifetime(heightObservation) {}
  }

  @Test func weakOrStrongChosenWhenAdded() throws {
    let proxy = MulticastProxy()
    weak var weakOne: Named?
    weak var strongOne: Named?
    do {
      let w = Named(cls, "weak", log: log)
      let s = Named(cls, "strong", log: log)
      weakOne = w
      strongOne = s
      try proxy.add(w)
      try proxy.add(s, retention: .strong)
    }
    #expect(weakOne == nil)
    #expect(strongOne != nil)
    try Self.didSelect.send(to: proxy, nil, 1)
    #expect(log.entries == ["strong selected 1"])
    proxy.remove(strongOne!)
    #expect(strongOne == nil)  // released on removal
  }
}
