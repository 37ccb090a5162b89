import Dispatch
import MessageRuntime
import Testing

@testable import DelegateProxy

/// What a user needs when a delegate message "goes nowhere": the members (class,
/// strong/weak, queue, alive) and, per selector, responders and the policy in force.
@Suite("Introspection") struct IntrospectionTests {
  @Test func descriptionListsMembers() throws {
    let cls = try scrollDelegateClass()
    let proxy = MulticastProxy(options: .silentWhenEmpty)
    let a = Named(cls, "a")
    var gone: Named? = Named(cls, "gone")
    try proxy.add(a)
    try proxy.add(Named(cls, "kept"), queue: DispatchQueue(label: "ui.queue"), retention: .strong)
    try proxy.add(gone!)
    proxy.setPolicy(.reduce(.allTrue), for: ScrollMessages.shouldScrollToTop.selector)
    gone = nil  // listed as deallocated until the next change compacts it
    let text = proxy.description
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("<MulticastProxy 0x"))
    #expect(lines[0].contains("3 member(s)"))
    #expect(lines[0].contains("default policy last responder, silent when empty"))
    #expect(lines[1].contains(cls.name) && lines[1].hasSuffix("weak alive"))
    #expect(lines[2].contains("strong queue=ui.queue alive"))
    #expect(lines[3].hasSuffix("weak deallocated"))
    #expect(text.contains("policy for scrollViewShouldScrollToTop: → reduce(all true)"))
  }

  @Test func aMessageThatGoesNowhereIsExplained() throws {
    let cls = try scrollDelegateClass()
    let other = try RuntimeClass(name: uniqueClassName("Unrelated"))
    let proxy = MulticastProxy()
    let a = Named(cls, "a")
    try proxy.add(a)
    try proxy.add(Named(other, "b"), retention: .strong)

    let nowhere = proxy.selectorReport(for: ScrollMessages.willBeginDecelerating.selector)
    #expect(nowhere.responders.isEmpty)
    #expect(nowhere.signature == nil)
    #expect(!nowhere.respondsTo)
    #expect(nowhere.outcome.hasPrefix("unrecognized selector"))
    #expect(nowhere.description.contains("does not implement it"))

    proxy.setPolicy(.firstResponder, for: ScrollMessages.shouldScrollToTop.selector)
    let value = proxy.selectorReport(for: ScrollMessages.shouldScrollToTop.selector)
    #expect(value.responders.count == 1 && value.responders[0].delegate === a)
    #expect(value.signature === ScrollMessages.shouldScrollToTop.signature)
    #expect(value.signatureSource.description == "delegate \(cls.name)")
    #expect(value.policyIsOverride)
    #expect(value.description.contains("policy: first responder (override)"))
    #expect(value.outcome == "only the first (\(cls.name)) is called; its value is returned")

    proxy.remove(a)
    let afterRemoval = proxy.selectorReport(for: ScrollMessages.didScroll.selector)
    #expect(afterRemoval.signatureSource.description == "declared or remembered")
    #expect(afterRemoval.outcome.contains("set silentWhenEmpty"))
  }
}
