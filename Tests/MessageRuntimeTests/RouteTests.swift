import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Synchronization
import Testing

@testable import MessageRuntime

/// A 40-byte result (returned in memory), as in `dp_test_big`.
struct Big: MessageArgument, BitwiseCopyable, Equatable {
  var a, b, c, d, e: Int64
  static let typeEncoding: TypeEncoding = .structure(
    name: "dp_test_big", fields: Array(repeating: .longLong, count: 5))
}

@Suite("Routes (fast forwarding)") struct RouteTests {
  let add = Message<Int, Int, Double>("add:to:")
  let check = Message<Bool, Int>("check:")
  let big = Message<Big>("bigValue")
  let many = Message<
    Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double
  >(
    "a:b:c:d:e:f:g:h:i:j:")

  /// A class whose `add:to:` records its tag and returns `tag * 1000 + a + b`.
  func targets(_ count: Int, log: CallLog) throws -> [RuntimeObject] {
    try (0..<count).map { tag in
      let cls = try RuntimeClass(name: uniqueClassName("Target\(tag)"))
      try cls.addMethod(add) { _, a, b in
        log.append("t\(tag)")
        return tag * 1000 + a + Int(b)
      }
      return RuntimeObject(class: cls)
    }
  }

  @Test func registerRouteReplaysToEveryTargetFromSwiftAndC() throws {
    let log = CallLog()
    let ts = try targets(3, log: log)
    let proxy = ForwardingProxy()
    let members = ts.map { _ in RouteMembership() }
    let path = try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: zip(ts, members).map { RouteTarget($0, membership: $1) },
      reducer: .last)
    #expect(path == .registers)
    #expect(proxy.routePath(for: add.selector) == .registers)
    #expect(try add.send(to: proxy, 1, 2) == 2003)
    #expect(log.entries == ["t0", "t1", "t2"])
    #expect(dp_test_c_send_add(proxy.rawValue, add.selector.rawValue, 5, 5) == 2010)
    #expect(log.entries.count == 6)
    // Swapping the list in place keeps the same route.
    try proxy.setRoute(
      add.selector, signature: add.signature, targets: [RouteTarget(ts[1], membership: members[1])],
      reducer: .last)
    #expect(try add.send(to: proxy, 0, 0) == 1000)
    #expect(proxy.routeTargetCount(for: add.selector) == 1)
  }

  @Test func firstCallsOnlyTheFirstPresentTarget() throws {
    let log = CallLog()
    let ts = try targets(3, log: log)
    let proxy = ForwardingProxy()
    let members = ts.map { _ in RouteMembership() }
    try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: zip(ts, members).map { RouteTarget($0, membership: $1) },
      reducer: .first)
    #expect(try add.send(to: proxy, 1, 1) == 2)
    members[0].markRemoved()
    #expect(try add.send(to: proxy, 1, 1) == 1002)
    #expect(log.entries == ["t0", "t1"])
  }

  @Test(arguments: [
    ([true, true, true], RouteReducer.allTrue, true),
    ([true, false, true], .allTrue, false),
    ([false, false, false], .anyTrue, false),
    ([false, true, false], .anyTrue, true),
  ])
  func booleanRules(answers: [Bool], reducer: RouteReducer, expected: Bool) throws {
    let calls = Atomic<Int>(0)
    let ts = try answers.map { answer in
      let cls = try RuntimeClass(name: uniqueClassName("Checker"))
      try cls.addMethod(check) { _, _ in
        calls.add(1, ordering: .relaxed)
        return answer
      }
      return RuntimeObject(class: cls)
    }
    let proxy = ForwardingProxy()
    try proxy.setRoute(
      check.selector, signature: check.signature,
      targets: ts.map { RouteTarget($0, membership: RouteMembership()) }, reducer: reducer)
    #expect(try check.send(to: proxy, 1) == expected)
    #expect(calls.load(ordering: .relaxed) == answers.count)  // every target called
  }

  @Test func firstNonNilKeepsTheFirstNonNilResult() throws {
    let value = Message<Int>("value")
    let ts = try [0, 7, 9].map { v in
      let cls = try RuntimeClass(name: uniqueClassName("Value"))
      try cls.addMethod(value) { _ in v }
      return RuntimeObject(class: cls)
    }
    let proxy = ForwardingProxy()
    try proxy.setRoute(
      value.selector, signature: value.signature,
      targets: ts.map { RouteTarget($0, membership: RouteMembership()) }, reducer: .firstNonNil)
    #expect(try value.send(to: proxy) == 7)
  }

  @Test func removalDuringDispatchOnTheSameThreadTakesEffectAtOnce() throws {
    let log = CallLog()
    let second = RouteMembership()
    let firstClass = try RuntimeClass(name: uniqueClassName("Remover"))
    try firstClass.addMethod(add) { _, _, _ in
      log.append("first removes second")
      second.markRemoved()
      // The scoped wait, re-entrant: must not wait for this thread's own call.
      Quiescence.waitForCalls(to: UnsafeRawPointer(second.node))
      return 1
    }
    let ts = try targets(2, log: log)
    let remover = RuntimeObject(class: firstClass)
    let proxy = ForwardingProxy()
    try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: [
        RouteTarget(remover, membership: RouteMembership()),
        RouteTarget(ts[0], membership: second), RouteTarget(ts[1], membership: RouteMembership()),
      ], reducer: .last)
    #expect(try add.send(to: proxy, 0, 0) == 1000)
    #expect(log.entries == ["first removes second", "t1"])
  }

  /// Stack arguments and results in memory: replayed by a C entry (x86-64), and on
  /// libffi when asked; the same answers from Swift and from compiled C on both.
  @Test(arguments: [RoutePath?.none, .libffi])
  func memoryResultsAndStackArgumentsOnEveryPath(requested: RoutePath?) throws {
    #if arch(x86_64)
      let replayPath = RoutePath.registersAndMemory
    #else
      let replayPath = RoutePath.libffi
    #endif
    let expectedPath = requested ?? replayPath
    let bigTargets = try (1...3).map { n in
      let cls = try RuntimeClass(name: uniqueClassName("Big"))
      try cls.addMethod(big) { _ in Big(a: Int64(n), b: 2, c: 3, d: 4, e: Int64(n * 10)) }
      return RuntimeObject(class: cls)
    }
    let proxy = ForwardingProxy()
    let path = try proxy.setRoute(
      big.selector, signature: big.signature,
      targets: bigTargets.map { RouteTarget($0, membership: RouteMembership()) }, reducer: .last,
      path: requested)
    #expect(path == expectedPath)
    #expect(try big.send(to: proxy) == Big(a: 3, b: 2, c: 3, d: 4, e: 30))
    let fromC = dp_test_c_send_big(proxy.rawValue, big.selector.rawValue)
    #expect(fromC.a == 3 && fromC.e == 30)
    try proxy.setRoute(
      big.selector, signature: big.signature,
      targets: bigTargets.map { RouteTarget($0, membership: RouteMembership()) }, reducer: .first,
      path: requested)
    #expect(try big.send(to: proxy).a == 1)
    #expect(dp_test_c_send_big(proxy.rawValue, big.selector.rawValue).e == 10)
    // No live target: a zeroed result, not the caller's garbage.
    try proxy.setRoute(
      big.selector, signature: big.signature, targets: [], reducer: .last, path: requested)
    let none = dp_test_c_send_big(proxy.rawValue, big.selector.rawValue)
    #expect([none.a, none.b, none.c, none.d, none.e] == [0, 0, 0, 0, 0])

    let sums = CallLog()
    let manyTargets = try (0..<2).map { tag in
      let cls = try RuntimeClass(name: uniqueClassName("Many"))
      try cls.addMethod(many) { _, a, b, c, d, e, f, g, h, i, j in
        let sum = a + b + c + d + e + f + g + h + i + j
        sums.append("\(tag):\(sum)")
        return sum * Double(tag + 1)
      }
      return RuntimeObject(class: cls)
    }
    #expect(!many.signature.travelsInRegisters)
    #expect(
      try proxy.setRoute(
        many.selector, signature: many.signature,
        targets: manyTargets.map { RouteTarget($0, membership: RouteMembership()) }, reducer: .last,
        path: requested) == expectedPath)
    #expect(try many.send(to: proxy, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 110)
    #expect(dp_test_c_send_many(proxy.rawValue, many.selector.rawValue) == 110)
    #expect(sums.entries == ["0:55.0", "1:55.0", "0:55.0", "1:55.0"])

    // Registers full, then a struct and a 16-aligned long double on the stack, and a
    // result in memory (its pointer takes the first register).
    let spilled = try MethodSignature.parse("{dp_test_big=qqqqq}@:qqqqq{dp_test_big=qqqqq}D")
    let spilledSelector = Selector("spilled:::::::")
    let seen = CallLog()
    let spilledTargets = try (0..<2).map { tag in
      let cls = try RuntimeClass(name: uniqueClassName("Spilled"))
      try cls.addMethod(spilledSelector, signature: spilled) { invocation in
        var sum: Int64 = 0
        for k in 0..<5 { sum += try! invocation.argument(at: k, as: Int64.self) }
        let b = try! invocation.argument(at: 5, as: Big.self)
        let tail = try! invocation.argumentBytes(at: 6)
        seen.append("\(tag):\(sum):\(b.a + b.e):\(Array(tail.prefix(10)))")
        try! invocation.setReturnValue(Big(a: sum, b: b.b, c: b.c, d: b.d, e: Int64(tag)))
      }
      return RuntimeObject(class: cls)
    }
    #expect(
      try proxy.setRoute(
        spilledSelector, signature: spilled,
        targets: spilledTargets.map { RouteTarget($0, membership: RouteMembership()) },
        reducer: .last,
        path: requested) == expectedPath)
    let answer = dp_test_c_send_spilled(proxy.rawValue, spilledSelector.rawValue)
    #expect([answer.a, answer.b, answer.c, answer.d, answer.e] == [15, 20, 30, 40, 1])
    // 0.5 as an x87 80-bit value: mantissa 0x8000000000000000, exponent 0x3FFE.
    let half = "[0, 0, 0, 0, 0, 0, 0, 128, 254, 63]"
    #expect(seen.entries == ["0:15:60:\(half)", "1:15:60:\(half)"])
  }

  @Test func rulesThatCannotBeRoutedAreRefused() throws {
    let ratio = Message<Double>("ratio")
    #expect(RuntimeObject.routePath(for: ratio.signature, reducer: .allTrue) == nil)
    #expect(RuntimeObject.routePath(for: big.signature, reducer: .firstNonNil) == nil)
    #expect(RuntimeObject.routePath(for: check.signature, reducer: .anyTrue) == .registers)
    // {INTEGER, SSE} struct in r9 after a double, with a stack argument: libffi's bug.
    let hit = try MethodSignature.parse("v@:qqqd{M=qd}q")
    #expect(hit.splitCall != nil)
    #if arch(x86_64)
      // Replayed by a C entry, which libffi's bug does not touch; libffi routes refuse it.
      #expect(RuntimeObject.routePath(for: hit, reducer: .last) == .registersAndMemory)
    #else
      #expect(RuntimeObject.routePath(for: hit, reducer: .last) == nil)
    #endif
    #expect(throws: RuntimeError.self) {
      try ForwardingProxy().setRoute(
        Selector("hit"), signature: hit, targets: [], reducer: .last, path: .libffi)
    }
    // Asking for a path the signature cannot take.
    #expect(throws: RuntimeError.self) {
      try ForwardingProxy().setRoute(
        big.selector, signature: big.signature, targets: [], reducer: .last, path: .registers)
    }
    #expect(throws: RuntimeError.self) {
      try ForwardingProxy().setRoute(
        ratio.selector, signature: ratio.signature, targets: [], reducer: .allTrue)
    }
  }

  @Test func aTargetWithOtherTypesIsRefused() throws {
    let cls = try RuntimeClass(name: uniqueClassName())
    try cls.addMethod(Message<Int, Int, Int>("add:to:")) { _, a, b in a + b }
    #expect(
      throws: RuntimeError.signatureMismatch(
        selector: add.selector, expected: "q@:qd", found: "q@:qq")
    ) {
      try ForwardingProxy().setRoute(
        add.selector, signature: add.signature,
        targets: [RouteTarget(RuntimeObject(class: cls), membership: RouteMembership())],
        reducer: .last)
    }
  }

  @Test func staleIMPFallsBackAfterTheRouteIsRemoved() throws {
    let log = CallLog()
    let ts = try targets(1, log: log)
    let proxy = RelayProxy(target: ts[0])  // forwards when not routed
    try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: [RouteTarget(ts[0], membership: RouteMembership())],
      reducer: .last)
    let routed = Runtime.lookup(proxy, add.selector)
    proxy.removeRoute(add.selector)
    #expect(proxy.routePath(for: add.selector) == nil)
    typealias F = @convention(c) (OpaquePointer, OpaquePointer, Int, Double) -> Int
    // The old entry finds no route and re-dispatches to the forwarding path.
    #expect(routed.unsafeCast(to: F.self)(proxy.rawValue, add.selector.rawValue, 2, 3) == 5)
    #expect(log.entries == ["t0"])
  }

  @Test func aTargetThatForwardsIsCalledThroughItsForwardingIMP() throws {
    let log = CallLog()
    let ts = try targets(2, log: log)
    let inner = RelayProxy(target: ts[1])
    let outer = ForwardingProxy()
    try outer.setRoute(
      add.selector, signature: add.signature,
      targets: [
        RouteTarget(ts[0], membership: RouteMembership()),
        RouteTarget(inner, membership: RouteMembership()),
      ],
      reducer: .last)
    #expect(try add.send(to: outer, 1, 1) == 1002)
    #expect(log.entries == ["t0", "t1"])
  }

  @Test func aDeallocatedTargetIsSkipped() throws {
    let log = CallLog()
    var ts = try targets(3, log: log)
    let proxy = ForwardingProxy()
    let memberships = ts.map { _ in RouteMembership() }
    try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: zip(ts, memberships).map { RouteTarget($0, membership: $1) },
      reducer: .last)
    ts.remove(at: 2)  // the last target is deallocated; the route does not keep it
    #expect(memberships[2].isRemoved)
    #expect(try add.send(to: proxy, 0, 0) == 1000)
    #expect(log.entries == ["t0", "t1"])
  }

  @Test func deallocationHandlersRunBeforeTheHandleGoesAway() throws {
    let seen = Lock<(handle: UInt, objectVisible: Bool)>((0, true))
    var expected: UInt = 0
    do {
      let obj = RuntimeObject()
      expected = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(obj.rawValue)))
      obj.addDeallocationHandler { handle in
        // The handle is still valid, but no longer leads to the object.
        let visible = RuntimeObject.object(rawValue: handle) != nil
        let bits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        seen.withLock { $0 = (bits, visible) }
      }
      let removed = obj.addDeallocationHandler { _ in Issue.record("removed handler ran") }
      obj.removeDeallocationHandler(removed)
    }
    let result = seen.withLock { $0 }
    #expect(result.handle == expected)
    #expect(!result.objectVisible)
  }

  @Test func concurrentSendsWhileTargetsAreRemoved() throws {
    let removedAndReturned = Lock<Set<Int>>([])
    let violations = Atomic<Int>(0)
    let calls = Atomic<Int>(0)
    let ts = try (0..<6).map { tag in
      let cls = try RuntimeClass(name: uniqueClassName("Racer\(tag)"))
      try cls.addMethod(add) { _, a, _ in
        calls.add(1, ordering: .relaxed)
        if removedAndReturned.withLock({ $0.contains(tag) }) {
          violations.add(1, ordering: .relaxed)
        }
        return a
      }
      return RuntimeObject(class: cls)
    }
    let members = ts.map { _ in RouteMembership() }
    let proxy = ForwardingProxy()
    try proxy.setRoute(
      add.selector, signature: add.signature,
      targets: zip(ts, members).map { RouteTarget($0, membership: $1) },
      reducer: .last)
    let stop = Atomic<Bool>(false)
    let selector = add.selector
    let senders = (0..<3).map { _ in
      Thread.start {
        while !stop.load(ordering: .relaxed) {
          _ = dp_test_c_send_add(proxy.rawValue, selector.rawValue, 1, 0)
        }
      }
    }
    var remaining = Array(0..<6)
    while remaining.count > 1 {
      let victim = remaining.removeLast()
      members[victim].markRemoved()
      try proxy.setRoute(
        add.selector, signature: add.signature,
        targets: remaining.map { RouteTarget(ts[$0], membership: members[$0]) }, reducer: .last)
      Quiescence.waitForCalls(to: UnsafeRawPointer(members[victim].node))
      removedAndReturned.withLock { _ = $0.insert(victim) }
      let before = calls.load(ordering: .relaxed)
      while calls.load(ordering: .relaxed) < before + 200 {}
    }
    stop.store(true, ordering: .relaxed)
    for s in senders { s.join() }
    #expect(violations.load(ordering: .relaxed) == 0)
    #expect(calls.load(ordering: .relaxed) > 1000)
  }
}
