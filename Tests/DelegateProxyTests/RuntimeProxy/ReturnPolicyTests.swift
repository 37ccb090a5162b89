import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// Return policies as data: a default plus per-selector overrides, one dispatch loop.
@Suite("Return policies") struct ReturnPolicyTests {
  static let shouldBegin = Message<Bool, RuntimeObject?>("gestureShouldBegin:")
  static let heightForRow = Message<Double, RuntimeObject?, Int>("tableView:heightForRow:")
  static let viewFor = Message<RuntimeObject?, Int>("viewForRow:")
  static let count = Message<Int32>("itemCount")

  let cls: RuntimeClass
  let log = CallLog()
  let a: Named
  let b: Named
  let c: Named

  init() throws {
    cls = try RuntimeClass(name: uniqueClassName("Policy"))
    try cls.addMethod(Self.shouldBegin) { r, _ in
      r.named.log.append("\(r.named.name) should")
      return r.named.boolValue.load(ordering: .relaxed)
    }
    try cls.addMethod(Self.heightForRow) { r, _, row in
      r.named.log.append("\(r.named.name) height")
      return Double(r.named.intValue.load(ordering: .relaxed) + row)
    }
    try cls.addMethod(Self.viewFor) { r, _ in
      r.named.log.append("\(r.named.name) view")
      return r.named.intValue.load(ordering: .relaxed) == 2 ? r : nil
    }
    try cls.addMethod(Self.count) { r in Int32(r.named.intValue.load(ordering: .relaxed)) }
    a = Named(cls, "a", log: log)
    b = Named(cls, "b", log: log)
    c = Named(cls, "c", log: log)
    for (d, v, flag) in [(a, 1, true), (b, 2, false), (c, 3, true)] {
      d.intValue.store(v, ordering: .relaxed)
      d.boolValue.store(flag, ordering: .relaxed)
    }
  }

  func proxy(_ policy: ReturnPolicy<ReturnValue> = .lastResponder) throws -> MulticastProxy {
    try MulticastProxy(delegates: [a, b, c], policy: policy)
  }

  @Test func perSelectorChoice() throws {
    let p = try proxy()
    p.setPolicy(.reduce(.allTrue), for: Self.shouldBegin.selector)
    p.setPolicy(.firstResponder, for: Self.heightForRow.selector)
    #expect(try Self.shouldBegin.send(to: p, nil) == false)  // b says no
    #expect(log.entries == ["a should", "b should", "c should"])  // all called
    log.clear()
    #expect(try Self.heightForRow.send(to: p, nil, 10) == 11)  // only a
    #expect(log.entries == ["a height"])
    #expect(try Self.count.send(to: p) == 3)  // the default: last responder
    #expect(p.policy(for: Self.count.selector).description == "last responder")
    p.setPolicy(nil, for: Self.heightForRow.selector)
    #expect(try Self.heightForRow.send(to: p, nil, 10) == 13)
  }

  @Test func builtInReducers() throws {
    let p = try proxy(.reduce(.anyTrue))
    #expect(try Self.shouldBegin.send(to: p, nil) == true)
    p.setPolicy(.reduce(.firstNonNil), for: Self.viewFor.selector)
    log.clear()
    #expect(try Self.viewFor.send(to: p, 0) === b)
    #expect(log.entries == ["a view", "b view", "c view"])  // all called
    p.setPolicy(.reduce(.allTrue), for: Self.count.selector)
    #expect(try Self.count.send(to: p) == 1)  // 1, 2, 3 are all nonzero: true as an int
    p.setPolicy(
      .reduce(.fold(Double.self, name: "max", initial: -1, { max($0, $1) })),
      for: Self.heightForRow.selector)
    #expect(try Self.heightForRow.send(to: p, nil, 0) == 3)
    p.setPolicy(
      .reduce(.collect(Double.self, name: "average") { $0.reduce(0, +) / Double($0.count) }),
      for: Self.heightForRow.selector)
    #expect(try Self.heightForRow.send(to: p, nil, 0) == 2)
    let raw = Reducer(name: "count responders") { values, _ in
      try ReturnValue(Int32(values.count)).bytes
    }
    p.setPolicy(.reduce(raw), for: Self.count.selector)
    #expect(try Self.count.send(to: p) == 3)
  }

  @Test func aReducerThatCannotMakeTheTypeIsATypedError() throws {
    let p = try proxy()
    p.setPolicy(.reduce(.allTrue), for: Self.heightForRow.selector)
    #expect(throws: DelegateProxyError.reducerTypeMismatch(reducer: "all true", returnType: "d")) {
      try Self.heightForRow.send(to: p, nil, 0)
    }
  }

  @Test func emptyReduceGivesTheReducersAnswerForNoValues() throws {
    let p = MulticastProxy(policy: .reduce(.allTrue))
    try p.declare(Self.shouldBegin)
    #expect(try Self.shouldBegin.send(to: p, nil) == true)
    p.defaultPolicy = .reduce(.anyTrue)
    #expect(try Self.shouldBegin.send(to: p, nil) == false)
    p.defaultPolicy = .firstResponder
    #expect(try Self.shouldBegin.send(to: p, nil) == false)  // nothing to call
  }

  /// A C caller gets the policy's result through the proxy's IMP.
  @Test func cCallersGetThePolicysResult() throws {
    let p = try proxy()
    p.setPolicy(.reduce(.allTrue), for: Self.shouldBegin.selector)
    p.setPolicy(.firstResponder, for: Self.heightForRow.selector)
    p.setPolicy(.reduce(.firstNonNil), for: Self.viewFor.selector)
    typealias BoolFn = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Bool
    typealias HeightFn =
      @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, Int) -> Double
    typealias ViewFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> OpaquePointer?
    typealias CountFn = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let should = try p.imp(for: Self.shouldBegin.selector).unsafeCast(to: BoolFn.self)
    let height = try p.imp(for: Self.heightForRow.selector).unsafeCast(to: HeightFn.self)
    let view = try p.imp(for: Self.viewFor.selector).unsafeCast(to: ViewFn.self)
    let count = try p.imp(for: Self.count.selector).unsafeCast(to: CountFn.self)
    #expect(should(p.rawValue, Self.shouldBegin.selector.rawValue, nil) == false)
    b.boolValue.store(true, ordering: .relaxed)
    #expect(should(p.rawValue, Self.shouldBegin.selector.rawValue, nil) == true)
    #expect(height(p.rawValue, Self.heightForRow.selector.rawValue, nil, 5) == 6)
    // An object result is autoreleased for a C caller: drained here, as a C caller would
    // (see MessageRuntime's *Object results*).
    AutoreleasePool.drain {
      #expect(view(p.rawValue, Self.viewFor.selector.rawValue, 0) == b.rawValue)
    }
    #expect(count(p.rawValue, Self.count.selector.rawValue) == 3)
  }
}
