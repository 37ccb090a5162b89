import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// A delegate that counts how often it is asked `responds(to:)` or for a signature.
final class CountingDelegate: RuntimeObject, @unchecked Sendable {
  let asked = Atomic<Int>(0)
  let calls = Atomic<Int>(0)
  override func responds(to selector: Selector) -> Bool {
    asked.add(1, ordering: .relaxed)
    return super.responds(to: selector)
  }
  override func methodSignature(for selector: Selector) -> MethodSignature? {
    asked.add(1, ordering: .relaxed)
    return super.methodSignature(for: selector)
  }
  var timesAsked: Int { asked.load(ordering: .relaxed) }
}

/// Per-selector responder lists: a message costs the delegates that implement it, not
/// the members; lists are rebuilt on every change.
@Suite("Responder lists") struct ResponderTableTests {
  static let rare = Message<Void, Int>("rareEvent:")
  static let common = Message<Void, Int>("commonEvent:")

  @Test func aMessageReachesOnlyItsRespondersWithoutAskingMembers() throws {
    let quiet = try RuntimeClass(name: uniqueClassName("Quiet"))
    try quiet.addMethod(Self.common) { _, _ in }
    let rare = try RuntimeClass(name: uniqueClassName("Rare"))
    try rare.addMethod(Self.rare) { r, _ in
      (r as! CountingDelegate).calls.add(1, ordering: .relaxed)
    }
    var members: [CountingDelegate] = []
    let proxy = MulticastProxy()
    for i in 0..<1000 {
      let d = CountingDelegate(class: i % 333 == 5 ? rare : quiet)
      members.append(d)
      try proxy.add(d)
    }
    let responders = members.filter { $0.runtimeClass === rare }
    #expect(responders.count == 3)
    #expect(proxy.selectorReport(for: Self.rare.selector).responders.count == 3)

    for i in 0..<10 { try Self.rare.send(to: proxy, i) }
    #expect(responders.allSatisfy { $0.calls.load(ordering: .relaxed) == 10 })
    #expect(members.allSatisfy { $0.timesAsked == 0 })  // nobody was asked respondsTo
    #expect(proxy.responds(to: Self.rare.selector))
    #expect(proxy.count(respondingTo: Self.rare.selector) == 3)
    #expect(members.allSatisfy { $0.timesAsked == 0 })
  }

  @Test func listsAreRebuiltOnEveryChange() throws {
    let cls = try RuntimeClass(name: uniqueClassName("Listener"))
    try cls.addMethod(Self.rare) { r, _ in r.named.log.append(r.named.name) }
    let log = CallLog()
    let proxy = MulticastProxy()
    let a = Named(cls, "a", log: log)
    let b = Named(cls, "b", log: log)
    let c = Named(cls, "c", log: log)
    let g0 = proxy.generation
    try proxy.add(a)
    try proxy.add(c)
    try proxy.insert(b, after: a)
    #expect(
      proxy.selectorReport(for: Self.rare.selector).responders.map { $0.delegate?.named.name } == [
        "a", "b", "c",
      ])
    proxy.remove(b)
    #expect(
      proxy.selectorReport(for: Self.rare.selector).responders.map { $0.delegate?.named.name } == [
        "a", "c",
      ])
    try Self.rare.send(to: proxy, 0)
    #expect(log.entries == ["a", "c"])
    #expect(proxy.generation > g0)
  }

  @Test func methodsAddedLaterNeedAReload() throws {
    let cls = try RuntimeClass(name: uniqueClassName("Late"))
    let d = Named(cls, "d")
    let proxy = MulticastProxy()
    try proxy.add(d)
    try cls.addMethod(Self.rare) { r, _ in r.named.counter.add(1, ordering: .relaxed) }
    #expect(!proxy.responds(to: Self.rare.selector))  // read when added
    try proxy.reloadMethods()
    #expect(proxy.responds(to: Self.rare.selector))
    try Self.rare.send(to: proxy, 1)
    #expect(d.counter.load(ordering: .relaxed) == 1)

    // A method of the object's own, too.
    try d.setMethod(Self.common) { r, _ in r.named.counter.add(10, ordering: .relaxed) }
    try proxy.reloadMethods()
    try Self.common.send(to: proxy, 1)
    #expect(d.counter.load(ordering: .relaxed) == 11)
  }

  /// A forwarding member (here a nested proxy: a matrioska) is asked at each message,
  /// so its own membership changes are heard without a rebuild of the outer proxy.
  @Test func forwardingMembersAreAskedAtEachMessage() throws {
    let cls = try RuntimeClass(name: uniqueClassName("Inner"))
    try cls.addMethod(Self.rare) { r, i in r.named.log.append("\(r.named.name) \(i)") }
    let log = CallLog()
    let outer = MulticastProxy()
    let inner = MulticastProxy()
    try outer.add(inner, retention: .strong)
    #expect(!outer.responds(to: Self.rare.selector))
    let d = Named(cls, "inner-d", log: log)
    try inner.add(d)
    #expect(outer.responds(to: Self.rare.selector))
    #expect(outer.methodSignature(for: Self.rare.selector) === Self.rare.signature)
    try Self.rare.send(to: outer, 4)
    #expect(log.entries == ["inner-d 4"])
    inner.remove(d)
    #expect(!outer.responds(to: Self.rare.selector))
  }
}
