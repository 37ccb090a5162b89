import DelegateProxy
import MessageRuntime
import Testing

extension SwiftDelegateDouble {
  /// Checks that the method `handle` names was called `count` times — counting only the
  /// calls whose arguments satisfy `condition`, when given — and records a test failure
  /// at the caller's line otherwise, naming the method, the calls that matched and those
  /// that did not, as Swift writes them. Returns whether the check passed.
  ///
  /// ```swift
  /// double.verify(\.sensorShouldStart, called: .once)
  /// double.verify(\.sensorDidRead, called: .once) { sensor, reading in reading.celsius == 21.5 }
  /// ```
  ///
  /// A call whose arguments cannot be read back typed (see ``SwiftDelegateDouble``) fails
  /// a check with a condition.
  @discardableResult
  public func verify<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>, called count: CallCount = .atLeast(1),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    where condition: ((Handle.Arguments) -> Bool)? = nil
  ) -> Bool {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportPendingFailures(at: place)
    let method = knownMethod(handle)
    let all = calls(to: method.selector)
    var matching: [RecordedCall] = []
    var others: [RecordedCall] = []
    var unreadable: [RecordedCall] = []
    for call in all {
      guard let condition else {
        matching.append(call)
        continue
      }
      guard let arguments = Self.arguments(of: call, as: Handle.Arguments.self) else {
        unreadable.append(call)
        continue
      }
      if condition(arguments) { matching.append(call) } else { others.append(call) }
    }
    if !unreadable.isEmpty {
      place.record(unreadableMessage(unreadable, method, Handle.Arguments.self))
    }
    if count.accepts(matching.count) { return unreadable.isEmpty }
    let what = Self.signature(of: method) + (condition == nil ? "" : " with matching arguments")
    var message =
      "Expected \(what) to be called \(count) on \(description), but it was "
      + (matching.isEmpty ? "never called" : "called \(CallCount.times(matching.count))")
    message += matching.isEmpty ? "." : ":" + Self.swiftList(matching)
    if !others.isEmpty {
      message +=
        "\nCalls of \(method.swiftName ?? method.selector.name) with other arguments:"
        + Self.swiftList(others)
    } else if all.isEmpty {
      message += "\n" + swiftSummary()
    }
    place.record(message)
    return false
  }

  /// Checks that the method `handle` names threw — its stub threw to the delegator —
  /// `count` times with an error `error` accepts, and records a test failure at the
  /// caller's line otherwise, listing what each call threw. Returns whether it passed.
  ///
  /// ```swift
  /// double.stub(\.downloaderWillStart, .throwing(DownloadError.offline))
  /// #expect(throws: DownloadError.offline) { try downloader.start() }
  /// double.verify(\.downloaderWillStart, threw: .once) { ($0 as? DownloadError) == .offline }
  /// ```
  @discardableResult
  public func verify<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>, threw count: CallCount = .atLeast(1),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    error: (any Error) -> Bool = { _ in true }
  ) -> Bool {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportPendingFailures(at: place)
    let method = knownMethod(handle)
    let all = calls(to: method.selector)
    let matching = all.filter { $0.thrownError.map(error) ?? false }
    if count.accepts(matching.count) { return true }
    let what = Self.signature(of: method)
    var message =
      "Expected \(what) to throw a matching error \(count) on \(description), but it "
      + (matching.isEmpty ? "never did" : "did \(CallCount.times(matching.count))")
    message += all.isEmpty ? "; it was never called." : ". Its calls:"
    for call in all {
      message +=
        "\n  " + (call.swiftDescription ?? call.description) + " — "
        + (call.thrownError.map { "threw \($0)" } ?? "answered")
    }
    place.record(message)
    return false
  }

  /// Checks that the method `handle` names was never called (with arguments satisfying
  /// `condition`, when given).
  ///
  /// ```swift
  /// double.verifyNever(\.sensorDidStop)
  /// ```
  @discardableResult
  public func verifyNever<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    where condition: ((Handle.Arguments) -> Bool)? = nil
  ) -> Bool {
    verify(
      handle, called: .never, fileID: fileID, filePath: filePath, line: line, column: column,
      where: condition)
  }

  /// Waits until the method `handle` names has been called `count` times (with
  /// arguments satisfying `condition`, when given) — by a delegator on another thread or
  /// queue — and returns the arguments of the last such call; records a test failure at
  /// the caller's line and returns nil when `timeLimit` passes first.
  ///
  /// ```swift
  /// let (_, reading) = try #require(await double.waitForCall(to: \.sensorDidRead))
  /// ```
  @discardableResult
  public func waitForCall<Handle: MessageHandleProtocol>(
    to handle: KeyPath<Handles, Handle>, count: Int = 1, timeLimit: Duration = .seconds(5),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    where condition: (@Sendable (Handle.Arguments) -> Bool)? = nil
  ) async -> Handle.Arguments? {
    let place = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let method = knownMethod(handle)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeLimit)
    while true {
      let matching = calls(to: method.selector).compactMap {
        Self.arguments(of: $0, as: Handle.Arguments.self)
      }.filter { condition?($0) ?? true }
      if matching.count >= count {
        reportPendingFailures(at: place)
        return matching[count - 1]
      }
      if clock.now >= deadline {
        reportPendingFailures(at: place)
        let what =
          Self.signature(of: method) + (condition == nil ? "" : " with matching arguments")
        let message =
          "Timed out after \(timeLimit) waiting for \(what) to be called "
          + "\(CallCount.atLeast(count)) on \(description); it was "
          + (matching.isEmpty ? "never called" : "called \(CallCount.times(matching.count))")
          + ".\n" + swiftSummary()
        place.record(message)
        return nil
      }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// A step of an in-order verification across doubles (``ExpectedCall``): a call of the
  /// method `handle` names on this double (with arguments satisfying `condition`, when
  /// given).
  ///
  /// ```swift
  /// DelegateDouble.verifyInOrder(
  ///   primary.received(\.sensorDidRead), secondary.received(\.sensorDidRead))
  /// ```
  public func received<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>, where condition: ((Handle.Arguments) -> Bool)? = nil
  ) -> ExpectedCall {
    let method = knownMethod(handle)
    return ExpectedCall(
      double: self, selector: method.selector,
      label: (method.swiftName ?? method.selector.name)
        + (condition == nil ? "" : " with matching arguments")
    ) { call in
      guard let condition else { return true }
      return Self.arguments(of: call, as: Handle.Arguments.self).map(condition) ?? false
    }
  }

  // MARK: Messages

  /// `sensorShouldStart(_:) -> Bool`: the Swift name and, unless `Void`, the result type.
  static func signature(of method: DoubledMethod) -> String {
    (method.swiftName ?? method.selector.name) + (method.resultType.map { " -> \($0)" } ?? "")
  }

  static func swiftList(_ calls: [RecordedCall]) -> String {
    calls.map { "\n  \($0.swiftDescription ?? $0.description)" }.joined()
  }

  /// Every call received, as Swift writes them, or "received no calls".
  func swiftSummary() -> String {
    let all = calls
    return all.isEmpty
      ? "\(description) received no calls." : "\(description) received:" + Self.swiftList(all)
  }
}
