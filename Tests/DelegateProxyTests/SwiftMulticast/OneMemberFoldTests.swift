import DelegateProxy
import Testing

// A multicast of one member returns that member's answer directly where the method's fold
// would keep it as it is (DelegateMulticast.sendFast, Reduction.answersAlone). These pin
// the answers of a lone member to what the fold gives: each policy, a member answering
// nil, the truth rules, a custom reducer, a filter, and a member removed or gone.

final class SoloDial: Sendable {}

@Delegate
protocol SoloDialDelegate: AnyObject {
  func dialLabel(_ dial: SoloDial) -> String?
  @Default("unset") func dialCaption(_ dial: SoloDial) -> String?
  @Default(-1) func dialValue(_ dial: SoloDial, scale: Int) -> Int
  func dialShouldTurn(_ dial: SoloDial) -> Bool
}

final class SoloDialListener: SoloDialDelegate {
  let label: String?
  let value: Int
  let turns: Bool
  init(label: String?, value: Int = 0, turns: Bool = false) {
    self.label = label
    self.value = value
    self.turns = turns
  }
  func dialLabel(_ dial: SoloDial) -> String? { label }
  func dialCaption(_ dial: SoloDial) -> String? { label }
  func dialValue(_ dial: SoloDial, scale: Int) -> Int { value * scale }
  func dialShouldTurn(_ dial: SoloDial) -> Bool { turns }
}

@Suite("One member: the fold's answer")
struct OneMemberFoldTests {
  let dial = SoloDial()

  @Test(arguments: [
    ReturnPolicy<Any>.lastResponder, .firstResponder, .reduce(.firstNonNil),
    .reduce(.firstAnswer),
  ])
  func aLoneMembersAnswerIsTheAnswer(policy: ReturnPolicy<Any>) {
    let proxy = SoloDialDelegateMulticast(policy: policy)
    let member = SoloDialListener(label: "coarse", value: 7, turns: true)
    proxy.add(member)
    #expect(proxy.dialLabel(dial) == "coarse")
    #expect(proxy.dialCaption(dial) == "coarse")
    #expect(proxy.dialValue(dial, scale: 3) == 21)
    #expect(proxy.dialShouldTurn(dial))
  }

  @Test func aLoneMembersNilIsKeptByLastResponderAndIsNoValueForFirstNonNil() {
    let member = SoloDialListener(label: nil)
    let last = SoloDialDelegateMulticast()
    last.add(member)
    // The member answered: its nil, not the declared default.
    #expect(last.dialCaption(dial) == nil)
    let firstNonNil = SoloDialDelegateMulticast(policy: .reduce(.firstNonNil))
    firstNonNil.add(member)
    // Nobody gave a non-nil answer, but one member answered: the result type's zero.
    #expect(firstNonNil.dialCaption(dial) == nil)
    #expect(firstNonNil.dialLabel(dial) == nil)
  }

  @Test func aLoneMemberIsFoldedByTheTruthRules() {
    let no = SoloDialListener(label: nil, turns: false)
    let yes = SoloDialListener(label: nil, turns: true)
    let proxy = SoloDialDelegateMulticast()
    proxy.setPolicy(.reduce(.allTrue), for: \.dialShouldTurn)
    proxy.add(no)
    #expect(!proxy.dialShouldTurn(dial))
    proxy.remove(no)
    proxy.add(yes)
    #expect(proxy.dialShouldTurn(dial))
    proxy.setPolicy(.reduce(.anyTrue), for: \.dialShouldTurn)
    #expect(proxy.dialShouldTurn(dial))
    proxy.remove(yes)
    proxy.add(no)
    #expect(!proxy.dialShouldTurn(dial))
  }

  @Test func aLoneMembersAnswerGoesThroughACustomReducer() {
    let proxy = SoloDialDelegateMulticast()
    proxy.setPolicy(.reduce(.collect { $0.reduce(100, +) }), for: \.dialValueScale)
    let member = SoloDialListener(label: nil, value: 5)
    proxy.add(member)
    #expect(proxy.dialValue(dial, scale: 2) == 110)
  }

  @Test func aFilteredOutRemovedOrGoneLoneMemberLeavesTheDeclaredDefault() {
    let proxy = SoloDialDelegateMulticast()
    let member = SoloDialListener(label: "fine", value: 4)
    proxy.add(member)
    proxy.setFilter(for: \.dialValueScale) { _, call in call.1 > 0 }
    #expect(proxy.dialValue(dial, scale: 2) == 8)
    #expect(proxy.dialValue(dial, scale: 0) == -1)
    proxy.remove(member)
    #expect(proxy.dialCaption(dial) == "unset")
    do {
      let gone = SoloDialListener(label: "gone", value: 9)
      proxy.add(gone)
      #expect(proxy.dialCaption(dial) == "gone")
    }
    #expect(proxy.dialCaption(dial) == "unset")
    #expect(proxy.dialValue(dial, scale: 1) == -1)
  }
}
