import Synchronization

/// What a typed stub of a `@Delegate` protocol's method answers, in the method's own
/// types: a value, each of a sequence in turn, or the result of code run with the call's
/// arguments.
///
/// ```swift
/// double.stub(\.sensorShouldStart, .returning(true))
/// double.stub(\.sensorThreshold, .returning(inOrder: [30, 35]))
/// double.stub(\.roomTitleFor, .answering { room, row in "Row \(row)" })
/// double.stub(\.roomWillJoin, .throwing(RoomError.full))      // a `throws` method
/// ```
///
/// `Arguments` and `Result` are the handle's: an answer of another type does not compile.
public struct DelegateAnswer<Arguments, Result>: Sendable, CustomStringConvertible {
  /// How the answer is made for one call.
  enum Kind: Sendable {
    /// From the call's arguments (a `throws` method's stub may throw).
    case body(@Sendable (Arguments) throws -> Result)
    /// Without them: a stub that only returns values answers C callers too, whose class
    /// instance arguments are only addresses.
    case value(@Sendable () throws -> Result)
  }
  let kind: Kind
  /// How the answer reads in descriptions ("returns true").
  public let description: String

  init(description: String, _ kind: Kind) {
    self.description = description
    self.kind = kind
  }

  /// The result of `body`, run with the call's arguments (a stub may also write an
  /// `inout` argument's `value`, or call a completion handler it receives). For a
  /// `throws` method `body` may throw: the delegator's call throws the error.
  public static func answering(_ body: @escaping @Sendable (Arguments) throws -> Result)
    -> DelegateAnswer
  {
    DelegateAnswer(description: "runs code", .body(body))
  }

  /// Throws `error` for every call of a `throws` method: the delegator's call throws it
  /// (through the stand-in the double hands it), so its error path is testable.
  ///
  /// ```swift
  /// double.stub(\.downloaderWillStart, .throwing(DownloadError.offline))
  /// ```
  public static func throwing(_ error: any Error) -> DelegateAnswer {
    DelegateAnswer(description: "throws \(error)", .value { throw error })
  }
}

extension DelegateAnswer where Result: Sendable {
  /// `value`, for every call.
  public static func returning(_ value: Result) -> DelegateAnswer {
    DelegateAnswer(description: "returns \(SwiftValueText.of(value))", .value { value })
  }

  /// Each of `values` in turn, one per call; the last answers every later call.
  /// `values` must not be empty.
  public static func returning(inOrder values: [Result]) -> DelegateAnswer {
    precondition(!values.isEmpty, "returning(inOrder:) needs at least one value")
    let counter = AnswerCounter()
    return DelegateAnswer(
      description: "returns " + values.map { SwiftValueText.of($0) }.joined(separator: ", then "),
      .value { values[min(counter.next(), values.count - 1)] })
  }
}

/// How many calls a sequence of answers has served.
final class AnswerCounter: Sendable {
  private let served = Atomic<Int>(0)
  /// The number of calls served before this one.
  func next() -> Int { served.add(1, ordering: .relaxed).oldValue }
}
