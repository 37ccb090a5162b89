import MessageRuntime

/// Which of its methods a double answers `responds(to:)` for — and has, so that a
/// delegator that caches `responds(to:)` (as UIKit's do) sees exactly these.
public enum RespondingMethods: Sendable, Hashable, CustomStringConvertible {
  /// Every method of the protocol or signature list.
  case all
  /// The required methods only.
  case required
  /// These methods only (each must be one the double knows).
  case only([Selector])

  /// Which methods, in words.
  public var description: String {
    switch self {
    case .all: "all methods"
    case .required: "required methods"
    case .only(let selectors): selectors.map(\.name).joined(separator: ", ")
    }
  }
}
