import MessageRuntime
import Testing

@testable import DelegateProxy

/// The one-to-many delegator with a weak `NSHashTable`: add, remove, every member
/// hears each event, adding twice keeps one, deallocated members drop out.
/// Configuration: `MulticastProxy(options: [.unique, .silentWhenEmpty])`.
@Suite("NSHashTableDelegator") struct NSHashTableDelegatorTests {
  static let eventHappened = Message<Void>("eventHappened")
  let cls: RuntimeClass
  let log = CallLog()

  init() throws {
    cls = try RuntimeClass(name: uniqueClassName("CoolDelegate"))
    try cls.addMethod(Self.eventHappened) { r in r.named.log.append(r.named.name) }
  }

  @Test func everyMemberHearsTheEvent() throws {
    let delegator = MulticastProxy(options: [.unique, .silentWhenEmpty])
    let a = Named(cls, "a", log: log)
    let b = Named(cls, "b", log: log)
    try delegator.add(a)
    try delegator.add(b)
    try Self.eventHappened.send(to: delegator)
    #expect(log.entries.sorted() == ["a", "b"])
  }

  @Test func addingTwiceKeepsOne() throws {
    let delegator = MulticastProxy(options: [.unique, .silentWhenEmpty])
    let a = Named(cls, "a", log: log)
    try delegator.add(a)
    try delegator.add(a)
    try delegator.insert(a, before: nil)
    #expect(delegator.count == 1)
    try Self.eventHappened.send(to: delegator)
    #expect(log.entries == ["a"])

    // Without the option, a delegate added twice is called twice (AIMultiDelegate).
    let list = MulticastProxy()
    try list.add(a)
    try list.add(a)
    #expect(list.count == 2)
  }

  @Test func removeAndDeallocation() throws {
    let delegator = MulticastProxy(options: [.unique, .silentWhenEmpty])
    let a = Named(cls, "a", log: log)
    var b: Named? = Named(cls, "b", log: log)
    try delegator.add(a)
    try delegator.add(b!)
    delegator.remove(a)
    b = nil  // no need to remove a deallocated delegate
    try Self.eventHappened.send(to: delegator)
    #expect(log.entries.isEmpty)
    #expect(delegator.count == 0)
    #expect(!delegator.responds(to: Self.eventHappened.selector))
  }
}
