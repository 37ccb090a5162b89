import MessageRuntime
import Testing

@testable import DelegateProxy

/// A delegator that, like UIKit, asks `responds(to:)` when its delegate is set and
/// caches the answers — unless told to use a `RespondsToCache`, which refreshes when
/// the proxy's generation changes.
final class CachingDelegator: Sendable {
  let cache = RespondsToCache()
  let cachedAtSet: Bool
  let target: MulticastProxy

  init(target: MulticastProxy) {
    self.target = target
    cachedAtSet = target.responds(to: ScrollMessages.didScroll.selector)  // UIKit's snapshot
  }

  func scrollUIKitStyle() throws {
    if cachedAtSet { try ScrollMessages.didScroll.send(to: target, nil) }
  }

  func scrollWithGeneration() throws {
    if cache.responds(target, to: ScrollMessages.didScroll.selector) {
      try ScrollMessages.didScroll.send(to: target, nil)
    }
  }
}

/// The generation number: delegators that cache `responds(to:)` hear delegates added
/// after the proxy was set.
@Suite("Generation number") struct GenerationTests {
  @Test func aCachingDelegatorHearsDelegatesAddedLater() throws {
    let cls = try scrollDelegateClass()
    let proxy = MulticastProxy(options: .silentWhenEmpty)
    let delegator = CachingDelegator(target: proxy)  // set while empty
    let late = Named(cls, "late")
    try proxy.add(late)
    try delegator.scrollUIKitStyle()
    #expect(late.counter.load(ordering: .relaxed) == 0)  // the UIKit-style cache never hears it
    try delegator.scrollWithGeneration()
    #expect(late.counter.load(ordering: .relaxed) == 1)
    proxy.remove(late)
    try delegator.scrollWithGeneration()  // refreshed again: no longer responds, not sent
    #expect(late.counter.load(ordering: .relaxed) == 1)
  }

  @Test func generationChangesWithEveryChangeThatCanChangeAnAnswer() throws {
    let cls = try scrollDelegateClass()
    let proxy = MulticastProxy()
    var last = proxy.generation
    func bumped() -> Bool {
      defer { last = proxy.generation }
      return proxy.generation > last
    }
    let a = Named(cls, "a")
    try proxy.add(a)
    #expect(bumped())
    #expect(!bumped())
    _ = try ScrollMessages.didScroll.send(to: proxy, nil)
    #expect(!bumped())  // sending changes nothing
    let observation = proxy.observe(ScrollMessages.didScroll.selector) { _ in }
    #expect(bumped())
    observation.cancel()
    #expect(bumped())
    try proxy.setProtocol(try RuntimeProtocol(name: uniqueClassName("P"), optional: ["x": "v@:"]))
    #expect(bumped())
    proxy.remove(a)
    #expect(bumped())
    #expect(proxy.generation == proxy.generation)
  }

  @Test func theCacheAsksOncePerGeneration() throws {
    let proxy = MulticastProxy()
    let counting = CountingDelegate(class: try scrollDelegateClass())
    let cache = RespondsToCache()
    #expect(cache.responds(counting, to: ScrollMessages.didScroll.selector))
    #expect(cache.responds(counting, to: ScrollMessages.didScroll.selector))
    #expect(counting.timesAsked == 1)  // a plain object: asked once per selector
    _ = proxy
  }
}
