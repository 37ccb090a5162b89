import DelegateProxy
import Foundation
import RestateFeed
import Testing

// FeedDelegates.swift is `swift package restate-delegate FeedDelegate --target
// RestatedProtocolTests`'s output. Scripts/restate.sh runs these tests three times:
// as committed (DP_DRIFT unset), after Feed gained `feed(_:didRetract:)` with a default
// and before the command ran again (DP_DRIFT=default: the default answers, the members
// hear nothing), and after it ran (DP_DRIFT=members).

/// A member: `feed(_:didRetract:)` is a plain method until the dependency requires it.
final class Reader: FeedDelegate {
  var published: [String] = []
  var retracted: [String] = []

  func feed(_ feed: Feed, didPublish item: String) { published.append(item) }
  func feed(_ feed: Feed, didRetract item: String) { retracted.append(item) }
}

@Suite("The drift fixture: a dependency that gains a requirement with a default")
struct DriftTests {
  @Test("Each member hears what the multicast forwards; a new requirement only after the rewrite")
  func members() {
    let feed = Feed()
    let first = Reader()
    let second = Reader()
    let readers = FeedDelegatesMulticast()
    readers.add(first)
    readers.add(second)
    feed.delegate = readers
    feed.publish("a")
    feed.retract("a")
    #expect(first.published == ["a"])
    #expect(second.published == ["a"])
    switch ProcessInfo.processInfo.environment["DP_DRIFT"] {
    case "default"?:
      // Out of step: the multicast does not forward the new requirement, so the
      // protocol's default answers it and no member hears it.
      #expect(feed.defaultAnswers == 1)
      #expect(first.retracted.isEmpty && second.retracted.isEmpty)
    case "members"?:
      #expect(feed.defaultAnswers == 0)
      #expect(first.retracted == ["a"])
      #expect(second.retracted == ["a"])
    default:
      #expect(feed.defaultAnswers == 0)
      #expect(first.retracted.isEmpty)
    }
  }
}
