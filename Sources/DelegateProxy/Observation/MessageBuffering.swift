/// How many calls a `messages(_:)` sequence keeps while nobody is iterating: all of them,
/// or the oldest or newest few (`AsyncStream`'s buffering policies, for any element type).
public enum MessageBuffering: Sendable, Hashable {
  /// Every call is kept until it is iterated (the default).
  case unbounded
  /// At most this many calls are kept; later ones are dropped.
  case bufferingOldest(Int)
  /// At most this many calls are kept; older ones make room for newer ones.
  case bufferingNewest(Int)

  /// The stream policy for elements of type `Element`.
  @usableFromInline
  func policy<Element>(for _: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .unbounded: .unbounded
    case .bufferingOldest(let n): .bufferingOldest(n)
    case .bufferingNewest(let n): .bufferingNewest(n)
    }
  }
}
