import DelegateProxyTestSupport
import Dispatch
import Testing

@testable import MessageRuntime

@Suite("Selectors") struct SelectorTests {
  @Test func internedAndComparedByIdentity() {
    let a = Selector("tableView:numberOfRowsInSection:")
    let b = Selector("tableView:" + "numberOfRowsInSection:")
    #expect(a == b)
    #expect(a.raw == b.raw)
    #expect(a != Selector("tableView:cellForRowAtIndexPath:"))
    #expect(a.name == "tableView:numberOfRowsInSection:")
    #expect(a.argumentCount == 2)
    #expect(Selector("count").argumentCount == 0)
  }

  @Test func registeredNeverRegisters() {
    let name = "selectorNobodyRegistered_\(UInt64.random(in: 0...UInt64.max))"
    #expect(Selector.registered(name) == nil)
    let made = Selector(name)
    #expect(Selector.registered(name) == made)
  }

  @Test func concurrentRegistrationYieldsOneSelectorPerName() {
    let names = (0..<2_000).map { "concurrent:sel\($0):" }
    let results = Lock<[[Selector]]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let mine = names.map { Selector($0) }
      results.withLock { $0.append(mine) }
    }
    let all = results.withLock { $0 }
    #expect(all.count == 8)
    for list in all { #expect(list == all[0]) }
    #expect(Set(all[0]).count == names.count)
  }

  @Test(.tags(.stress), .enabled(if: TestSelection.runs("stress"))) func aMillionDistinctSelectors()
  {
    let before = Selector.registeredCount
    var sample: [(String, Selector)] = []
    for i in 0..<1_000_000 {
      let name = "million_\(i):"
      let sel = Selector(name)
      if i % 50_000 == 0 { sample.append((name, sel)) }
    }
    #expect(Selector.registeredCount >= before + 1_000_000)
    for (name, sel) in sample {
      #expect(Selector(name) == sel)
      #expect(sel.name == name)
      #expect(Selector.registered(name) == sel)
    }
  }
}
