import CMessageRuntime
import DelegateProxyCFFIShim
import Dispatch
import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// Misuse, each case with its defined answer (the table in the DocC catalog,
/// `Misuse.md`, lists them with these tests' names).
@Suite("Misuse") struct MisuseTests {
  static let value = Message<Int, Int>("misuseValue:")
  static let ping = Message<Void, Int>("misusePing:")
  static let flag = Message<Bool, Int>("misuseFlag:")
  static let object = Message<RuntimeObject?, Int>("misuseObject:")
  static let unknown = Message<Int, Int>("misuseUnknown:")

  typealias ValueFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
  typealias PingFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
  typealias FlagFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Bool
  typealias ObjectFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> OpaquePointer?

  /// A class answering every message of this suite; `value:` answers `x + tag` and
  /// counts its calls in `calls`.
  static func delegateClass(tag: Int, calls: Counter? = nil, log: CallLog? = nil) throws
    -> RuntimeClass
  {
    let cls = try RuntimeClass(name: uniqueClassName("Misuse\(tag)"))
    try cls.addMethod(value) { _, x in
      calls?.bump()
      log?.append("value\(tag)")
      return x + tag
    }
    try cls.addMethod(ping) { _, _ in
      calls?.bump()
      log?.append("ping\(tag)")
    }
    try cls.addMethod(flag) { _, _ in tag != 0 }
    try cls.addMethod(object) { receiver, _ in tag != 0 ? receiver : nil }
    return cls
  }

  /// Calls `selector` on `object` the way C does: `dp_msg_lookup`, then the IMP.
  static func cSend(_ object: OpaquePointer?, _ selector: Selector, _ x: Int) -> Int {
    let imp = dp_msg_lookup(object, selector.rawValue)!
    return unsafeBitCast(imp, to: ValueFn.self)(object, selector.rawValue, x)
  }

  // MARK: Unknown selectors

  /// Checked path: a message no delegate implements and no signature describes is the
  /// runtime's typed `unrecognizedSelector`, from `send`, `imp(for:)` and an Invocation;
  /// the proxy does not claim to respond.
  @Test func unknownSelectorOnTheCheckedPathIsATypedError() throws {
    let proxy = MulticastProxy()
    try proxy.add(Named(try Self.delegateClass(tag: 1), "d"), retention: .strong)
    let expected = RuntimeError.unrecognizedSelector(
      className: "MulticastProxy", selector: Self.unknown.selector)
    #expect(!proxy.responds(to: Self.unknown.selector))
    #expect(proxy.methodSignature(for: Self.unknown.selector) == nil)
    #expect(throws: expected) { try Self.unknown.send(to: proxy, 1) }
    #expect(throws: expected) { try proxy.imp(for: Self.unknown.selector) }
    let invocation = Invocation(signature: Self.unknown.signature, selector: Self.unknown.selector)
    #expect(throws: expected) { try invocation.invoke(target: proxy) }
    // Silence makes up no signature for a C sender; a Swift sender's message, which
    // carries its own, is dropped (GCDMulticastDelegateTests).
    proxy.silentWhenEmpty = true
    #expect(proxy.methodSignature(for: Self.unknown.selector) == nil)
    #expect(throws: expected) { try proxy.imp(for: Self.unknown.selector) }
    #expect(try Self.unknown.send(to: proxy, 1) == 0)
  }

  /// C path: the IMP `dp_msg_lookup` hands out for a selector the proxy cannot handle
  /// stops the process with Cocoa's message (a C caller cannot receive an error).
  @Test func unknownSelectorFromCTrapsWithTheCocoaMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let proxy = MulticastProxy()
      _ = MisuseTests.cSend(proxy.rawValue, Selector("misuseUnknownFromC:"), 1)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.contains(
        "-[MulticastProxy misuseUnknownFromC:]: unrecognized selector sent to instance 0x"))
  }

  // MARK: Malformed encodings

  /// A malformed encoding is a typed error wherever one is given — parsing, a class's
  /// method, a protocol — and, from C, `dp_class_add_method` answers false; nothing is
  /// installed.
  @Test func malformedEncodingIsATypedErrorAndInstallsNothing() throws {
    for bad in ["q@:{", "q@:(", "q@:[3", "q@:^", "", "@:", "v@:b"] {
      #expect(throws: RuntimeError.self, "\"\(bad)\"") { try MethodSignature.parse(bad) }
    }
    #expect {
      try MethodSignature.parse("q@:{")
    } throws: { error in
      if case .invalidEncoding = error as? RuntimeError { return true }
      return false
    }
    let cls = try RuntimeClass(name: uniqueClassName("Malformed"))
    let imp = IMP(rawValue: dp_nil_imp()!)
    #expect(throws: RuntimeError.self) { try cls.addMethod("broken:", imp: imp, types: "q@:{") }
    #expect(cls.method(for: "broken:") == nil)
    #expect(!dp_class_add_method(cls.rawValue, Selector("broken:").rawValue, dp_nil_imp(), "q@:["))
    #expect(cls.method(for: "broken:") == nil)
    #expect(throws: RuntimeError.self) {
      try RuntimeProtocol(
        name: uniqueClassName("MalformedProtocol"), optional: ["broken:": "v@:{x"])
    }
    // A proxy given no method for it stays unrecognized.
    let proxy = MulticastProxy()
    try proxy.add(RuntimeObject(class: cls), retention: .strong)
    #expect(!proxy.responds(to: "broken:"))
  }

  // MARK: Signature conflicts

  /// A delegate implementing a selector with other types than the members present is
  /// refused when added (typed error), and both paths keep answering as before.
  @Test func signatureConflictIsRefusedAtAddAndBothPathsAreUnchanged() throws {
    let log = CallLog()
    let good = Named(try Self.delegateClass(tag: 1, log: log), "good")
    let otherClass = try RuntimeClass(name: uniqueClassName("Conflicting"))
    try otherClass.addMethod(Message<Double, Int>("misuseValue:")) { _, _ in 2.5 }
    let conflicting = Named(otherClass, "conflicting")
    let proxy = try MulticastProxy(delegates: [good])
    #expect(
      throws: DelegateProxyError.signatureConflict(
        selector: Self.value.selector, existingEncoding: "q@:q",
        existingOwner: good.runtimeClass.name,
        newEncoding: "d@:q", newClass: otherClass.name)
    ) { try proxy.add(conflicting) }
    #expect(proxy.count == 1)
    #expect(proxy.fastPath(for: Self.value.selector) == .registers)
    #expect(try Self.value.send(to: proxy, 10) == 11)
    #expect(Self.cSend(proxy.rawValue, Self.value.selector, 20) == 21)
    #expect(log.entries == ["value1", "value1"])
  }

  // MARK: Nil and dead delegates

  /// A nil delegate cannot be added (the API takes a non-optional object); nil where nil
  /// is allowed means "none": a slot with no delegate has no target, clearing the
  /// secondary restores the plain delegate, `insert(before: nil)` appends, an
  /// Invocation with no target throws, and messaging nil from C answers zero.
  @Test func nilDelegateMeansNoneAndMessagingNilAnswersZero() throws {
    let slot = DelegateSlot()
    #expect(slot.target == nil)
    slot.delegate = nil
    #expect(slot.target == nil && slot.proxy == nil)
    let secondary = Named(try Self.delegateClass(tag: 2), "secondary")
    try slot.addSecondary(secondary)
    #expect(slot.proxy?.delegates.count == 1)  // the nil primary is not a member
    slot.removeSecondary(secondary)
    #expect(slot.target == nil && slot.proxy == nil)

    let proxy = MulticastProxy()
    let a = Named(try Self.delegateClass(tag: 1), "a")
    let b = Named(try Self.delegateClass(tag: 2), "b")
    try proxy.add(a)
    try proxy.insert(b, before: nil)
    #expect(proxy.delegates.map { ($0 as! Named).name } == ["a", "b"])

    let invocation = Invocation(signature: Self.value.signature, selector: Self.value.selector)
    #expect(throws: RuntimeError.invocationIncomplete("the target is nil")) {
      try invocation.invoke()
    }
    #expect(Self.cSend(nil, Self.value.selector, 5) == 0)
    #expect(Self.cSend(nil, Self.unknown.selector, 5) == 0)  // nil answers even unknown selectors
  }

  /// A delegate deallocated while a member is skipped at once on every path — the C
  /// route, a Swift send, the general path — and compacted away; the others answer.
  @Test func deadDelegateIsSkippedOnEveryPathAndCompacted() throws {
    let calls = Counter()
    let cls = try Self.delegateClass(tag: 1, calls: calls)
    let proxy = MulticastProxy()
    var doomed: Named? = Named(try Self.delegateClass(tag: 100, calls: calls), "doomed")
    let survivor = Named(cls, "survivor")
    try proxy.add(survivor)
    try proxy.add(doomed!)
    weak let weakDoomed = doomed
    #expect(try Self.value.send(to: proxy, 0) == 100)
    calls.reset()
    doomed = nil
    #expect(weakDoomed == nil)
    #expect(proxy.fastPath(for: Self.value.selector) == .registers)
    #expect(try Self.value.send(to: proxy, 0) == 1)  // route: the survivor's value
    #expect(Self.cSend(proxy.rawValue, Self.value.selector, 0) == 1)
    let forwarding = try Runtime.forwardingIMP(for: Self.value.signature)
    #expect(
      forwarding.unsafeCast(to: ValueFn.self)(proxy.rawValue, Self.value.selector.rawValue, 0) == 1)
    #expect(calls.value == 3)  // the survivor only
    #expect(proxy.count == 1)
    #expect(proxy.members.count == 1)  // compacted after the general path met it
  }

  /// When every responder of a routed, value-returning selector has died, the very next
  /// message — before the proxy compacts — gets the policy's no-responder answer, as on
  /// a proxy that never had one: under the default policy (not silent), an unrecognized
  /// selector on the checked path, and the trap from C. (Every policy:
  /// `FastPathTests.aRouteWhoseRespondersDiedAnswersLikeNoResponder`.)
  @Test func allRespondersDeadAnswersTheNoResponderAnswerAtOnce() async throws {
    let proxy = MulticastProxy()
    var doomed: Named? = Named(try Self.delegateClass(tag: 7), "doomed")
    try proxy.add(doomed!)
    #expect(try Self.value.send(to: proxy, 1) == 8)
    doomed = nil
    #expect(!proxy.responds(to: Self.value.selector))
    #expect(proxy.fastPath(for: Self.value.selector) == .registers)  // not rebuilt yet
    #expect(
      throws: RuntimeError.unrecognizedSelector(
        className: "MulticastProxy", selector: Self.value.selector)
    ) { try Self.value.send(to: proxy, 1) }

    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let proxy = MulticastProxy()
      var doomed: Named? = Named(try! MisuseTests.delegateClass(tag: 8), "doomed")
      try! proxy.add(doomed!)
      guard MisuseTests.cSend(proxy.rawValue, MisuseTests.value.selector, 1) == 9 else { exit(0) }
      doomed = nil
      _ = MisuseTests.cSend(proxy.rawValue, MisuseTests.value.selector, 1)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("-[MulticastProxy \(Self.value.selector.name)]: unrecognized selector"))
  }

  // MARK: Cycles

  /// A proxy added to itself is refused with a typed error naming the cycle; nothing
  /// changes and messages still go where they went.
  @Test func proxyAddedToItselfIsACycleError() throws {
    let proxy = MulticastProxy()
    let d = Named(try Self.delegateClass(tag: 1), "d")
    try proxy.add(d)
    let g = proxy.generation
    #expect(throws: DelegateProxyError.cycle(path: [proxy.cycleName, proxy.cycleName])) {
      try proxy.add(proxy)
    }
    #expect(throws: DelegateProxyError.self) { try proxy.insert(proxy, at: 0, retention: .strong) }
    #expect(throws: DelegateProxyError.self) { try proxy.insert(proxy, before: d) }
    #expect(throws: DelegateProxyError.self) { try proxy.insert(proxy, after: d) }
    let unique = MulticastProxy(options: .unique)
    #expect(throws: DelegateProxyError.self) { try unique.add(unique) }
    #expect(proxy.generation == g)
    #expect(proxy.count == 1)
    #expect(try Self.value.send(to: proxy, 1) == 2)
  }

  /// A cycle of proxies (A contains B contains A, or longer, in any position) is
  /// detected when the add that would close it is made — a typed error with the path —
  /// not as infinite recursion when a message is sent.
  @Test func cycleOfProxiesIsDetectedAtAdd() throws {
    let a = MulticastProxy()
    let b = MulticastProxy()
    let c = MulticastProxy()
    let d = Named(try Self.delegateClass(tag: 3), "d")
    try a.add(b, retention: .strong)
    #expect(throws: DelegateProxyError.cycle(path: [b.cycleName, a.cycleName, b.cycleName])) {
      try b.add(a)
    }
    try b.add(d)
    try b.add(c, retention: .strong)
    #expect(
      throws: DelegateProxyError.cycle(path: [c.cycleName, a.cycleName, b.cycleName, c.cycleName])
    ) {
      try c.add(a)
    }
    #expect(throws: DelegateProxyError.self) { try c.insert(b, at: 0) }
    // The error reads as the cycle.
    do {
      try c.add(a)
    } catch {
      #expect(error.description.contains("cycle of proxies"))
      #expect(error.description.contains(" → "))
    }
    // Nothing was added: messages go down the tree once.
    #expect(c.count == 0)
    #expect(try Self.value.send(to: a, 1) == 4)
    // A diamond is not a cycle: the same proxy reachable twice is fine.
    try a.add(c)
    try c.add(Named(try Self.delegateClass(tag: 5), "e"), retention: .strong)
    #expect(try Self.value.send(to: a, 1) == 6)
    // Removing the member that closes the path makes the add legal.
    a.remove(b)
    a.remove(c)
    try b.add(a)
    #expect(b.contains(a))
    withExtendedLifetime(d) {}
  }

  /// Two threads each adding one proxy into the other cannot both succeed: one add is
  /// refused as a cycle.
  @Test func concurrentAddsCannotCloseACycle() throws {
    for _ in 0..<200 {
      let a = MulticastProxy()
      let b = MulticastProxy()
      let refused = Atomic<Int>(0)
      let start = Atomic<Int>(0)
      let threads = [(a, b), (b, a)].map { pair in
        Thread.start {
          start.add(1, ordering: .relaxed)
          while start.load(ordering: .relaxed) < 2 {}
          do { try pair.0.add(pair.1) } catch { refused.add(1, ordering: .relaxed) }
        }
      }
      for t in threads { t.join() }
      #expect(refused.load(ordering: .relaxed) == 1)
      #expect(a.contains(b) != b.contains(a))
    }
  }

  /// A forwarder of another kind is opaque: a cycle closed through it is not detected
  /// (the documented limit — sending into such a cycle recurses like two `NSProxy`s
  /// forwarding to each other). Only the add is made here.
  @Test func cycleThroughAnOpaqueForwarderIsNotDetected() throws {
    final class Relay: ForwardingProxy, @unchecked Sendable {
      let target: RuntimeObject
      init(target: RuntimeObject) {
        self.target = target
        super.init()
      }
      override func methodSignature(for selector: Selector) -> MethodSignature? { nil }
    }
    let proxy = MulticastProxy()
    let relay = Relay(target: proxy)
    try proxy.add(relay)
    #expect(proxy.count == 1)
  }

  // MARK: Objects that are gone

  /// A handle is valid while its object lives (like `id`); after that it is freed memory
  /// and sending to it is undefined, as in Objective-C. What is defined is the window
  /// in between: once the last strong reference is gone, a message arriving through the
  /// handle — here from the object's own deallocation handler, through a cached IMP and
  /// through a fresh `dp_msg_lookup` — runs no Swift code of the object and answers zero.
  @Test func sendingToAHandleWhoseObjectIsGoingAnswersZeroAndRunsNoBody() throws {
    let calls = Counter()
    let cls = try Self.delegateClass(tag: 1, calls: calls)
    let ownCalls = Counter()
    let own = Message<Int, Int>("misuseOwn:")
    let answers = Lock<[String: Int]>([:])
    let visible = Atomic<Int>(0)
    do {
      let d = Named(cls, "dying")
      try d.setMethod(own) { _, x in
        ownCalls.bump()
        return x * 2
      }
      let cached = try d.imp(for: Self.value.selector)
      #expect(try Self.value.send(to: d, 1) == 2)
      #expect(try own.send(to: d, 4) == 8)
      calls.reset()
      ownCalls.reset()
      let valueSelector = Self.value.selector
      d.addDeallocationHandler { handle in
        if RuntimeObject.object(rawValue: handle) != nil { visible.add(1, ordering: .relaxed) }
        let viaCache = cached.unsafeCast(to: ValueFn.self)(handle, valueSelector.rawValue, 41)
        let viaLookup = MisuseTests.cSend(handle, valueSelector, 41)
        let viaOwn = MisuseTests.cSend(handle, own.selector, 41)
        answers.withLock { $0 = ["cached": viaCache, "lookup": viaLookup, "own": viaOwn] }
      }
    }
    #expect(answers.withLock { $0 } == ["cached": 0, "lookup": 0, "own": 0])
    #expect(calls.value == 0)
    #expect(ownCalls.value == 0)
    #expect(visible.load(ordering: .relaxed) == 0)
  }

  /// The same window for a multicast proxy: a message to a proxy being deallocated — on
  /// its C route or its forwarding IMP — reaches no delegate and answers zero.
  @Test func sendingToAProxyBeingDeallocatedReachesNoDelegate() throws {
    let calls = Counter()
    let keep = Named(try Self.delegateClass(tag: 1, calls: calls), "member")
    let answers = Lock<[String: Int]>([:])
    do {
      let proxy = MulticastProxy()
      try proxy.add(keep)
      #expect(proxy.fastPath(for: Self.value.selector) == .registers)
      let route = try proxy.imp(for: Self.value.selector)
      let forwarding = try Runtime.forwardingIMP(for: Self.value.signature)
      #expect(try Self.value.send(to: proxy, 1) == 2)
      calls.reset()
      let valueSelector = Self.value.selector
      proxy.addDeallocationHandler { handle in
        let viaRoute = route.unsafeCast(to: ValueFn.self)(handle, valueSelector.rawValue, 41)
        let viaLookup = MisuseTests.cSend(handle, valueSelector, 41)
        let viaForwarding = forwarding.unsafeCast(to: ValueFn.self)(
          handle, valueSelector.rawValue, 41)
        answers.withLock {
          $0 = ["route": viaRoute, "lookup": viaLookup, "forwarding": viaForwarding]
        }
      }
    }
    #expect(answers.withLock { $0 } == ["route": 0, "lookup": 0, "forwarding": 0])
    #expect(calls.value == 0)
  }

  /// A forwarded (unrouted) selector of a proxy being deallocated, looked up from C
  /// through its handle, answers zero like the routed ones (the resolver sees no live
  /// receiver and hands out the zero-returning IMP instead of the unrecognized trap).
  @Test func forwardedSelectorOfAProxyBeingDeallocatedFromCAnswersZero() async {
    await #expect(processExitsWith: .success) {
      let answer = Lock<Int>(-1)
      do {
        let proxy = MulticastProxy()
        try proxy.declare(MisuseTests.value)
        proxy.setPolicy(
          .reduce(.fold(Int.self, name: "sum", initial: 42, +)), for: MisuseTests.value.selector)
        // A Swift fold: the general path, no route.
        #expect(proxy.fastPath(for: MisuseTests.value.selector) == nil)
        let selector = MisuseTests.value.selector
        proxy.addDeallocationHandler { handle in
          let v = MisuseTests.cSend(handle, selector, 1)
          answer.withLock { $0 = v }
        }
      }
      if answer.withLock({ $0 }) != 0 { exit(3) }
    }
  }

  // MARK: Re-entrancy

  /// A delegate may add and remove members — itself included — while it is being
  /// called, on the C route and on the general path alike: the running dispatch keeps
  /// its snapshot (an added member is not called by it, a removed one is not called from
  /// then on) and the next message sees the change. No deadlock, no recursion.
  @Test(arguments: [false, true])
  func reentrantAddAndRemoveDuringDispatch(generalPath: Bool) throws {
    let log = CallLog()
    let proxy = MulticastProxy()
    let a = Named(try Self.delegateClass(tag: 1, log: log), "a")
    let b = Named(try Self.delegateClass(tag: 2, log: log), "b")
    let late = Named(try Self.delegateClass(tag: 3, log: log), "late")
    let actor = try RuntimeClass(name: uniqueClassName("Reentrant"))
    let round = Atomic<Int>(0)
    // Weakly, as a block captures self: a routed method's closure is kept by the route.
    try actor.addMethod(Self.ping) { [weak proxy] me, _ in
      guard let proxy else { return }
      log.append("actor")
      if round.add(1, ordering: .relaxed).newValue == 1 {
        proxy.remove(me)  // itself
        proxy.remove(b)  // a later member
        try? proxy.add(late)  // a new one
        try? proxy.add(me)  // itself again, at the end
      }
    }
    let reentrant = RuntimeObject(class: actor)
    try proxy.add(a)
    try proxy.add(reentrant)
    try proxy.add(b)
    var observation: MessageObservation?
    if generalPath { observation = proxy.observe(Self.ping.selector) { _ in } }
    #expect(proxy.fastPath(for: Self.ping.selector) == (generalPath ? nil : .registers))
    try Self.ping.send(to: proxy, 0)
    #expect(log.entries == ["ping1", "actor"])
    log.clear()
    try Self.ping.send(to: proxy, 0)
    #expect(log.entries == ["ping1", "ping3", "actor"])
    withExtendedLifetime(observation) {}
  }

  // MARK: No responder

  /// A value-returning message that reaches no responder — a signature is known
  /// (declared here) but no member implements it — answers by policy:
  /// `.lastResponder` throws `unrecognizedSelector` (from C: the process stops, see
  /// `noResponderUnderLastResponderFromCStops`), `.lastResponder` with `silentWhenEmpty`
  /// and `.firstResponder` answer zero, `.reduce` answers the reducer's value for no
  /// values (all-true: true; any-true: false; first-non-nil: nil; a fold: its initial
  /// value). The same from Swift and from C.
  @Test func valueReturningMessageWithNoResponderUnderEachPolicy() throws {
    func proxy(_ policy: ReturnPolicy<ReturnValue>, silent: Bool = false) throws -> MulticastProxy {
      let p = MulticastProxy(policy: policy, options: silent ? .silentWhenEmpty : [])
      try p.declare(Self.value)
      try p.declare(Self.flag)
      try p.declare(Self.object)
      // A member that implements none of them.
      try p.add(RuntimeObject(), retention: .strong)
      return p
    }
    func cValue(_ p: MulticastProxy) -> Int { Self.cSend(p.rawValue, Self.value.selector, 5) }
    func cFlag(_ p: MulticastProxy) -> Bool {
      let imp = dp_msg_lookup(p.rawValue, Self.flag.selector.rawValue)!
      return unsafeBitCast(imp, to: FlagFn.self)(p.rawValue, Self.flag.selector.rawValue, 0)
    }
    func cObject(_ p: MulticastProxy) -> OpaquePointer? {
      let imp = dp_msg_lookup(p.rawValue, Self.object.selector.rawValue)!
      return unsafeBitCast(imp, to: ObjectFn.self)(p.rawValue, Self.object.selector.rawValue, 0)
    }

    let last = try proxy(.lastResponder)
    #expect(
      throws: RuntimeError.unrecognizedSelector(
        className: "MulticastProxy", selector: Self.value.selector)
    ) { try Self.value.send(to: last, 5) }

    let silent = try proxy(.lastResponder, silent: true)
    #expect(try Self.value.send(to: silent, 5) == 0)
    #expect(cValue(silent) == 0)

    let first = try proxy(.firstResponder)
    #expect(try Self.value.send(to: first, 5) == 0)
    #expect(cValue(first) == 0)
    #expect(try Self.object.send(to: first, 0) == nil)

    let allTrue = try proxy(.reduce(.allTrue))
    #expect(try Self.flag.send(to: allTrue, 0) == true)
    #expect(cFlag(allTrue) == true)
    let anyTrue = try proxy(.reduce(.anyTrue))
    #expect(try Self.flag.send(to: anyTrue, 0) == false)
    #expect(cFlag(anyTrue) == false)
    let firstNonNil = try proxy(.reduce(.firstNonNil))
    #expect(try Self.object.send(to: firstNonNil, 0) == nil)
    #expect(cObject(firstNonNil) == nil)
    let fold = try proxy(.reduce(.fold(Int.self, name: "sum+42", initial: 42, +)))
    #expect(try Self.value.send(to: fold, 5) == 42)
    #expect(cValue(fold) == 42)
  }

  /// From C, `.lastResponder` without `silentWhenEmpty` cannot throw: the process stops
  /// with the unrecognized-selector description.
  @Test func noResponderUnderLastResponderFromCStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let p = MulticastProxy()
      try? p.declare(MisuseTests.value)
      _ = MisuseTests.cSend(p.rawValue, MisuseTests.value.selector, 5)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("-[MulticastProxy misuseValue:]: unrecognized selector"))
  }
}
