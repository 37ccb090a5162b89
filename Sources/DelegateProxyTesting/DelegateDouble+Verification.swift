import MessageRuntime
import Testing

extension DelegateDouble {
  /// Checks that `selector` was called `count` times — counting only calls whose
  /// arguments match `matchers` when given — and records a test failure at the caller's
  /// line otherwise, naming the method, the arguments expected and the calls received.
  /// Returns whether the check passed.
  ///
  /// ```swift
  /// double.verify("tableView:numberOfRowsInSection:", called: .exactly(1), with: [.any, 0])
  /// ```
  @discardableResult
  public func verify(
    _ selector: Selector, called count: CallCount = .atLeast(1),
    with matchers: [ArgumentMatcher]? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportPendingFailures(at: place)
    guard let method = checked(selector, matchers, at: place) else { return false }
    let all = calls(to: selector)
    let matching = all.filter { Stub(matchers: matchers, answers: []).accepts($0.arguments) }
    if count.accepts(matching.count) { return true }
    var message =
      "Expected \(Self.describe(method, matchers)) to be called \(count) on \(description), "
      + "but it was \(Self.timesCalled(matching.count))"
    message += matching.isEmpty ? "." : ":" + Self.list(matching)
    let others = all.filter { call in !matching.contains { $0.sequence == call.sequence } }
    if !others.isEmpty {
      message += "\nCalls of \(selector.name) with other arguments:" + Self.list(others)
    } else if all.isEmpty {
      message += "\n" + receivedSummary()
    }
    place.record(message)
    return false
  }

  /// Checks that `selector` was never called (with arguments matching `matchers`, when
  /// given).
  @discardableResult
  public func verifyNever(
    _ selector: Selector, with matchers: [ArgumentMatcher]? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    verify(
      selector, called: .never, with: matchers, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Checks that the double received calls of `selectors` in this order (other calls may
  /// come between them).
  @discardableResult
  public func verifyInOrder(
    _ selectors: [Selector], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    DelegateDouble.verifyInOrder(
      selectors.map { (self, $0) }, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Checks that each double received its message in this order across doubles — a
  /// primary delegate before a secondary, say (other calls may come between them).
  @discardableResult
  public static func verifyInOrder(
    _ steps: [(DelegateDouble, Selector)], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var after: UInt64 = 0
    for (index, (double, selector)) in steps.enumerated() {
      double.reportPendingFailures(at: place)
      guard double.checked(selector, nil, at: place) != nil else { return false }
      if let next = double.calls(to: selector).first(where: { $0.sequence > after }) {
        after = next.sequence
        continue
      }
      let expected = steps.map { "\($0.1.name) on \($0.0.name)" }.joined(separator: ", then ")
      var message = "Expected calls in order: \(expected); "
      message +=
        index == 0
        ? "\(selector.name) was never called on \(double.description)."
        : "no call of \(selector.name) on \(double.description) came after \(steps[index - 1].1.name)."
      let received =
        Set(steps.map { ObjectIdentifier($0.0) }).count == 1
        ? double.calls
        : steps.flatMap { $0.0.calls }.sorted { $0.sequence < $1.sequence }
      message += "\nCalls received, in order:" + (received.isEmpty ? " none" : list(received))
      place.record(message)
      return false
    }
    return true
  }

  /// Waits until `selector` has been called `count` times (with arguments matching
  /// `matchers`, when given) — a delegate called on its queue — and returns the last
  /// such call; records a test failure at the caller's line and returns nil when
  /// `timeLimit` passes first.
  ///
  /// ```swift
  /// let call = await double.waitForCall(to: "stream:didReceive:", timeLimit: .seconds(2))
  /// ```
  @discardableResult
  public func waitForCall(
    to selector: Selector, with matchers: [ArgumentMatcher]? = nil, count: Int = 1,
    timeLimit: Duration = .seconds(5), fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async -> RecordedCall? {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let method = checked(selector, matchers, at: place) else { return nil }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeLimit)
    let filter = Stub(matchers: matchers, answers: [])
    while true {
      let matching = calls(to: selector).filter { filter.accepts($0.arguments) }
      if matching.count >= count {
        reportPendingFailures(at: place)
        return matching[count - 1]
      }
      if clock.now >= deadline {
        reportPendingFailures(at: place)
        let message =
          "Timed out after \(timeLimit) waiting for \(Self.describe(method, matchers)) to be "
          + "called \(CallCount.atLeast(count)) on \(description); it was "
          + "\(Self.timesCalled(matching.count)).\n" + receivedSummary()
        place.record(message)
        return nil
      }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Records, at the caller's line, the failures of calls that arrived outside a test
  /// (a strict double's unexpected calls on a delegate's queue). Every verification does
  /// this first; call it at the end of a test that verifies nothing else.
  public func verifyNoUnexpectedCalls(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportPendingFailures(at: place)
  }

  // MARK: Messages

  /// The method for `selector`, with `matchers` checked against it; nil (and a failure
  /// recorded) when either is wrong.
  fileprivate func checked(
    _ selector: Selector, _ matchers: [ArgumentMatcher]?, at location: IssueLocation
  ) -> DoubledMethod? {
    do {
      let method = try known(selector)
      try validate(matchers, for: method)
      return method
    } catch {
      location.record("Cannot verify: \(error)")
      return nil
    }
  }

  /// Every call received, or "received no calls".
  fileprivate func receivedSummary() -> String {
    let all = calls
    return all.isEmpty
      ? "\(description) received no calls."
      : "\(description) received:" + Self.list(all)
  }

  fileprivate static func describe(_ method: DoubledMethod, _ matchers: [ArgumentMatcher]?)
    -> String
  {
    guard let matchers else { return method.selector.name }
    return "\(method.selector.name)(\(matchers.map(\.description).joined(separator: ", ")))"
  }

  fileprivate static func timesCalled(_ n: Int) -> String {
    n == 0 ? "never called" : "called \(CallCount.times(n))"
  }

  fileprivate static func list(_ calls: [RecordedCall]) -> String {
    calls.map { "\n  \($0)" }.joined()
  }
}
