import MessageRuntime

/// What a dispatch of a `throws` or `async` method needs from the published table, copied
/// out of it (the members retained), so that the calls may run outside the read section —
/// on a delegate's queue, or across suspension points.
struct EffectPlan<Delegate> {
  let index: Int
  /// The method's responders, in order.
  let members: [SwiftMember<Delegate>]
  let rule: ReducerRule
  let reducer: ErasedReducer?
  let observers: [TypedObserver]
  /// The method's filter, if any (DelegateMulticast+Filters).
  let filter: AnyMemberFilter?
  /// The method's parameters paired with members, if any (ArgumentPairing.swift).
  let pairing: ArgumentPairing?
  /// For an optional method: its selector, to drop the answers of classes that turn out
  /// not to implement it.
  let optionalSelector: String?
  let errorPolicy: DelegateErrorPolicy
  let concurrency: DelegateConcurrency
}

extension DelegateMulticast {
  /// The plan of one dispatch of the method at `index`, from the published table.
  /// `rule`, when given, replaces the method's policy (aggregation with a reducer).
  func effectPlan(_ index: Int, rule: ReducerRule? = nil, reducer: ErasedReducer? = nil)
    -> EffectPlan<
      Delegate
    >
  {
    let (errorPolicy, concurrency) = state.withLock {
      ($0.errorPolicies[index] ?? .stopAtFirst, $0.concurrency[index] ?? .sequential)
    }
    return Quiescence.readSection(published.domain) {
      withTable { table in
        let list = table.lists[index]
        return EffectPlan(
          index: index, members: list.responders.map { $0.member.takeUnretainedValue() },
          rule: rule ?? list.rule,
          reducer: reducer ?? table.policies[index].reducer, observers: table.observers[index],
          filter: table.filters[index], pairing: table.pairings[index],
          optionalSelector: list.isOptional
            ? protocolDescription.methods[index].selector.name : nil,
          errorPolicy: errorPolicy, concurrency: concurrency)
      }
    }
  }

  /// The answer of a finished effectful dispatch: the error the policy throws, else the
  /// fold's answer (as ``finish(_:_:reducer:collected:)`` gives it: nobody answering is
  /// the method's answer for no delegates).
  func outcome<Result>(_ reduction: EffectReduction<Result>, _ plan: EffectPlan<Delegate>)
    -> Swift.Result<Result, any Error>
  {
    if let error = reduction.error { return .failure(error) }
    return .success(
      finish(
        reduction.reduction, plan.index, reducer: plan.reducer, collected: reduction.collected,
        sources: reduction.sources))
  }

  /// `arguments` as `member` receives them: each paired argument replaced by its own part
  /// (ArgumentPairing.swift); nil when it has no part in one (it is not called).
  func ownArguments<Arguments>(
    _ plan: EffectPlan<Delegate>, _ member: SwiftMember<Delegate>, _ arguments: Arguments
  ) -> Arguments? {
    guard let pairing = plan.pairing else { return arguments }
    return pairing.arguments(arguments, for: member.id)
  }

  /// `member`'s delegate, strongly held, unless it was removed or is being deallocated
  /// (then the next dispatch's table drops it).
  func liveDelegate(_ member: SwiftMember<Delegate>) -> Delegate? {
    let delegate = Quiescence.readSection(published.domain) { member.withDelegate { member.existential.pointee } }
    if delegate == nil && !member.isRemoved { needsRebuild.raise() }
    return delegate
  }

  /// Whether `member`'s class turned out not to implement the plan's optional method
  /// (then the next dispatch's table drops it).
  func lacksOptional(_ member: SwiftMember<Delegate>, _ plan: EffectPlan<Delegate>) -> Bool {
    guard let selector = plan.optionalSelector,
      DelegateOptional.isKnownMissing(selector, typeID: member.typeID)
    else { return false }
    needsRebuild.raise()
    return true
  }
}

/// One dispatch of a `throws` or `async` method: the running ``Reduction`` of its answers, the
/// answers a custom reducer needs, and the errors its delegates threw, under the method's
/// ``DelegateErrorPolicy``.
struct EffectReduction<Value> {
  var reduction: Reduction<Value>
  /// The answers, for a custom reducer.
  var collected: [Value] = []
  /// By collected answer: the member that gave it (for a reducer that pairs them).
  var sources: [UInt64] = []
  /// The errors thrown, in delegate order.
  var errors: [any Error] = []
  let errorPolicy: DelegateErrorPolicy

  init(_ rule: ReducerRule, _ errorPolicy: DelegateErrorPolicy) {
    reduction = Reduction(rule)
    self.errorPolicy = errorPolicy
  }

  /// Adds one delegate's outcome (`member`: its membership number); true when no further
  /// delegate is to be called: the
  /// policy's own stop (first responder), or an error under ``DelegateErrorPolicy/stopAtFirst``.
  mutating func add(_ outcome: Swift.Result<Value, any Error>, from member: UInt64 = 0) -> Bool {
    switch outcome {
    case .success(let value):
      if reduction.rule == .custom {
        collected.append(value)
        sources.append(member)
      }
      return reduction.add(value)
    case .failure(let error):
      errors.append(error)
      // Under first responder the first responder's call is the whole dispatch.
      return errorPolicy == .stopAtFirst || reduction.rule == .first
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
