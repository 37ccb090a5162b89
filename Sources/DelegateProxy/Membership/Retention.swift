import Dispatch
import MessageRuntime

/// How a multicast holds one of its delegates.
public enum Retention: Sendable, Hashable, CustomStringConvertible {
  /// A weak reference (the default, as in every reference system): the multicast does
  /// not keep the delegate alive; once it is deallocated it is skipped and compacted away.
  case weak
  /// A strong reference: the multicast keeps the delegate alive until it is removed.
  case strong

  /// A readable rendering, for logs and diagnostics.
  public var description: String { self == .weak ? "weak" : "strong" }
}
