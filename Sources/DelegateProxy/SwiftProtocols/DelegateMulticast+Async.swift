// `async` methods of a Swift protocol: the conformance's dispatch (sequential or
// concurrent), cancellation, and the per-method concurrency.

extension DelegateMulticast {
  // MARK: Concurrency

  /// Sets how an `async` method awaits its delegates (nil returns it to
  /// ``DelegateConcurrency/sequential``, the default); see ``DelegateConcurrency``.
  ///
  /// ```swift
  /// proxy.setConcurrency(.concurrent, for: \.sensorPrepare)
  /// ```
  public final func setConcurrency<Arguments, Result>(
    _ concurrency: DelegateConcurrency?,
    for message: KeyPath<Handles, AsyncMessageHandle<Delegate, Arguments, Result>>
  ) {
    let index = index(of: message)
    update { $0.concurrency[index] = concurrency }
  }

  /// How an `async` method awaits its delegates. A method with `inout` parameters awaits
  /// them in order whatever is set (each reads what the previous one wrote).
  public final func concurrency<Handle: MessageHandleProtocol>(
    for message: KeyPath<Handles, Handle>
  ) -> DelegateConcurrency {
    let index = index(of: message)
    return state.withLock { $0.concurrency[index] ?? .sequential }
  }

  // MARK: Dispatch

  /// Generated conformances call this for an `async` method that does not throw; not for
  /// direct use. See ``__sendAsyncThrowing(_:_:)``; a cancelled task calls no further
  /// delegate and answers what the delegates called so far answered.
  public final func __sendAsync<Arguments, Result>(
    _ message: AsyncMessageHandle<Delegate, Arguments, Result>, _ arguments: Arguments
  ) async -> Result {
    switch await dispatchAsync(message, UncheckedSendable(arguments)) {
    case .success(let value): return value
    case .failure(let error):
      // Neither the handle of a non-throwing method nor a cancelled dispatch of one throws.
      preconditionFailure("\(message): a non-throwing async method threw \(error) (runtime bug)")
    }
  }

  /// Generated conformances call this for an `async throws` method; not for direct use.
  /// Awaits the responders under the method's ``DelegateConcurrency`` (one after another
  /// by default), folds their answers in delegate order under its ``ReturnPolicy``, and
  /// throws under its ``DelegateErrorPolicy``. A cancelled task calls no further delegate
  /// and throws `CancellationError` (under ``DelegateErrorPolicy/runAll``, inside the
  /// ``MemberErrors``). Observers are notified before and after; a delegate added with a
  /// queue is awaited like the others: an `async` method runs where its own isolation
  /// puts it, never on a queue.
  public final func __sendAsyncThrowing<Arguments, Result>(
    _ message: AsyncMessageHandle<Delegate, Arguments, Result>, _ arguments: Arguments
  ) async throws -> Result {
    try await dispatchAsync(message, UncheckedSendable(arguments)).get()
  }

  /// One dispatch of an `async` method. The arguments are `UncheckedSendable` because the
  /// dispatch is nonisolated while a `@MainActor` protocol's conformance calls it from the
  /// main actor: they are used by this task only (sequential), or shared by the child tasks
  /// (``DelegateConcurrency/concurrent``, as documented there).
  private func dispatchAsync<Arguments, Result>(
    _ message: AsyncMessageHandle<Delegate, Arguments, Result>,
    _ arguments: UncheckedSendable<Arguments>
  ) async -> Swift.Result<Result, any Error> {
    let plan = effectPlan(message.index)
    for o in plan.observers where o.phase == .before { o.notify(arguments.value) }
    // A method with inout parameters awaits in order whatever its concurrency: each
    // delegate reads what the previous one wrote.
    let reduction =
      plan.concurrency == .concurrent && plan.rule != .first && plan.members.count > 1
        && message.detach == nil
      ? await awaitConcurrently(plan, message, arguments)
      : await awaitInOrder(plan, message, arguments)
    for o in plan.observers where o.phase == .after { o.notify(arguments.value) }
    rebuildIfNeeded()
    return outcome(reduction, plan)
  }

  /// Awaits the responders one after another, stopping at cancellation.
  private func awaitInOrder<Arguments, Result>(
    _ plan: EffectPlan<Delegate>, _ message: AsyncMessageHandle<Delegate, Arguments, Result>,
    _ arguments: UncheckedSendable<Arguments>
  ) async -> EffectReduction<Result> {
    var reduction = EffectReduction<Result>(plan.rule, plan.errorPolicy)
    for member in plan.members {
      if Task.isCancelled {
        if message.isThrowing { _ = reduction.add(.failure(CancellationError())) }
        break
      }
      guard let delegate = liveDelegate(member),
        admits(plan.filter, delegate, arguments.value),
        let own = ownArguments(plan, member, arguments.value)
      else { continue }
      let answer: Swift.Result<Result, any Error>
      do {
        answer = .success(try await message.invoke(delegate, own))
      } catch {
        answer = .failure(error)
      }
      if lacksOptional(member, plan) { continue }
      if !member.answers, case .success = answer { continue }
      if reduction.add(answer, from: member.id) { break }
    }
    return reduction
  }

  /// Awaits every responder at once, each in a child task, and folds the answers in
  /// delegate order. Under ``DelegateErrorPolicy/stopAtFirst`` the first error thrown
  /// cancels the other children and is the dispatch's error.
  private func awaitConcurrently<Arguments, Result>(
    _ plan: EffectPlan<Delegate>, _ message: AsyncMessageHandle<Delegate, Arguments, Result>,
    _ arguments: UncheckedSendable<Arguments>
  ) async -> EffectReduction<Result> {
    typealias Answer = UncheckedSendable<Swift.Result<Result, any Error>?>
    let invoke = message.invoke
    // The delegates cross to the child tasks with the arguments (see DelegateConcurrency).
    // Each with its own arguments (paired parameters: ArgumentPairing.swift).
    let delegates = UncheckedSendable(
      plan.members.map { member -> (Delegate, Arguments)? in
        guard let delegate = liveDelegate(member), admits(plan.filter, delegate, arguments.value),
          let own = ownArguments(plan, member, arguments.value)
        else { return nil }
        return (delegate, own)
      })
    var answers = [Answer](repeating: UncheckedSendable(nil), count: plan.members.count)
    var firstError: (any Error)?
    await withTaskGroup(of: (Int, Answer).self) { group in
      for slot in plan.members.indices {
        group.addTask {
          guard let (delegate, own) = delegates.value[slot] else {
            return (slot, UncheckedSendable(nil))
          }
          if Task.isCancelled {
            return (
              slot, UncheckedSendable(message.isThrowing ? .failure(CancellationError()) : nil)
            )
          }
          do {
            return (slot, UncheckedSendable(.success(try await invoke(delegate, own))))
          } catch {
            return (slot, UncheckedSendable(.failure(error)))
          }
        }
      }
      for await (slot, answer) in group {
        answers[slot] = answer
        if firstError == nil, plan.errorPolicy == .stopAtFirst,
          case .failure(let error)? = answer.value
        {
          firstError = error
          group.cancelAll()
        }
      }
    }
    var reduction = EffectReduction<Result>(plan.rule, plan.errorPolicy)
    if let firstError {
      _ = reduction.add(.failure(firstError))
      return reduction
    }
    for (member, answer) in zip(plan.members, answers) {
      guard let answer = answer.value, !lacksOptional(member, plan) else { continue }
      if !member.answers, case .success = answer { continue }
      if reduction.add(answer, from: member.id) { break }
    }
    return reduction
  }
}
