import MessageRuntime
import Testing

@testable import DelegateProxy

/// Ports LBDelegateMatrioska's spec (LBDelegateMatrioskaTests.m) to the
/// `MulticastProxy(delegates:policy: .firstResponder)` configuration.
@Suite("LBDelegateMatrioska") struct LBDelegateMatrioskaTests {
  static let didSelect = Message<Void>("didSelect")
  static let didDeselect = Message<Void>("didDeselect")
  static let didReturnValue = Message<Int>("didReturnValue")

  let canned: RuntimeProtocol
  let selectClass: RuntimeClass
  let deselectClass: RuntimeClass
  let log = CallLog()
  let first: Named
  let second: Named
  let third: Named
  let matrioska: MulticastProxy

  init() throws {
    canned = try RuntimeProtocol(
      name: uniqueClassName("CannedProtocol"),
      optional: ["didSelect": "v@:", "didDeselect": "v@:", "didReturnValue": "q@:"])
    selectClass = try RuntimeClass(name: uniqueClassName("TestDelegateSelect"))
    selectClass.addProtocol(canned)
    try selectClass.addMethod(Self.didSelect) { r in r.named.log.append("\(r.named.name):didSelect")
    }
    try selectClass.addMethod(Self.didReturnValue) { r in
      r.named.log.append("\(r.named.name):didReturnValue")
      return r.named.intValue.load(ordering: .relaxed)
    }
    deselectClass = try RuntimeClass(name: uniqueClassName("TestDelegateDeselect"))
    deselectClass.addProtocol(canned)
    try deselectClass.addMethod(Self.didDeselect) { r in
      r.named.log.append("\(r.named.name):didDeselect")
    }
    first = Named(selectClass, "first", log: log)
    second = Named(selectClass, "second", log: log)
    third = Named(deselectClass, "third", log: log)
    matrioska = try MulticastProxy(delegates: [first, second, third], policy: .firstResponder)
  }

  @Test func whenCreatedContainsTheObjects() throws {
    #expect(matrioska.count == 3)
    #expect(matrioska.delegates.map { $0.named.name } == ["first", "second", "third"])
    let fourth = Named(selectClass, "fourth")
    try matrioska.add(fourth)
    #expect(matrioska.count == 4)
    matrioska.remove(fourth)
    #expect(matrioska.count == 3)
    matrioska.remove(first)
    #expect(matrioska.count == 2)
  }

  @Test func respondsToAnImplementedSelector() {
    #expect(matrioska.responds(to: Self.didSelect.selector))
    #expect(matrioska.responds(to: Self.didDeselect.selector))
  }

  @Test func doesNotRespondToANotImplementedSelector() {
    #expect(!matrioska.responds(to: "didNotExist"))
    #expect(matrioska.methodSignature(for: "didNotExist") == nil)
  }

  @Test func voidMethodReachesEveryResponder() throws {
    try Self.didSelect.send(to: matrioska)
    #expect(log.entries == ["first:didSelect", "second:didSelect"])  // third does not implement it
    log.clear()
    try Self.didDeselect.send(to: matrioska)
    #expect(log.entries == ["third:didDeselect"])
  }

  @Test func valueReturningMethodCallsOnlyTheFirst() throws {
    first.intValue.store(42, ordering: .relaxed)
    second.intValue.store(1, ordering: .relaxed)
    #expect(try Self.didReturnValue.send(to: matrioska) == 42)
    #expect(log.entries == ["first:didReturnValue"])
  }

  @Test func valueReturningFromCCallsOnlyTheFirst() throws {
    first.intValue.store(42, ordering: .relaxed)
    second.intValue.store(1, ordering: .relaxed)
    let f = try matrioska.imp(for: Self.didReturnValue.selector)
      .unsafeCast(to: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int).self)
    #expect(f(matrioska.rawValue, Self.didReturnValue.selector.rawValue) == 42)
    #expect(log.entries == ["first:didReturnValue"])
  }

  @Test func firstDeallocatedMeansTheNextResponderAnswers() throws {
    second.intValue.store(7, ordering: .relaxed)
    var early: Named? = Named(selectClass, "early", log: log)
    early!.intValue.store(99, ordering: .relaxed)
    try matrioska.insert(early!, at: 0)
    #expect(try Self.didReturnValue.send(to: matrioska) == 99)
    early = nil
    log.clear()
    first.intValue.store(5, ordering: .relaxed)
    #expect(try Self.didReturnValue.send(to: matrioska) == 5)
    #expect(log.entries == ["first:didReturnValue"])
  }

  @Test func conformsToWhenAnyDelegateConforms() throws {
    #expect(matrioska.conforms(to: canned))
    let other = try RuntimeProtocol(name: uniqueClassName("Other"), optional: ["x": "v@:"])
    #expect(!matrioska.conforms(to: other))
    let onlyThird = try MulticastProxy(delegates: [third], policy: .firstResponder)
    #expect(onlyThird.conforms(to: canned))
    let empty = MulticastProxy(policy: .firstResponder)
    #expect(!empty.conforms(to: canned))
  }
}
