// The drift fixture's dependency: a delegator and its delegate protocol as a package that
// DelegateProxy's users don't own would declare them. Scripts/restate/Feed-v2.swift is the
// next version, which adds a requirement with a default implementation; Scripts/restate.sh
// swaps it in to show `restate-delegate --check` failing, then the rewrite forwarding it.

/// What a feed tells its delegate.
public protocol FeedDelegate: AnyObject {
  /// An item was published.
  func feed(_ feed: Feed, didPublish item: String)
}

/// A delegator with one delegate.
public final class Feed {
  /// The delegate.
  public weak var delegate: (any FeedDelegate)?
  /// How many calls a default implementation of `FeedDelegate` answered.
  public internal(set) var defaultAnswers = 0

  /// A feed.
  public init() {}

  /// Publishes an item.
  public func publish(_ item: String) {
    delegate?.feed(self, didPublish: item)
  }

  /// Retracts an item (this version tells no one).
  public func retract(_ item: String) {}
}
