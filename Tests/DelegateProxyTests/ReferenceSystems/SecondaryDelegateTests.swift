import MessageRuntime
import Testing

@testable import DelegateProxy

/// A delegator with one delegate slot, like `UIScrollView`: it sends `didScroll`
/// (void) and asks `shouldScrollToTop` (value) of whatever its slot targets, checking
/// `responds(to:)` first as UIKit does.
final class ScrollView: Delegator, Sendable {
  let delegateSlot: DelegateSlot

  init(protocol proto: RuntimeProtocol? = nil) { delegateSlot = DelegateSlot(protocol: proto) }

  func scroll() throws {
    guard let target = delegateTarget, target.responds(to: ScrollMessages.didScroll.selector) else {
      return
    }
    try ScrollMessages.didScroll.send(to: target, nil)
  }

  func shouldScrollToTop() throws -> Bool {
    guard let target = delegateTarget,
      target.responds(to: ScrollMessages.shouldScrollToTop.selector)
    else {
      return true
    }
    return try ScrollMessages.shouldScrollToTop.send(to: target, nil)
  }
}

/// The `secondaryDelegate` category on `UIScrollView`, and what it could not do: a late
/// primary delegate, removal, several secondaries.
@Suite("SecondaryDelegate") struct SecondaryDelegateTests {
  let cls: RuntimeClass
  let log = CallLog()

  init() throws { cls = try scrollDelegateClass() }

  @Test func primaryThenSecondaryLastValueWins() throws {
    let view = ScrollView()
    let primary = Named(cls, "primary", log: log)
    let secondary = Named(cls, "secondary", log: log)
    view.delegate = primary
    #expect(view.delegateTarget === primary)
    try view.setSecondaryDelegate(secondary)
    #expect(view.secondaryDelegate === secondary)
    #expect(view.delegate === primary)  // the owner still sees its delegate
    #expect(view.delegateTarget is MulticastProxy)

    try view.scroll()
    #expect(log.entries == ["primary:didScroll", "secondary:didScroll"])
    log.clear()

    primary.boolValue.store(true, ordering: .relaxed)
    secondary.boolValue.store(false, ordering: .relaxed)
    #expect(try view.shouldScrollToTop() == false)  // both called; the last invoked wins
    #expect(log.entries == ["primary:shouldScrollToTop", "secondary:shouldScrollToTop"])
  }

  @Test func respondsToEitherDelegate() throws {
    let onlyScroll = try RuntimeClass(name: uniqueClassName("OnlyScroll"))
    try onlyScroll.addMethod(ScrollMessages.didScroll) { r, _ in
      r.named.log.append("\(r.named.name):didScroll")
    }
    let view = ScrollView()
    let primary = Named(onlyScroll, "primary", log: log)
    let secondary = Named(cls, "secondary", log: log)
    view.delegate = primary
    try view.setSecondaryDelegate(secondary)
    let target = try #require(view.delegateTarget)
    #expect(target.responds(to: ScrollMessages.didScroll.selector))
    // Only the secondary has it.
    #expect(target.responds(to: ScrollMessages.shouldScrollToTop.selector))
    #expect(!target.responds(to: ScrollMessages.willBeginDecelerating.selector))
    secondary.boolValue.store(true, ordering: .relaxed)
    #expect(try view.shouldScrollToTop() == true)
    #expect(log.entries == ["secondary:shouldScrollToTop"])
    // Neither implements it: nothing to call, no error.
    try view.delegateSlot.proxy!.declare(ScrollMessages.willBeginDecelerating)
    #expect(throws: Never.self) { try ScrollMessages.willBeginDecelerating.send(to: target, nil) }
  }

  /// The original required the primary to be set first; here it may come later, or
  /// change, and the secondary stays.
  @Test func latePrimaryKeepsTheSecondary() throws {
    let view = ScrollView()
    let secondary = Named(cls, "secondary", log: log)
    try view.setSecondaryDelegate(secondary)
    try view.scroll()
    #expect(log.entries == ["secondary:didScroll"])
    log.clear()

    let primary = Named(cls, "primary", log: log)
    view.delegate = primary
    try view.scroll()
    #expect(log.entries == ["primary:didScroll", "secondary:didScroll"])
    log.clear()

    let replacement = Named(cls, "replacement", log: log)
    view.delegate = replacement
    try view.scroll()
    #expect(log.entries == ["replacement:didScroll", "secondary:didScroll"])
    #expect(view.secondaryDelegate === secondary)
  }

  @Test func removingTheSecondaryRestoresThePlainDelegate() throws {
    let view = ScrollView()
    let primary = Named(cls, "primary", log: log)
    let secondary = Named(cls, "secondary", log: log)
    view.delegate = primary
    try view.setSecondaryDelegate(secondary)
    let proxy = try #require(view.delegateSlot.proxy)
    try view.setSecondaryDelegate(nil)
    #expect(view.delegateTarget === primary)
    #expect(view.delegateSlot.proxy == nil)
    // A delegator still holding the old proxy no longer reaches the secondary.
    #expect(!proxy.contains(secondary))
    try view.scroll()
    #expect(log.entries == ["primary:didScroll"])
  }

  @Test func severalSecondariesAndWeakHolding() throws {
    let view = ScrollView()
    let primary = Named(cls, "primary", log: log)
    view.delegate = primary
    let logger = Named(cls, "logger", log: log)
    var analytics: Named? = Named(cls, "analytics", log: log)
    try view.addSecondaryDelegate(logger)
    try view.addSecondaryDelegate(analytics!)
    try view.scroll()
    #expect(log.entries == ["primary:didScroll", "logger:didScroll", "analytics:didScroll"])
    log.clear()

    analytics = nil  // held weakly: gone, skipped
    try view.scroll()
    #expect(log.entries == ["primary:didScroll", "logger:didScroll"])
    view.removeSecondaryDelegate(logger)
    #expect(view.delegateTarget === primary)
  }

  @Test func theSlotKeepsTheProxyAliveAndTheProxyKeepsNoDelegateAlive() throws {
    weak var weakProxy: MulticastProxy?
    weak var weakSecondary: Named?
    let view = ScrollView()
    do {
      let secondary = Named(cls, "secondary")
      weakSecondary = secondary
      try view.setSecondaryDelegate(secondary)
      weakProxy = view.delegateSlot.proxy
    }
    #expect(weakSecondary == nil)  // the proxy holds it weakly
    #expect(weakProxy != nil)  // the slot (associated storage) holds the proxy
    view.delegateSlot.removeAllSecondaries()
    #expect(weakProxy == nil)
  }

  @Test func generationChangesWhenTheTargetOrItsAnswersChange() throws {
    let view = ScrollView()
    let slot = view.delegateSlot
    var seen = slot.generation
    func changed() -> Bool {
      let now = slot.generation
      defer { seen = now }
      return now != seen
    }
    let primary = Named(cls, "primary")
    view.delegate = primary
    #expect(changed())
    let secondary = Named(cls, "secondary")
    try view.setSecondaryDelegate(secondary)
    #expect(changed())
    try view.addSecondaryDelegate(Named(cls, "third", log: log))
    #expect(changed())
    #expect(!changed())
    try view.setSecondaryDelegate(nil)
    #expect(changed())
  }
}
