import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Testing

@testable import MessageRuntime

/// A method that returns a new object hands its caller a live one on every path: the
/// method's reference ends when it returns, the runtime autoreleases the result into the
/// calling thread's pool, and each caller either takes its own reference (typed send,
/// `Invocation`) or uses it until its pool drains (C).
@Suite("Object results") struct ObjectResultTests {
  static let make = Message<RuntimeObject>("make")
  static let makeOptional = Message<RuntimeObject?>("makeOptional")
  static let cell = Message<RuntimeObject, RuntimeObject?, RuntimeObject?>(
    "tableView:cellForRowAtIndexPath:")

  let lifetimes = Lifetimes()
  let tracked: RuntimeClass
  let factory: RuntimeObject

  init() throws {
    tracked = try TrackedObject.makeClass(uniqueClassName("Tracked"))
    let cls = try RuntimeClass(name: uniqueClassName("Factory"))
    let (tracked, lifetimes) = (tracked, lifetimes)
    try cls.addMethod(Self.make) { _ in TrackedObject(class: tracked, lifetimes: lifetimes) }
    try cls.addMethod(Self.makeOptional) { _ in
      TrackedObject(class: tracked, lifetimes: lifetimes)
    }
    // A data source's cell: new on every call, numbered after the index path's tag.
    try cls.addMethod(Self.cell) { _, _, indexPath in
      _ = indexPath.map { try? TrackedObject.tag.send(to: $0) }
      return TrackedObject(class: tracked, lifetimes: lifetimes)
    }
    factory = RuntimeObject(class: cls)
  }

  /// Sends `tag` to `object`: a method of the result runs, so the result is alive.
  func tag(_ object: RuntimeObject?) throws -> Int {
    guard let object else { return -1 }
    return try TrackedObject.tag.send(to: object)
  }

  @Test func typedSendOfAFactoryMethodReturnsALiveObject() throws {
    let pooled = AutoreleasePool.count
    do {
      let r = try Self.make.send(to: factory)
      #expect(r is TrackedObject)
      #expect(try tag(r) == 1)
      #expect(lifetimes.alive == 1)
      #expect(AutoreleasePool.count == pooled)  // the send drained what it added
    }
    #expect(lifetimes.alive == 0)  // the caller's reference was the last
    let optional = try Self.makeOptional.send(to: factory)
    #expect(try tag(optional) == 2)
  }

  @Test func typedSendOfCellForRowAtIndexPathReturnsALiveCell() throws {
    let indexPath = TrackedObject(class: tracked, lifetimes: lifetimes)
    let cells = try (0..<3).map { _ in try Self.cell.send(to: factory, nil, indexPath) }
    #expect(try cells.map(tag) == [2, 3, 4])
    #expect(lifetimes.alive == 4)
  }

  @Test func invocationReturnValueIsOwnedByTheInvocation() throws {
    let pooled = AutoreleasePool.count
    var invocation: Invocation? = Invocation(
      signature: Self.make.signature, selector: Self.make.selector)
    try invocation!.invoke(target: factory)
    #expect(AutoreleasePool.count == pooled)
    do {
      let r = try invocation!.returnValue(as: RuntimeObject.self)
      #expect(try tag(r) == 1)
    }
    #expect(lifetimes.alive == 1)  // the invocation holds its return value
    invocation = nil
    #expect(lifetimes.alive == 0)
  }

  @Test func invocationOfCellForRowAtIndexPathReturnsALiveCell() throws {
    let invocation = Invocation(signature: Self.cell.signature, selector: Self.cell.selector)
    try invocation.setArgument(factory, at: 0)
    try invocation.invoke(target: factory)
    #expect(try tag(invocation.returnValue(as: RuntimeObject.self)) == 1)
    let copy = invocation.copy()
    try invocation.invoke(target: factory)  // replaces the result; the copy keeps its own
    #expect(try tag(copy.returnValue(as: RuntimeObject.self)) == 1)
    #expect(try tag(invocation.returnValue(as: RuntimeObject.self)) == 2)
  }

  @Test func cCallerThroughDPMsgSendGetsALiveObjectUntilItsPoolDrains() throws {
    try AutoreleasePool.drain { () throws -> Void in
      let handle = dp_test_c_send_object(factory.rawValue, Self.make.selector.rawValue)
      #expect(handle != nil)
      #expect(try tag(RuntimeObject.object(rawValue: handle)) == 1)
      #expect(lifetimes.alive == 1)
    }
    #expect(lifetimes.alive == 0)  // the pool held the only reference
    // A C caller with a pool of its own, using the result from C.
    #expect(
      dp_test_c_make_then_tag(
        factory.rawValue, Self.make.selector.rawValue, TrackedObject.tag.selector.rawValue) == 2)
    #expect(lifetimes.alive == 0)
  }

  @Test func cCallerOfCellForRowAtIndexPathGetsALiveCell() throws {
    try AutoreleasePool.drain { () throws -> Void in
      let handles = (0..<3).map { _ in
        dp_test_c_send_object2(factory.rawValue, Self.cell.selector.rawValue, nil, nil)
      }
      #expect(try handles.map { try tag(RuntimeObject.object(rawValue: $0)) } == [1, 2, 3])
    }
    #expect(lifetimes.alive == 0)
  }

  @Test func threadExitDrainsItsPool() throws {
    let (factory, lifetimes) = (factory, lifetimes)
    let alive = Lock(0)
    Thread.start {
      // No pool: the thread's exit drains it.
      _ = dp_test_c_send_object(factory.rawValue, Self.make.selector.rawValue)
      alive.withLock { $0 = lifetimes.alive }
    }.join()
    #expect(alive.withLock { $0 } == 1)
    #expect(lifetimes.alive == 0)
  }

  @Test func forwardedFactoryMessageReturnsALiveObject() throws {
    let proxy = ObjectMakingProxy(class: tracked, lifetimes: lifetimes)
    #expect(try tag(Self.make.send(to: proxy)) == 1)
    #expect(lifetimes.alive == 0)
    try AutoreleasePool.drain { () throws -> Void in
      let handle = dp_test_c_send_object(proxy.rawValue, Self.make.selector.rawValue)
      #expect(try tag(RuntimeObject.object(rawValue: handle)) == 2)
    }
    let invocation = Invocation(signature: Self.make.signature, selector: Self.make.selector)
    try invocation.invoke(target: proxy)
    #expect(try tag(invocation.returnValue(as: RuntimeObject.self)) == 3)
    #expect(lifetimes.alive == 1)
  }
}

/// A forwarder that answers every `@@:` message with a new object it does not keep.
// @unchecked Sendable: its own state is two `let`s of Sendable types.
private final class ObjectMakingProxy: ForwardingProxy, @unchecked Sendable {
  let cls: RuntimeClass
  let lifetimes: Lifetimes
  init(class cls: RuntimeClass, lifetimes: Lifetimes) {
    self.cls = cls
    self.lifetimes = lifetimes
    super.init()
  }
  override func methodSignature(for selector: Selector) -> MethodSignature? {
    ObjectResultTests.make.signature
  }
  override func forwardInvocation(_ invocation: Invocation) throws {
    try invocation.setReturnValue(TrackedObject(class: cls, lifetimes: lifetimes) as RuntimeObject)
  }
}
