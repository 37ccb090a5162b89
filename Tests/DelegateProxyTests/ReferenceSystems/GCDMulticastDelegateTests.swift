import Dispatch
import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// A C struct passed by value (`{Point=dd}`).
struct Point: MessageArgument, BitwiseCopyable, Equatable {
  var x: Double
  var y: Double
  static var typeEncoding: TypeEncoding { .structure(name: "Point", fields: [.double, .double]) }
}

/// GCDMulticastDelegate (XMPPFramework): each delegate with its own queue; void
/// messages asynchronous; return values aggregated without blocking; counts and a
/// snapshot enumerator. Scenarios from the project's wiki page.
@Suite("GCDMulticastDelegate") struct GCDMulticastDelegateTests {
  static let tick = Message<Void, Int>("workerDidTick:")
  static let shouldPerform = Message<Bool, RuntimeObject?, RuntimeObject?>(
    "worker:shouldPerformSubTask:")
  static let height = Message<Double, RuntimeObject?>("heightForWorker:")
  static let record = Message<
    Void, Point, UnsafePointer<CChar>?, RuntimeObject?, UnsafeMutableRawPointer?
  >(
    "record:label:object:context:")

  let cls: RuntimeClass
  let plain: RuntimeClass

  init() throws {
    cls = try RuntimeClass(name: uniqueClassName("XMPPListener"))
    try cls.addMethod(Self.tick) { r, i in
      r.named.log.append("\(r.named.name) \(i) on \(QueueMarker.current ?? "?")")
    }
    try cls.addMethod(Self.shouldPerform) { r, _, _ in
      r.named.runAction()
      return r.named.boolValue.load(ordering: .relaxed)
    }
    try cls.addMethod(Self.height) { r, _ in
      r.named.runAction()
      return Double(r.named.intValue.load(ordering: .relaxed))
    }
    try cls.addMethod(Self.record) { r, point, label, object, context in
      let text = label.map { String(cString: $0) } ?? "nil"
      let objectName = (object as? Named)?.name ?? "nil"
      r.named.log.append(
        "\(point.x),\(point.y) \(text) \(objectName) \(context.map { "\($0)" } ?? "nil")")
    }
    plain = try RuntimeClass(name: uniqueClassName("Plain"))
  }

  func queue(_ label: String) -> DispatchQueue {
    let q = DispatchQueue(label: "\(label).\(uniqueClassName())")
    QueueMarker.mark(q)
    return q
  }

  @Test func voidMessagesGoAsynchronouslyInOrderPerQueue() throws {
    let log = CallLog()
    let qa = queue("a")
    let qb = queue("b")
    let a = Named(cls, "a", log: log)
    let b = Named(cls, "b", log: log)
    let proxy = MulticastProxy()
    try proxy.add(a, queue: qa)
    try proxy.add(b, queue: qb)
    qa.suspend()  // nothing runs on a's queue until the sends are done: they are async
    for i in 0..<200 { try Self.tick.send(to: proxy, i) }
    #expect(log.entries.allSatisfy { $0.hasPrefix("b ") })
    qa.resume()
    #expect(eventually { log.entries.count == 400 })
    let forA = log.entries.filter { $0.hasPrefix("a ") }
    let forB = log.entries.filter { $0.hasPrefix("b ") }
    #expect(forA == (0..<200).map { "a \($0) on \(qa.label)" })
    #expect(forB == (0..<200).map { "b \($0) on \(qb.label)" })
  }

  @Test func queuedCopiesCarryStructsStringsObjectsAndPointers() throws {
    let log = CallLog()
    let q = queue("copy")
    let d = Named(cls, "d", log: log)
    let proxy = MulticastProxy()
    try proxy.add(d, queue: q)
    let context = UnsafeMutableRawPointer(bitPattern: 0x1234)
    weak var weakPayload: Named?
    q.suspend()
    do {
      var label = Array("hello".utf8CString)
      let payload = Named(plain, "payload")
      weakPayload = payload
      try label.withUnsafeBufferPointer { buffer in
        try Self.record.send(to: proxy, Point(x: 1.5, y: -2), buffer.baseAddress, payload, context)
      }
      label[0] = CChar(UInt8(ascii: "J"))  // the sender's buffer changes after the send
    }
    #expect(weakPayload != nil)  // kept alive by the queued copy
    q.resume()
    #expect(eventually { log.entries.count == 1 })
    #expect(log.entries == ["1.5,-2.0 hello payload \(context!)"])
    #expect(eventually { weakPayload == nil })  // released once delivered
  }

  @Test func removedBeforeTheQueueRunsIsNotCalled() throws {
    let log = CallLog()
    let q = queue("removed")
    let d = Named(cls, "d", log: log)
    let proxy = MulticastProxy()
    try proxy.add(d, queue: q)
    q.suspend()
    try Self.tick.send(to: proxy, 1)
    proxy.remove(d)
    q.resume()
    q.sync {}
    #expect(log.entries.isEmpty)
  }

  @Test func removeFromOneQueueKeepsTheOther() throws {
    let log = CallLog()
    let q1 = queue("one")
    let q2 = queue("two")
    let d = Named(cls, "d", log: log)
    let proxy = MulticastProxy()
    try proxy.add(d, queue: q1)
    try proxy.add(d, queue: q2)
    #expect(proxy.count == 2)
    proxy.remove(d, queue: q1)
    #expect(proxy.count == 1)
    try Self.tick.send(to: proxy, 7)
    q1.sync {}
    #expect(eventually { log.entries.count == 1 })
    q2.sync {}
    #expect(log.entries == ["d 7 on \(q2.label)"])
  }

  /// The wiki's rule: "If ANY of the delegates return NO, then the result is NO",
  /// answered on the caller's queue without blocking it.
  @Test func anyNoWinsAggregatedOnTheCallersQueue() throws {
    let proxy = MulticastProxy()
    let answers = [true, false, true]
    var keep: [Named] = []
    for (i, answer) in answers.enumerated() {
      let d = Named(cls, "d\(i)")
      d.boolValue.store(answer, ordering: .relaxed)
      keep.append(d)
      try proxy.add(d, queue: queue("d\(i)"))
    }
    let ours = queue("ours")
    let done = DispatchSemaphore(value: 0)
    let outcome = Lock<(Bool?, String?)>((nil, nil))
    try proxy.aggregate(Self.shouldPerform, nil, nil, reducer: .allTrue, completionQueue: ours) {
      result in
      outcome.withLock { $0 = (try? result.get(), QueueMarker.current) }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(outcome.withLock { $0.0 } == false)
    #expect(outcome.withLock { $0.1 } == ours.label)

    keep[1].boolValue.store(true, ordering: .relaxed)
    #expect(
      try awaitResult { c in
        try proxy.aggregate(
          Self.shouldPerform, nil, nil, reducer: .allTrue, completionQueue: ours, completion: c)
      } == true)
    withExtendedLifetime(keep) {}
  }

  @Test func noRespondersUsesTheReducersDefault() throws {
    let proxy = MulticastProxy(
      protocol: try RuntimeProtocol(
        name: uniqueClassName("WorkerDelegate"), optional: ["worker:shouldPerformSubTask:": "B@:@@"]
      ))
    #expect(proxy.count(respondingTo: Self.shouldPerform.selector) == 0)
    #expect(
      try awaitResult { c in
        try proxy.aggregate(
          Self.shouldPerform, nil, nil, reducer: .allTrue, completionQueue: .global(), completion: c
        )
      } == true)
    #expect(
      try awaitResult { c in
        try proxy.aggregate(
          Self.shouldPerform, nil, nil, reducer: .anyTrue, completionQueue: .global(), completion: c
        )
      } == false)
  }

  /// A delegate whose queue calls back synchronously into the caller's queue: a caller
  /// that blocked on the delegates would deadlock.
  @Test func noDeadlockWhenADelegateCallsBackIntoTheCallersQueue() throws {
    let caller = queue("caller")
    let d = Named(cls, "d")
    d.boolValue.store(true, ordering: .relaxed)
    let touched = Atomic<Int>(0)
    d.action.withLock { $0 = { _ in caller.sync { _ = touched.add(1, ordering: .relaxed) } } }
    let proxy = MulticastProxy()
    try proxy.add(d, queue: queue("delegate"))
    let done = DispatchSemaphore(value: 0)
    let answer = Lock<Bool?>(nil)
    caller.async {
      try! proxy.aggregate(Self.shouldPerform, nil, nil, reducer: .allTrue, completionQueue: caller)
      { result in
        answer.withLock { $0 = try? result.get() }
        done.signal()
      }
    }
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(answer.withLock { $0 } == true)
    #expect(touched.load(ordering: .relaxed) == 1)
  }

  @Test func asyncVariantAggregatesAndCollectsInResponderOrder() async throws {
    let proxy = MulticastProxy()
    var keep: [Named] = []
    for i in 0..<4 {
      let d = Named(cls, "d\(i)")
      d.intValue.store(10 * (i + 1), ordering: .relaxed)
      d.boolValue.store(i != 2, ordering: .relaxed)
      if i == 0 { d.action.withLock { $0 = { _ in usleep(20_000) } } }  // the first answers last
      keep.append(d)
      try proxy.add(d, queue: i == 3 ? nil : queue("d\(i)"))
    }
    #expect(try await proxy.collect(Self.height, nil) == [10, 20, 30, 40])
    #expect(try await proxy.aggregate(Self.shouldPerform, nil, nil, reducer: .allTrue) == false)
    #expect(try await proxy.aggregate(Self.shouldPerform, nil, nil, reducer: .anyTrue) == true)
    let sum = Reducer.fold(Double.self, name: "sum", initial: 0, +)
    #expect(try await proxy.aggregate(Self.height, nil, reducer: sum) == 100)
    // `.allTrue` for the `Double` height does not compile: a typed message takes reducers
    // of its own result type. A raw invocation's reducer is still checked at run time.
    let heightCall = try proxy.makeInvocation(Self.height, nil)
    #expect(
      throws: DelegateProxyError.reducerTypeMismatch(reducer: "all true", returnType: "d")
    ) {
      try proxy.aggregate(heightCall, reducer: ReducerSupport.allTrue, completionQueue: .main) { _ in }
    }
    withExtendedLifetime(keep) {}
  }

  /// A synchronous send of a value-returning message cannot wait for queued delegates:
  /// they are called asynchronously and their values do not reach the sender (as in
  /// GCDMulticastDelegate's forwardInvocation:).
  @Test func synchronousValueSendDoesNotWaitForQueuedDelegates() throws {
    let q = queue("slow")
    let d = Named(cls, "d")
    d.boolValue.store(true, ordering: .relaxed)
    let proxy = MulticastProxy()
    try proxy.add(d, queue: q)
    q.suspend()
    #expect(try Self.shouldPerform.send(to: proxy, nil, nil) == false)
    let called = Atomic<Bool>(false)
    d.action.withLock { $0 = { _ in called.store(true, ordering: .relaxed) } }
    q.resume()
    #expect(eventually { called.load(ordering: .relaxed) })
  }

  /// A message no delegate implements is silently ignored (GCDMulticastDelegate's
  /// configuration is silent when empty).
  @Test func unimplementedMessagesAreIgnored() throws {
    let proxy = MulticastProxy(options: .silentWhenEmpty)
    let d = Named(cls, "d")
    try proxy.add(d, queue: queue("q"))
    #expect(proxy.responds(to: Self.tick.selector))
    #expect(!proxy.responds(to: "workerDidVanish:"))
    try proxy.declare(Message<Void, Int>("workerDidVanish:"))
    #expect(throws: Never.self) { try Message<Void, Int>("workerDidVanish:").send(to: proxy, 1) }
  }

  /// Silent means silent whatever the message's types: a typed message (or invocation)
  /// with non-object arguments that no member implements is dropped — by an empty proxy
  /// and by one whose queued members do not implement it — and a value-returning one
  /// answers zero. It carries its own signature; nothing needs declaring. Without
  /// `silentWhenEmpty` the same message is still an unrecognized selector.
  @Test func silentForTypedMessagesWhateverTheirArguments() throws {
    let vanish = Message<Void, Int, Double>("workerDidVanish:after:")
    let remaining = Message<Int, Int>("remainingWorkAfter:")
    let empty = MulticastProxy(options: .silentWhenEmpty)
    let queued = MulticastProxy(options: .silentWhenEmpty)
    try queued.add(Named(cls, "q"), queue: queue("q"))
    for proxy in [empty, queued] {
      #expect(throws: Never.self) { try vanish.send(to: proxy, 1, 2.5) }
      #expect(try remaining.send(to: proxy, 3) == 0)
      let invocation = Invocation(signature: vanish.signature, selector: vanish.selector)
      try invocation.setArgument(7, at: 0)
      try invocation.setArgument(0.5, at: 1)
      #expect(throws: Never.self) { try invocation.invoke(target: proxy) }
      #expect(!proxy.responds(to: vanish.selector))  // silence answers, it does not claim
    }
    let loud = MulticastProxy()
    try loud.add(Named(cls, "l"), queue: queue("l"))
    #expect(
      throws: RuntimeError.unrecognizedSelector(
        className: "MulticastProxy", selector: vanish.selector)
    ) { try vanish.send(to: loud, 1, 2.5) }
  }

  @Test func countsLikeGCDMulticastDelegate() throws {
    let sub = try RuntimeClass(name: uniqueClassName("SubListener"), superclass: cls)
    let proxy = MulticastProxy()
    let a = Named(cls, "a")
    let b = Named(sub, "b")
    let c = Named(plain, "c")
    for d in [a, b, c] { try proxy.add(d, queue: queue("q")) }
    #expect(proxy.count == 3)
    #expect(proxy.count(ofClass: cls) == 2)
    #expect(proxy.count(ofClass: sub) == 1)
    #expect(proxy.count(ofClass: plain) == 1)
    #expect(proxy.count(respondingTo: Self.tick.selector) == 2)
    #expect(proxy.hasDelegate(respondingTo: Self.tick.selector))
    #expect(!proxy.hasDelegate(respondingTo: "nobody:"))
    proxy.remove(a)
    #expect(proxy.count(respondingTo: Self.tick.selector) == 1)
  }

  /// The wiki's hand-written aggregation, with the snapshot enumerator.
  @Test func enumeratorForCustomAggregation() throws {
    let proxy = MulticastProxy()
    let sub = try RuntimeClass(name: uniqueClassName("SubListener"), superclass: cls)
    let a = Named(cls, "a")
    let b = Named(sub, "b")
    let c = Named(plain, "c")
    a.boolValue.store(true, ordering: .relaxed)
    b.boolValue.store(false, ordering: .relaxed)
    let qa = queue("a")
    try proxy.add(a, queue: qa)
    try proxy.add(b, queue: queue("b"))
    try proxy.add(c)

    let all = Array(proxy.delegateEnumerator())
    #expect(all.map { $0.delegate.named.name } == ["a", "b", "c"])
    #expect(all[0].queue === qa && all[2].queue == nil)
    #expect(proxy.delegateEnumerator(ofClass: sub).map { $0.delegate.named.name } == ["b"])
    #expect(
      proxy.delegateEnumerator(respondingTo: Self.shouldPerform.selector).map {
        $0.delegate.named.name
      } == ["a", "b"])

    // A snapshot: a delegate removed after it was made is skipped when reached.
    var snapshot = proxy.delegateEnumerator(respondingTo: Self.shouldPerform.selector)
    proxy.remove(b)
    #expect(snapshot.next()?.delegate === a)
    #expect(snapshot.next() == nil)

    // if ANY delegate returns NO the result is NO — without blocking.
    let group = DispatchGroup()
    let sawNo = Atomic<Bool>(false)
    for (delegate, queue) in proxy.delegateEnumerator(respondingTo: Self.shouldPerform.selector) {
      (queue ?? .global()).async(group: group) {
        if !((try? Self.shouldPerform.send(to: delegate, nil, nil)) ?? true) {
          sawNo.store(true, ordering: .relaxed)
        }
      }
    }
    #expect(group.wait(timeout: .now() + 5) == .success)
    #expect(sawNo.load(ordering: .relaxed) == false)  // b, the NO, was removed
  }
}

/// Runs a completion-handler API and waits (with a deadline) for its result.
func awaitResult<T: Sendable>(
  _ start: (@escaping @Sendable (Result<T, any Error>) -> Void) throws -> Void
) throws -> T {
  let done = DispatchSemaphore(value: 0)
  let box = Lock<Result<T, any Error>?>(nil)
  try start { result in
    box.withLock { $0 = result }
    done.signal()
  }
  guard done.wait(timeout: .now() + 5) == .success else { throw TimedOut() }
  return try box.withLock { $0 }!.get()
}

struct TimedOut: Error {}
