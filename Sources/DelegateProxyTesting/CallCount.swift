/// How many times a verification expects a method to have been called.
public struct CallCount: Sendable, Hashable, CustomStringConvertible {
  /// The smallest acceptable count.
  package let minimum: Int
  /// The largest acceptable count; nil for no limit.
  package let maximum: Int?

  /// Exactly `n` times.
  public static func exactly(_ n: Int) -> CallCount { CallCount(minimum: n, maximum: n) }
  /// At least `n` times.
  public static func atLeast(_ n: Int) -> CallCount { CallCount(minimum: n, maximum: nil) }
  /// At most `n` times.
  public static func atMost(_ n: Int) -> CallCount { CallCount(minimum: 0, maximum: n) }
  /// Once.
  public static var once: CallCount { .exactly(1) }
  /// Twice.
  public static var twice: CallCount { .exactly(2) }
  /// Never.
  public static var never: CallCount { .exactly(0) }

  /// Whether `count` is acceptable.
  package func accepts(_ count: Int) -> Bool {
    count >= minimum && (maximum.map { count <= $0 } ?? true)
  }

  /// "exactly 2 times", "at least once", "never", "at most 3 times".
  public var description: String {
    switch (minimum, maximum) {
    case (0, 0?): "never"
    case (let n, let m?) where n == m: "exactly \(Self.times(n))"
    case (let n, nil): "at least \(Self.times(n))"
    case (0, let m?): "at most \(Self.times(m))"
    case (let n, let m?): "between \(n) and \(m) times"
    }
  }

  static func times(_ n: Int) -> String {
    switch n {
    case 1: "once"
    case 2: "twice"
    default: "\(n) times"
    }
  }
}
