import MessageRuntime
import Testing

/// One step of an in-order verification across doubles: a call of one method on one
/// double, made by a typed double's ``SwiftDelegateDouble/received(_:where:)``.
///
/// ```swift
/// DelegateDouble.verifyInOrder(
///   primary.received(\.sensorShouldStart),
///   secondary.received(\.sensorShouldStart),
///   primary.received(\.sensorDidRead) { _, reading in reading.celsius > 20 })
/// ```
public struct ExpectedCall {
  /// The double the call must reach.
  package let double: DelegateDouble
  /// The method's selector.
  package let selector: Selector
  /// The method's Swift name, and whether a condition applies, in failure messages.
  package let label: String
  /// Whether a recorded call of the method counts for this step.
  let accepts: (RecordedCall) -> Bool

  init(
    double: DelegateDouble, selector: Selector, label: String,
    accepts: @escaping (RecordedCall) -> Bool
  ) {
    self.double = double
    self.selector = selector
    self.label = label
    self.accepts = accepts
  }
}

extension DelegateDouble {
  /// Checks that the doubles received these calls in this order — each after the one
  /// before it, other calls between them allowed — and records a test failure at the
  /// caller's line otherwise, listing the calls received, in order. Returns whether the
  /// check passed.
  ///
  /// ```swift
  /// DelegateDouble.verifyInOrder(
  ///   primary.received(\.sensorDidRead), secondary.received(\.sensorDidRead))
  /// ```
  @discardableResult
  public static func verifyInOrder(
    _ steps: ExpectedCall..., fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var after: UInt64 = 0
    for (index, step) in steps.enumerated() {
      step.double.reportPendingFailures(at: place)
      if let next = step.double.calls(to: step.selector).first(where: {
        $0.sequence > after && step.accepts($0)
      }) {
        after = next.sequence
        continue
      }
      let expected = steps.map { "\($0.label) on \($0.double.name)" }.joined(
        separator: ", then ")
      var message = "Expected calls in order: \(expected); "
      message +=
        index == 0
        ? "\(step.label) was never called on \(step.double.description)."
        : "no call of \(step.label) on \(step.double.description) came after \(steps[index - 1].label)."
      var seen = Set<ObjectIdentifier>()
      let received = steps.map(\.double).filter { seen.insert(ObjectIdentifier($0)).inserted }
        .flatMap(\.calls).sorted { $0.sequence < $1.sequence }
      let several = seen.count > 1
      message +=
        "\nCalls received, in order:"
        + (received.isEmpty
          ? " none"
          : received.map { call in
            "\n  \(call.swiftDescription ?? call.description)"
              + (several
                ? " on \(steps.first { $0.double.calls.contains { $0.sequence == call.sequence } }?.double.name ?? "?")"
                : "")
          }.joined())
      place.record(message)
      return false
    }
    return true
  }
}
