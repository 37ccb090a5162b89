import DelegateProxy
import MessageRuntime
import Testing

// A delegate protocol that refines another, both declared here with @Delegate: the
// refining multicast conforms to the whole hierarchy and fans out the inherited methods
// it restates; an @Optional parent method keeps its optional meaning.

final class Scroller: Sendable {}

@Delegate
protocol ScrollerDelegate: AnyObject {
  func scrollerDidScroll(_ scroller: Scroller)
  @Optional func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool
}

@Delegate
protocol PagedListDelegate: ScrollerDelegate {
  func scrollerDidScroll(_ scroller: Scroller)
  @Optional @Default(true) func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool
  func list(_ list: Scroller, didSelect row: Int)
  func list(_ list: Scroller, titleFor row: Int) -> String?
}

final class PagedListLog: PagedListDelegate, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock; the rest is immutable.
  let name: String
  let heard = Lock<[String]>([])
  init(_ name: String) { self.name = name }
  func scrollerDidScroll(_ scroller: Scroller) { heard.withLock { $0.append("\(name) scrolled") } }
  func list(_ list: Scroller, didSelect row: Int) { heard.withLock { $0.append("\(name) row \(row)") } }
  func list(_ list: Scroller, titleFor row: Int) -> String? { "\(name) \(row)" }
}

final class TopGuard: PagedListDelegate {
  func scrollerDidScroll(_ scroller: Scroller) {}
  func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool { false }
  func list(_ list: Scroller, didSelect row: Int) {}
  func list(_ list: Scroller, titleFor row: Int) -> String? { nil }
}

/// A delegator of the parent protocol only: it takes the refining multicast as it is.
final class PlainScroller {
  weak var delegate: (any ScrollerDelegate)?
  let scroller = Scroller()
  func scroll() { delegate?.scrollerDidScroll(scroller) }
  var scrollsToTop: Bool { delegate?.scrollerShouldScrollToTop(scroller) ?? true }
}

@Suite("Refining delegate protocols")
struct RefiningProtocolTests {
  @Test func theRefiningMulticastFansOutInheritedAndOwnMethods() throws {
    let a = PagedListLog("a")
    let b = PagedListLog("b")
    let list = PagedListDelegateMulticast()
    list.add(a)
    list.add(b)
    let delegator = PlainScroller()
    delegator.delegate = list  // a ScrollerDelegate: the whole hierarchy conforms
    delegator.scroll()
    list.list(Scroller(), didSelect: 4)
    #expect(a.heard.withLock { $0 } == ["a scrolled", "a row 4"])
    #expect(b.heard.withLock { $0 } == ["b scrolled", "b row 4"])
    #expect(list.list(Scroller(), titleFor: 1) == "b 1")
  }

  @Test func anInheritedOptionalMethodKeepsItsOptionalMeaning() throws {
    let list = PagedListDelegateMulticast()
    let log = PagedListLog("log")  // does not implement scrollerShouldScrollToTop
    list.add(log)
    let delegator = PlainScroller()
    delegator.delegate = list
    #expect(delegator.scrollsToTop == true)  // nobody implements it: the declared default
    #expect(delegator.scrollsToTop == true)
    #expect(!list.responds(to: \.scrollerShouldScrollToTop))  // learned from the first call
    let topGuard = TopGuard()
    list.add(topGuard)
    #expect(delegator.scrollsToTop == false)
    #expect(list.count(respondingTo: \.scrollerShouldScrollToTop) == 1)
  }
}
