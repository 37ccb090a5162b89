import MessageRuntime

/// How a multicast keeps its members and what it does with a message nobody handles — one
/// set of options for both multicasts (`@Delegate`'s and ``MulticastProxy``).
///
/// Each multicast has a stance on duplicates, which ``unique`` and ``allowsDuplicates``
/// override: a `@Delegate` multicast keeps each object once (adding it again does
/// nothing, as `NSHashTable` delegators and `jonasman/MulticastDelegate` do); a
/// ``MulticastProxy`` keeps every addition (`AIMultiDelegate`'s rule). Values — members of
/// a protocol that is not class-bound — have no identity: they are compared with `==` only
/// under ``unique``.
public struct MulticastOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: UInt8
  /// Creates options from raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Each delegate is a member at most once: adding it again does nothing (the
  /// `NSHashTable` delegator's rule). A `@Delegate` multicast does this for objects
  /// without being asked; with this option it compares `Equatable` values with `==` too.
  public static let unique = MulticastOptions(rawValue: 1 << 0)
  /// Messages nobody handles are dropped silently, answering zero (`AIMultiDelegate`'s
  /// and the `NSHashTable` delegator's rule): on a ``MulticastProxy``, a
  /// ``ReturnPolicy/lastResponder`` message no delegate answers; on a `@Delegate`
  /// multicast's C face, a selector the protocol does not have. Without it, both raise an
  /// unrecognized-selector error.
  public static let silentWhenEmpty = MulticastOptions(rawValue: 1 << 1)
  /// The same object may be a member more than once, and hears each call once per
  /// membership (a ``MulticastProxy``'s rule without ``unique``); `remove` drops every
  /// membership of it.
  public static let allowsDuplicates = MulticastOptions(rawValue: 1 << 2)
}
