import MessageRuntime

extension DelegateDouble {
  /// Answers calls of `selector` — those whose arguments match `matchers`, or all when
  /// nil — with `answers`: a return value (or a sequence), writes through out-pointers,
  /// code, forwarding. The stub added last wins when several match.
  ///
  /// ```swift
  /// try double.stub("tableView:numberOfRowsInSection:", .returning(3))
  /// try double.stub("tableView:numberOfRowsInSection:", with: [.any, 0], .returning(5))
  /// try double.stub("scrollViewWillEndDragging:withVelocity:targetContentOffset:",
  ///                 .writing(Point(x: 0, y: 120), toArgument: 2))
  /// ```
  ///
  /// Throws ``DoubleError`` naming the method when it is unknown, when the matchers'
  /// count or a value's type does not fit its signature, when an out-pointer write
  /// names an argument that is not a pointer, or when it forwards with no delegate.
  public func stub(
    _ selector: Selector, with matchers: [ArgumentMatcher]? = nil, _ answers: StubAnswer...
  ) throws(DoubleError) {
    let method = try known(selector)
    try validate(matchers, for: method)
    for answer in answers { try validate(answer, for: method) }
    state.withLock { s in
      s.stubs[selector, default: []].append(Stub(matchers: matchers, answers: answers))
    }
  }

  /// Removes every stub of `selector`.
  public func removeStubs(_ selector: Selector) {
    _ = state.withLock { $0.stubs.removeValue(forKey: selector) }
  }

  /// Answers `selector` with `bytes` (a value of `type`) ahead of its stubs until the
  /// returned function runs, which puts the stubs back as they were (`DeliveryCheck`'s
  /// answers).
  func answerTemporarily(_ selector: Selector, with bytes: [UInt8], type: TypeEncoding)
    -> @Sendable () -> Void
  {
    let answer = StubAnswer(
      action: .returnBytes([bytes], type),
      description: "returns \(ValueText.text(bytes, type, dereference: false))")
    let saved = state.withLock { s in
      let saved = s.stubs[selector]
      s.stubs[selector, default: []].append(Stub(matchers: nil, answers: [answer]))
      return saved
    }
    return { [self] in state.withLock { $0.stubs[selector] = saved } }
  }

  /// Checks `matchers` against `method`'s arguments.
  func validate(_ matchers: [ArgumentMatcher]?, for method: DoubledMethod) throws(DoubleError) {
    guard let matchers else { return }
    guard matchers.count == method.arity else {
      throw .matcherCountMismatch(
        selector: method.selector, expected: method.arity, found: matchers.count)
    }
    for (position, matcher) in matchers.enumerated() {
      try matcher.validate(
        against: method.signature.argumentTypes[DelegateDouble.signatureIndex(position)],
        selector: method.selector, position: position)
    }
  }

  private func validate(_ answer: StubAnswer, for method: DoubledMethod) throws(DoubleError) {
    let selector = method.selector
    switch answer.action {
    case .returnBytes(let values, let type):
      let size = values.first?.count ?? 0
      guard !method.signature.returnsVoid,
        EncodingCheck.fits(type, size: size, into: method.signature.returnType)
      else {
        throw .returnTypeMismatch(
          selector: selector, expected: method.signature.returnType.canonicalString,
          found: "\(answer.description.dropFirst("returns ".count)) (\(type.canonicalString))")
      }
    case .write(let bytes, let type, let position):
      guard (0..<method.arity).contains(position) else {
        throw .argumentTypeMismatch(
          selector: selector, position: position,
          expected: "one of \(method.arity) argument(s)", found: "a write through it")
      }
      let declared = method.signature.argumentTypes[DelegateDouble.signatureIndex(position)]
        .unqualified
      switch declared {
      case .pointer(let pointee):
        if pointee != .void, pointee != .unknown,
          !EncodingCheck.fits(type, size: bytes.count, into: pointee)
        {
          throw .argumentTypeMismatch(
            selector: selector, position: position, expected: declared.canonicalString,
            found: "a \(type.canonicalString) written through it")
        }
      case .cString:
        break
      default:
        throw .notAPointer(selector: selector, position: position, found: declared.canonicalString)
      }
    case .forward:
      if !hasDelegate { throw .noDelegateToForwardTo(selector: selector) }
    case .perform, .answer:
      break
    }
  }
}
