import MessageRuntime
import Testing

@testable import DelegateProxy

/// Ports AIMultiDelegate's own test suite (AIMultiDelegateTests.m) to the
/// `MulticastProxy()` configuration (last responder, weak, ordered).
@Suite("AIMultiDelegate") struct AIMultiDelegateTests {
  typealias M = ScrollMessages
  let cls: RuntimeClass
  let plain: RuntimeClass

  init() throws {
    cls = try scrollDelegateClass()
    plain = try RuntimeClass(name: uniqueClassName("NSObject"))
  }

  @Test func addDelegate() throws {
    let proxy = MulticastProxy()
    let d0 = Named(plain, "d0")
    try proxy.add(d0)
    #expect(proxy.count == 1)
    #expect(proxy.delegates[0] === d0)

    let d1 = Named(plain, "d1")
    try proxy.insert(d1, before: d0)
    #expect(proxy.count == 2)
    #expect(proxy.delegates[0] === d1)

    let d2 = Named(plain, "d2")
    try proxy.insert(d2, after: d0)
    #expect(proxy.count == 3)
    #expect(proxy.delegates[2] === d2)
    #expect(proxy.delegates.map { $0.named.name } == ["d1", "d0", "d2"])
  }

  @Test func addBeforeAndAfterNil() throws {
    let proxy = MulticastProxy()
    let d = Named(plain, "d")
    try proxy.insert(d, after: nil)
    #expect(proxy.count == 1)
    #expect(proxy.delegates[0] === d)

    proxy.removeAll()
    try proxy.insert(d, before: nil)
    #expect(proxy.count == 1)
    #expect(proxy.delegates[0] === d)
  }

  /// AIMultiDelegate's rule when the other delegate is nil or not a member: "before"
  /// inserts at the end, "after" at the beginning.
  @Test func insertRelativeToAbsentDelegate() throws {
    let proxy = MulticastProxy()
    let a = Named(plain, "a")
    let b = Named(plain, "b")
    let stranger = Named(plain, "stranger")
    try proxy.add(a)
    try proxy.add(b)
    try proxy.insert(Named(plain, "x"), before: nil, retention: .strong)
    try proxy.insert(Named(plain, "y"), after: nil, retention: .strong)
    try proxy.insert(Named(plain, "z"), before: stranger, retention: .strong)
    try proxy.insert(Named(plain, "w"), after: stranger, retention: .strong)
    #expect(proxy.delegates.map { $0.named.name } == ["w", "y", "a", "b", "x", "z"])
  }

  @Test func removeDelegate() throws {
    let proxy = MulticastProxy()
    let d = Named(plain, "d")
    try proxy.add(d)
    #expect(proxy.count == 1)
    proxy.remove(d)
    #expect(proxy.count == 0)
    #expect(!proxy.contains(d))
    proxy.remove(d)  // removing a non-member does nothing
    #expect(proxy.count == 0)
  }

  @Test func respondsToSelector() throws {
    let proxy = MulticastProxy()
    #expect(!proxy.responds(to: M.didScroll.selector))
    let d = Named(cls, "d")
    try proxy.add(d)
    #expect(proxy.responds(to: M.didScroll.selector))
    #expect(!proxy.responds(to: M.willBeginDecelerating.selector))
  }

  /// `[super respondsToSelector:]`: the proxy's own methods count, and run directly.
  @Test func respondsToItsOwnMethods() throws {
    let proxy = MulticastProxy()
    let ping = Message<Int>("ping")
    #expect(!proxy.responds(to: ping.selector))
    try proxy.setMethod(ping) { _ in 7 }
    #expect(proxy.responds(to: ping.selector))
    #expect(try ping.send(to: proxy) == 7)
  }

  @Test func forwardInvocation() throws {
    let proxy = MulticastProxy()
    let d = Named(cls, "d")
    try proxy.add(d)
    #expect(d.counter.load(ordering: .relaxed) == 0)
    try M.didScroll.send(to: proxy, nil)
    #expect(d.counter.load(ordering: .relaxed) == 1)
  }

  @Test func forwardsToEveryResponderInOrder() throws {
    let log = CallLog()
    let proxy = MulticastProxy()
    let a = Named(cls, "a", log: log)
    let none = Named(plain, "none", log: log)
    let b = Named(cls, "b", log: log)
    for d in [a, none, b] { try proxy.add(d) }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll"])
  }

  @Test func returnValue() throws {
    let proxy = MulticastProxy()
    let d = Named(cls, "d")
    d.boolValue.store(true, ordering: .relaxed)
    try proxy.add(d)
    #expect(try M.shouldScrollToTop.send(to: proxy, nil) == true)
  }

  @Test func returnValueOfMultipleDelegates() throws {
    let log = CallLog()
    let proxy = MulticastProxy()
    let d1 = Named(cls, "d1", log: log)
    let d2 = Named(cls, "d2", log: log)
    d1.boolValue.store(false, ordering: .relaxed)
    d2.boolValue.store(true, ordering: .relaxed)
    try proxy.add(d1)
    try proxy.add(d2)
    #expect(try M.shouldScrollToTop.send(to: proxy, nil) == true)
    // Every responder is called.
    #expect(log.entries == ["d1:shouldScrollToTop", "d2:shouldScrollToTop"])

    // The last responder's value, not "any true": reversed, the answer flips.
    let reversed = MulticastProxy()
    try reversed.add(d2)
    try reversed.add(d1)
    #expect(try M.shouldScrollToTop.send(to: reversed, nil) == false)
  }

  /// The README's example: A returns 1, B returns 2, C does not implement it → 2.
  @Test func lastRespondersValueSkipsNonResponders() throws {
    let getInt = Message<Int>("getInt")
    let answering = try RuntimeClass(name: uniqueClassName("Answering"))
    try answering.addMethod(getInt) { r in r.named.intValue.load(ordering: .relaxed) }
    let a = Named(answering, "A")
    let b = Named(answering, "B")
    let c = Named(plain, "C")
    a.intValue.store(1, ordering: .relaxed)
    b.intValue.store(2, ordering: .relaxed)
    let proxy = try MulticastProxy(delegates: [a, b, c])
    #expect(try getInt.send(to: proxy) == 2)
    // From C: the proxy's IMP is a real function pointer that returns the policy's value.
    let imp = try proxy.imp(for: getInt.selector)
    let f = imp.unsafeCast(to: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int).self)
    #expect(f(proxy.rawValue, getInt.selector.rawValue) == 2)
  }

  @Test func emptySilent() throws {
    let proxy = MulticastProxy()
    proxy.silentWhenEmpty = true
    #expect(throws: Never.self) { try M.didScroll.send(to: proxy, nil) }
    // From C too (the forwarding IMP for the "any signature" answer).
    let imp = try proxy.imp(for: M.didScroll.selector)
    let f = imp.unsafeCast(
      to: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void).self)
    f(proxy.rawValue, M.didScroll.selector.rawValue, nil)
  }

  @Test func emptyNotSilentIsUnrecognized() throws {
    let proxy = MulticastProxy()
    #expect(
      throws: RuntimeError.unrecognizedSelector(
        className: "MulticastProxy", selector: M.didScroll.selector)
    ) {
      try M.didScroll.send(to: proxy, nil)
    }
    // A known signature but no live responder: still unrecognized (forwardInvocation's
    // doesNotRecognizeSelector:), unless silent.
    let d = Named(cls, "d")
    try proxy.add(d)
    proxy.remove(d)
    #expect(
      throws: RuntimeError.unrecognizedSelector(
        className: "MulticastProxy", selector: M.didScroll.selector)
    ) {
      try M.didScroll.send(to: proxy, nil)
    }
    proxy.silentWhenEmpty = true
    #expect(throws: Never.self) { try M.didScroll.send(to: proxy, nil) }
    #expect(try M.shouldScrollToTop.send(to: proxy, nil) == false)  // nothing called: zero
  }

  @Test func deallocatedDelegate() throws {
    let proxy = MulticastProxy()
    var d1: Named? = Named(cls, "d1")
    let d2 = Named(cls, "d2")
    try proxy.add(d1!)
    try proxy.add(d2)
    weak let weakD1 = d1
    d1 = nil  // force deallocation of one delegate
    #expect(weakD1 == nil)
    #expect(throws: Never.self) { try M.didScroll.send(to: proxy, nil) }
    #expect(d2.counter.load(ordering: .relaxed) == 1)
    #expect(proxy.count == 1)
    #expect(proxy.members.count == 1)  // compacted after the dispatch that met it
  }
}
