/// How a `@Delegate` multicast keeps its members.
public struct MulticastOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: UInt8
  /// Creates options from raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Each delegate is a member at most once: adding it again does nothing (the
  /// `NSHashTable` delegator's rule).
  public static let unique = MulticastOptions(rawValue: 1 << 0)
}
