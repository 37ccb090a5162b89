import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// Delegates that change the proxy while being called, or die mid-dispatch.
///
/// The rules: a dispatch runs over the membership it started with; a delegate added
/// during it is not called by it; a delegate removed (or deallocated) during it is not
/// called by it from then on; a delegate being called stays alive until its call
/// returns.
@Suite("Mutation during dispatch") struct MutationDuringDispatchTests {
  typealias M = ScrollMessages
  let cls: RuntimeClass
  let log = CallLog()
  let proxy = MulticastProxy(options: .silentWhenEmpty)

  init() throws { cls = try scrollDelegateClass() }

  func delegates(_ names: String...) throws -> [Named] {
    let made = names.map { Named(cls, $0, log: log) }
    for d in made { try proxy.add(d) }
    return made
  }

  @Test func aDelegateRemovesItself() throws {
    let ds = try delegates("a", "b")
    ds[0].action.withLock { [proxy] in $0 = { me in proxy.remove(me) } }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll"])
    log.clear()
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["b:didScroll"])
  }

  @Test func aDelegateRemovesALaterOne() throws {
    let ds = try delegates("a", "b", "c")
    // Capture the victim, not `ds`: ds[0] holding the array that holds it is a cycle.
    let victim = ds[2]
    ds[0].action.withLock { [proxy] in $0 = { _ in proxy.remove(victim) } }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll"])
  }

  @Test func aDelegateRemovesEveryone() throws {
    let ds = try delegates("a", "b", "c")
    ds[0].action.withLock { [proxy] in $0 = { _ in proxy.removeAll() } }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll"])
    #expect(proxy.count == 0)
  }

  @Test func aDelegateAddsAnother() throws {
    let ds = try delegates("a", "b")
    let late = Named(cls, "late", log: log)
    ds[0].action.withLock { [proxy] in $0 = { _ in try? proxy.add(late) } }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll"])  // not in this dispatch's snapshot
    ds[0].action.withLock { $0 = nil }
    log.clear()
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll", "late:didScroll"])
  }

  @Test func aDelegateDeallocatesALaterOne() throws {
    let ds = try delegates("a", "b")
    let box = Lock<Named?>(Named(cls, "doomed", log: log))
    try proxy.add(box.withLock { $0! })
    ds[0].action.withLock { $0 = { _ in box.withLock { $0 = nil } } }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll"])
    #expect(proxy.members.count == 2)  // compacted after the dispatch
  }

  @Test func aDelegateDropsTheLastReferenceToItself() throws {
    let box = Lock<Named?>(Named(cls, "self-dropping", log: log))
    weak let weakSelf = box.withLock { $0 }
    try proxy.add(box.withLock { $0! })
    let b = try delegates("b")[0]
    box.withLock { $0! }.action.withLock {
      $0 = { me in
        box.withLock { $0 = nil }
        me.log.append("still alive during its call")
      }
    }
    try M.didScroll.send(to: proxy, nil)
    #expect(
      log.entries == ["self-dropping:didScroll", "still alive during its call", "b:didScroll"])
    #expect(weakSelf == nil)  // gone once its call returned
    #expect(proxy.delegates.count == 1 && proxy.delegates.first === b)
  }

  @Test func aDelegateSendsToTheProxyAgain() throws {
    let ds = try delegates("a", "b")
    let depth = Atomic<Int>(0)
    ds[1].action.withLock { [proxy] in
      $0 = { _ in
        if depth.add(1, ordering: .relaxed).newValue == 1 { try? M.didScroll.send(to: proxy, nil) }
      }
    }
    try M.didScroll.send(to: proxy, nil)
    #expect(log.entries == ["a:didScroll", "b:didScroll", "a:didScroll", "b:didScroll"])
  }
}
