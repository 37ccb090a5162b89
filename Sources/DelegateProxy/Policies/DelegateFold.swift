/// One dispatch's running combination of its responders' results, by the method's
/// ``DelegateRule``: the one place a Swift multicast folds values, for its fast path,
/// its queued path and its asynchronous aggregation. Trivially copyable, so the fast
/// path keeps it in registers; a custom reducer's values are collected by the caller.
@usableFromInline
struct DelegateFold<Result> {
  @usableFromInline let rule: DelegateRule
  /// The value to answer (last, first, first nonzero).
  @usableFromInline var result: Result?
  /// The truth rules' running answer.
  @usableFromInline var truth: Bool
  /// How many responders answered.
  @usableFromInline var answered = 0

  @inlinable
  init(_ rule: DelegateRule) {
    self.rule = rule
    truth = rule == .allTrue
  }

  /// Adds one responder's value; true when no further responder is to be called.
  @inlinable
  mutating func add(_ value: Result) -> Bool {
    answered += 1
    switch rule {
    case .every, .last: result = value
    case .first:
      result = value
      return true
    case .allTrue: if truth && !DelegateFold.isNonZero(value) { truth = false }
    case .anyTrue: if !truth && DelegateFold.isNonZero(value) { truth = true }
    case .firstNonZero: if result == nil && DelegateFold.isNonZero(value) { result = value }
    case .custom: break  // the caller collects the values (the general path only)
    }
    return false
  }

  /// Whether a value's bytes are not all zero: `true`, nonzero, non-nil (the C route
  /// rules' test, on the value's own bytes).
  @inlinable
  static func isNonZero(_ value: Result) -> Bool {
    withUnsafeBytes(of: value) { bytes in bytes.contains { $0 != 0 } }
  }
}
