/// What a double does with a call no stub answers.
public enum DoubleMode: Sendable, Hashable, CustomStringConvertible {
  /// Answer zero (`false`, `0`, `nil`, a zeroed struct) and record the call — or pass it
  /// to the real delegate of a partial double.
  case nice
  /// Record the call and a test failure naming the method and its arguments, then answer
  /// zero: every call must be stubbed (or forwarded, for a partial double).
  case strict

  /// "nice" or "strict".
  public var description: String { self == .nice ? "nice" : "strict" }
}
