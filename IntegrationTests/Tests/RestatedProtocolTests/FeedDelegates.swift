// Every requirement of RestateFeed's FeedDelegate, inherited ones included, restated
// for @Delegate by `swift package restate-delegate FeedDelegate --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import RestateFeed

@Delegate(for: FeedDelegate.self)
protocol FeedDelegates: FeedDelegate {
  func feed(_ feed: Feed, didPublish item: String)
}
