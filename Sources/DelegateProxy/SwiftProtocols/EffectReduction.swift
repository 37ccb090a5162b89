/// One dispatch of a `throws` or `async` method: the running ``Reduction`` of its answers, the
/// answers a custom reducer needs, and the errors its delegates threw, under the method's
/// ``DelegateErrorPolicy``.
struct EffectReduction<Value> {
  var fold: Reduction<Value>
  /// The answers, for a custom reducer.
  var collected: [Value] = []
  /// The errors thrown, in delegate order.
  var errors: [any Error] = []
  let errorPolicy: DelegateErrorPolicy

  init(_ rule: ReducerRule, _ errorPolicy: DelegateErrorPolicy) {
    fold = Reduction(rule)
    self.errorPolicy = errorPolicy
  }

  /// Adds one delegate's outcome; true when no further delegate is to be called: the
  /// policy's own stop (first responder), or an error under ``DelegateErrorPolicy/stopAtFirst``.
  mutating func add(_ outcome: Swift.Result<Value, any Error>) -> Bool {
    switch outcome {
    case .success(let value):
      if fold.rule == .custom { collected.append(value) }
      return fold.add(value)
    case .failure(let error):
      errors.append(error)
      // Under first responder the first responder's call is the whole dispatch.
      return errorPolicy == .stopAtFirst || fold.rule == .first
    }
  }

  /// What the caller receives as an error: the first one as it is under
  /// ``DelegateErrorPolicy/stopAtFirst``, every one in a ``MemberErrors`` under
  /// ``DelegateErrorPolicy/runAll``; nil when no delegate threw.
  var error: (any Error)? {
    guard let first = errors.first else { return nil }
    return errorPolicy == .stopAtFirst ? first : MemberErrors(errors)
  }
}
