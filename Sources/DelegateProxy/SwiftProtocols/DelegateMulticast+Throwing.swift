import MessageRuntime

// `throws` methods of a Swift protocol: the conformance's dispatch, the per-method error
// policy, and throwing aggregation and broadcast.

extension DelegateMulticast {
  // MARK: Error policy

  /// Sets what a `throws` method does when a delegate throws (nil returns it to
  /// ``DelegateErrorPolicy/stopAtFirst``, the default). The rule is the same under every
  /// ``ReturnPolicy``; see ``DelegateErrorPolicy``. Only the handles of throwing methods
  /// are accepted (this one, and the `async` form).
  ///
  /// ```swift
  /// proxy.setErrorPolicy(.runAll, for: \.sensorWillSave)
  /// ```
  public final func setErrorPolicy<Arguments, Result>(
    _ policy: DelegateErrorPolicy?,
    for message: KeyPath<Handles, ThrowingMessageHandle<Delegate, Arguments, Result>>
  ) {
    setErrorPolicy(policy, at: index(of: message))
  }

  /// Sets what an `async throws` method does when a delegate throws, as for a `throws`
  /// one (for an `async` method that does not throw it changes nothing).
  public final func setErrorPolicy<Arguments, Result>(
    _ policy: DelegateErrorPolicy?,
    for message: KeyPath<Handles, AsyncMessageHandle<Delegate, Arguments, Result>>
  ) {
    setErrorPolicy(policy, at: index(of: message))
  }

  private func setErrorPolicy(_ policy: DelegateErrorPolicy?, at index: Int) {
    update { $0.errorPolicies[index] = policy }
  }

  /// The error policy in force for a method (``DelegateErrorPolicy/stopAtFirst`` unless
  /// set).
  public final func errorPolicy<Handle: MessageHandleProtocol>(
    for message: KeyPath<Handles, Handle>
  ) -> DelegateErrorPolicy {
    let index = index(of: message)
    return state.withLock { $0.errorPolicies[index] ?? .stopAtFirst }
  }

  // MARK: Dispatch

  /// Generated conformances call this; not for direct use. Calls the responders of a
  /// `throws` method in order under its policies: observers before and after (also when
  /// a delegate threw), a queued responder on its queue and waited for — for a `void`
  /// method too, so that its error reaches the caller (directly when the caller is
  /// already on that queue).
  public final func __sendThrowing<Arguments, Result>(
    _ message: ThrowingMessageHandle<Delegate, Arguments, Result>, _ arguments: Arguments
  ) throws -> Result {
    let plan = effectPlan(message.index)
    let call = Self.resultCall(message.invoke)
    for o in plan.observers where o.phase == .before { o.notify(arguments) }
    var reduction = EffectReduction<Result>(plan.rule, plan.errorPolicy)
    for member in plan.members {
      if plan.filter != nil, !admits(plan.filter, member, arguments) { continue }
      guard let own = ownArguments(plan, member, arguments) else { continue }
      let queued = QueuedCall(
        member: member, arguments: own, call: call, optionalSelector: plan.optionalSelector)
      let answer: Swift.Result<Result, any Error>?
      if let queue = member.queue {
        answer = QueueMarks.isCurrent(queue) ? queued.run() : queue.sync { queued.run() }
      } else {
        answer = Quiescence.readSection(published.domain) { queued.run() }
      }
      guard let answer, !lacksOptional(member, plan) else {
        if !member.isRemoved && !member.isAlive { needsRebuild.raise() }
        continue
      }
      if !member.answers, case .success = answer { continue }
      if reduction.add(answer, from: member.id) { break }
    }
    for o in plan.observers where o.phase == .after { o.notify(arguments) }
    rebuildIfNeeded()
    return try outcome(reduction, plan).get()
  }

  /// A throwing call as one that answers its outcome.
  static func resultCall<Arguments, Result>(
    _ invoke: @escaping @Sendable (Delegate, Arguments) throws -> Result
  ) -> @Sendable (Delegate, Arguments) -> Swift.Result<Result, any Error> {
    { d, a in Swift.Result { try invoke(d, a) } }
  }

  // MARK: Aggregation and broadcast

  /// ``aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)`` for a `throws` method: every responder in order — queued
  /// ones on their queues, awaited without blocking — under the method's
  /// ``DelegateErrorPolicy``: an error a delegate throws, on its queue or not, reaches
  /// the caller (under ``DelegateErrorPolicy/stopAtFirst`` the later delegates are not
  /// called).
  ///
  /// ```swift
  /// let saved = try await proxy.aggregate(\.sensorWillSave, sensor, reducer: .allTrue)
  /// ```
  public final func aggregate<each Argument, Result>(
    _ message: KeyPath<Handles, ThrowingMessageHandle<Delegate, (repeat each Argument), Result>>,
    _ argument: repeat each Argument, reducer: Reducer<Result>? = nil
  ) async throws -> Result {
    let arguments = (repeat each argument)
    let aggregate = prepareAggregate(message, reducer?.relabeled())
    // Aggregation calls every responder: firstResponder folds to the first value.
    let plan = effectPlan(
      aggregate.index, rule: aggregate.rule == .first ? .last : aggregate.rule,
      reducer: aggregate.reducer)
    let reduction = await gatherThrowing(
      plan, UncheckedSendable(arguments), Self.resultCall(Handles()[keyPath: message].invoke),
      firstAnswer: aggregate.rule == .first)
    return try outcome(reduction, plan).get()
  }

  /// ``broadcast(_:_:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Void>,_)`` for a `void` `throws` method: returns once every responder has
  /// run, or throws as the method's ``DelegateErrorPolicy`` says — an error thrown on a
  /// delegate's queue included.
  ///
  /// ```swift
  /// try await proxy.broadcast(\.sensorWillSave, sensor)
  /// ```
  public final func broadcast<each Argument>(
    _ message: KeyPath<Handles, ThrowingMessageHandle<Delegate, (repeat each Argument), Void>>,
    _ argument: repeat each Argument
  ) async throws {
    let arguments = (repeat each argument)
    let plan = effectPlan(index(of: message))
    let reduction = await gatherThrowing(
      plan, UncheckedSendable(arguments), Self.resultCall(Handles()[keyPath: message].invoke),
      firstAnswer: false)
    try outcome(reduction, plan).get()
  }

  /// Calls the plan's responders in order, a queued one on its queue (suspending until it
  /// answers), folding their outcomes. With `firstAnswer`, the answer kept is the first.
  private func gatherThrowing<Arguments, Result>(
    _ plan: EffectPlan<Delegate>, _ arguments: UncheckedSendable<Arguments>,
    _ call: @escaping @Sendable (Delegate, Arguments) -> Swift.Result<Result, any Error>,
    firstAnswer: Bool
  ) async -> EffectReduction<Result> {
    // The arguments cross to the delegates' queues as add(_:queue:) documents (see
    // UncheckedSendable).
    for o in plan.observers where o.phase == .before { o.notify(arguments.value) }
    var reduction = EffectReduction<Result>(plan.rule, plan.errorPolicy)
    var first: Result?
    for member in plan.members {
      if plan.filter != nil, !admits(plan.filter, member, arguments.value) { continue }
      guard let own = ownArguments(plan, member, arguments.value) else { continue }
      let queued = QueuedCall(
        member: member, arguments: own, call: call, optionalSelector: plan.optionalSelector)
      let answer: Swift.Result<Result, any Error>?
      if let queue = member.queue {
        answer = await withCheckedContinuation {
          (
            continuation: CheckedContinuation<
              UncheckedSendable<Swift.Result<Result, any Error>?>, Never
            >
          )
          in
          queue.async { continuation.resume(returning: UncheckedSendable(queued.run())) }
        }.value
      } else {
        answer = Quiescence.readSection(published.domain) { queued.run() }
      }
      guard let answer, !lacksOptional(member, plan) else { continue }
      if !member.answers, case .success = answer { continue }
      if firstAnswer, first == nil, case .success(let value) = answer { first = value }
      if reduction.add(answer, from: member.id) { break }
    }
    for o in plan.observers where o.phase == .after { o.notify(arguments.value) }
    rebuildIfNeeded()
    if let first, reduction.errors.isEmpty {
      var only = EffectReduction<Result>(.first, plan.errorPolicy)
      _ = only.add(.success(first))
      return only
    }
    return reduction
  }
}

/// The errors the delegates of one call threw, in delegate order: what a throwing method
/// under ``DelegateErrorPolicy/runAll`` throws when at least one delegate threw.
public struct MemberErrors: Error, CustomStringConvertible {
  /// Every error, in the order of the delegates that threw them.
  public let errors: [any Error]

  /// The errors of one call, in delegate order.
  public init(_ errors: [any Error]) { self.errors = errors }

  /// A readable rendering, for logs and diagnostics.
  public var description: String {
    "\(errors.count) delegate error(s): " + errors.map { "\($0)" }.joined(separator: "; ")
  }
}
