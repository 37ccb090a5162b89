import DelegateProxy
import MessageRuntime

extension SwiftDelegateDouble {
  /// Answers calls of the method `handle` names — those whose arguments satisfy
  /// `condition`, or all — with the result of `answer`, run with the call's arguments.
  /// The stub added last wins when several accept a call.
  ///
  /// ```swift
  /// double.stub(\.sensorShouldStart) { sensor in sensor.name == "probe" }
  /// double.stub(\.sensorDidRead) { sensor, reading in print(reading) }
  /// double.stub(\.scrollWillEndAt, where: { _, velocity, _ in velocity > 0 }) { _, _, target in
  ///   target.value = 120                                       // an inout argument
  /// }
  /// ```
  ///
  /// `answer` receives the call's own arguments: it may write an `inout` argument's
  /// `value` and call a closure argument. It must not keep the double (capture it
  /// weakly): the double keeps its stubs. For a `throws` method it may throw: the
  /// delegator's call throws the error (through the stand-in the double hands it), so its
  /// error path is testable; a stub of a method that does not throw that throws is a test
  /// failure.
  public func stub<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>,
    where condition: (@Sendable (Handle.Arguments) -> Bool)? = nil,
    _ answer: @escaping @Sendable (Handle.Arguments) throws -> Handle.Result
  ) {
    addStub(handle, condition, DelegateAnswer.answering(answer))
  }

  /// Answers calls of the method `handle` names — those whose arguments satisfy
  /// `condition`, or all — with `answer`.
  ///
  /// ```swift
  /// double.stub(\.sensorShouldStart, .returning(true))
  /// double.stub(\.sensorThreshold, where: { $0.name == "hot" }, .returning(inOrder: [30, 35]))
  /// ```
  public func stub<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>,
    where condition: (@Sendable (Handle.Arguments) -> Bool)? = nil,
    _ answer: DelegateAnswer<Handle.Arguments, Handle.Result>
  ) {
    addStub(handle, condition, answer)
  }

  /// Expects calls of the `Void` method `handle` names — those whose arguments satisfy
  /// `condition`, or all — and answers them by doing nothing: what a
  /// ``DoubleMode/strict`` double needs to accept them.
  ///
  /// ```swift
  /// double.stub(\.sensorDidRead)
  /// ```
  public func stub<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>,
    where condition: (@Sendable (Handle.Arguments) -> Bool)? = nil
  ) where Handle.Result == Void {
    addStub(handle, condition, DelegateAnswer(description: "does nothing", .value {}))
  }

  /// Removes every stub of the method `handle` names.
  public func removeStubs<Handle: MessageHandleProtocol>(_ handle: KeyPath<Handles, Handle>) {
    removeStubs(knownMethod(handle).selector)
  }

  private func addStub<Handle: MessageHandleProtocol>(
    _ handle: KeyPath<Handles, Handle>,
    _ condition: (@Sendable (Handle.Arguments) -> Bool)?,
    _ answer: DelegateAnswer<Handle.Arguments, Handle.Result>
  ) {
    addTypedStub(knownMethod(handle), condition, answer)
  }
}

extension DelegateDouble {
  /// Adds a typed stub of `method` (``SwiftDelegateDouble``'s stubs), answering the calls
  /// whose Swift arguments satisfy `condition` (all when nil) with `answer`.
  func addTypedStub<Arguments, Result>(
    _ method: DoubledMethod, _ condition: (@Sendable (Arguments) -> Bool)?,
    _ answer: DelegateAnswer<Arguments, Result>
  ) {
    var filter: (@Sendable ([RecordedArgument]) -> Bool)? = nil
    if let condition {
      filter = { recorded in
        guard
          let arguments = ArgumentTuple.make(
            recorded.map { $0.swiftArgument?.value }, as: Arguments.self)
        else { return false }
        return condition(arguments)
      }
    }
    let action = StubAnswer.Action.answer { [weak self] invocation, live in
      let body: @Sendable (Arguments) throws -> Result
      switch answer.kind {
      case .value(let value):
        return DelegateDouble.setResult(try value(), of: method, in: invocation)
      case .body(let b):
        body = b
      }
      guard let arguments = ArgumentTuple.make(live, as: Arguments.self) else {
        self?.fail(
          "A stub of \(method.swiftName ?? method.selector.name) on \(self?.description ?? "a double") cannot run: "
            + "its arguments arrived without their Swift values (an object a C caller passed is only an address or handle); it answers zero"
        )
        return nil
      }
      return DelegateDouble.setResult(try body(arguments), of: method, in: invocation)
    }
    let stub = Stub(
      matchers: nil, answers: [StubAnswer(action: action, description: answer.description)],
      filter: filter)
    state.withLock { $0.stubs[method.selector, default: []].append(stub) }
  }

  /// Sets `invocation`'s return value to `result` as the stand-in reads it — its C
  /// form, or a ``SwiftValueObject`` where it has none — and returns what must stay alive
  /// until the stand-in has read it.
  static func setResult<Result>(
    _ result: Result, of method: DoubledMethod, in invocation: Invocation
  ) -> KeptValue? {
    guard !method.signature.returnsVoid, let type = method.resultValueType else { return nil }
    if type.encoding != nil {
      invocation.withUnsafeReturnValue { buffer in
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        type.writeC(result, to: buffer.baseAddress!)
      }
      // A class instance is answered as its unretained address.
      return KeptValue(value: result)
    }
    let object = SwiftValueObject(result)
    invocation.withUnsafeReturnValue {
      $0.storeBytes(of: object.rawValue, as: OpaquePointer.self)
    }
    return KeptValue(value: object)
  }
}
