import DelegateProxyCTestSupport
import DelegateProxyTestSupport
import Dispatch
import MessageRuntime
import Testing

@testable import DelegateProxy

/// A multicast whose delegates return new objects hands its caller a live one under every
/// policy and fold, on its C route and its forwarding path, to a typed sender and a C
/// caller, and in queued and gathered answers.
@Suite("Object results through a multicast") struct MulticastObjectResultTests {
  static let make = Message<RuntimeObject?>("make")
  static let cell = Message<RuntimeObject?, RuntimeObject?, RuntimeObject?>(
    "tableView:cellForRowAtIndexPath:")

  let lifetimes = Lifetimes()
  let delegates: [RuntimeObject]

  init() throws {
    let tracked = try TrackedObject.makeClass(uniqueClassName("Tracked"))
    let cls = try RuntimeClass(name: uniqueClassName("Maker"))
    let lifetimes = lifetimes
    try cls.addMethod(Self.make) { _ in TrackedObject(class: tracked, lifetimes: lifetimes) }
    try cls.addMethod(Self.cell) { _, _, _ in TrackedObject(class: tracked, lifetimes: lifetimes) }
    delegates = [RuntimeObject(class: cls), RuntimeObject(class: cls), RuntimeObject(class: cls)]
  }

  func tag(_ object: RuntimeObject?) throws -> Int {
    guard let object else { return -1 }
    return try TrackedObject.tag.send(to: object)
  }

  /// Each policy, with the tags of its answers to `make` then `cell` (objects are
  /// numbered in the order the delegates make them; first responder calls one delegate).
  static let policies: [(ReturnPolicy<ReturnValue>, make: Int, cell: Int)] = [
    (.lastResponder, 3, 6), (.firstResponder, 1, 2), (.reduce(.firstNonNil), 1, 4),
    (.reduce(Reducer<ReturnValue>.collect(RuntimeObject?.self) { $0[1] }), 2, 5),
  ]

  @Test(arguments: 0..<4) func typedSendUnderEachPolicy(_ index: Int) throws {
    let (policy, expected, expectedCell) = Self.policies[index]
    let proxy = try MulticastProxy(delegates: delegates, policy: policy)
    do {
      let made = try Self.make.send(to: proxy)
      #expect(try tag(made) == expected)
      let cellValue = try Self.cell.send(to: proxy, nil, nil)
      #expect(try tag(cellValue) == expectedCell)
      #expect(lifetimes.alive == 2)  // the answers the caller kept; the others are gone
    }
    #expect(lifetimes.alive == 0)
  }

  @Test(arguments: 0..<4) func cCallerUnderEachPolicy(_ index: Int) throws {
    let (policy, expected, expectedCell) = Self.policies[index]
    let proxy = try MulticastProxy(delegates: delegates, policy: policy)
    try AutoreleasePool.drain { () throws -> Void in
      let made = dp_test_c_send_object(proxy.rawValue, Self.make.selector.rawValue)
      #expect(try tag(RuntimeObject.object(rawValue: made)) == expected)
      let cellHandle = dp_test_c_send_object2(
        proxy.rawValue, Self.cell.selector.rawValue, nil, nil)
      #expect(try tag(RuntimeObject.object(rawValue: cellHandle)) == expectedCell)
    }
    #expect(lifetimes.alive == 0)
  }

  @Test func invocationThroughTheForwardingPath() throws {
    // An observer keeps the message off the C route: the forwarding path answers.
    let proxy = try MulticastProxy(delegates: delegates, policy: .lastResponder)
    let observed = CallLog()
    let observation = proxy.observe(Self.make.selector) { _ in observed.append("seen") }
    defer { withExtendedLifetime(observation) {} }
    let invocation = Invocation(signature: Self.make.signature, selector: Self.make.selector)
    try invocation.invoke(target: proxy)
    #expect(try tag(invocation.returnValue(as: RuntimeObject?.self)) == 3)
    #expect(try tag(Self.make.send(to: proxy)) == 6)
    #expect(observed.count("seen") == 2)
    #expect(lifetimes.alive == 1)  // what the invocation holds
  }

  @Test func queuedAndGatheredAnswersAreLive() async throws {
    let proxy = MulticastProxy()
    try proxy.add(delegates[0])
    try proxy.add(delegates[1], queue: DispatchQueue(label: "queued answers 1"))
    try proxy.add(delegates[2], queue: DispatchQueue(label: "queued answers 2"))
    let answers = try await proxy.collect(Self.make)
    #expect(try Set(answers.map(tag)) == [1, 2, 3])
    let first = try await proxy.aggregate(Self.make, reducer: .firstNonNil)
    #expect(try (4...6).contains(tag(first)))
  }
}
