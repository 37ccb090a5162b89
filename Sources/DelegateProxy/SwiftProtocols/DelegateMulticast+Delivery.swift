import Dispatch
import MessageRuntime
import Synchronization

// The general path of a Swift multicast: delegates on queues, observers and custom
// reducers; asynchronous aggregation and broadcast; observation.

extension DelegateMulticast {
  /// The general path: observers before and after, queued responders (asynchronously
  /// for `void` methods; on their queue and waited for otherwise), custom reducers.
  ///
  /// Inlinable but never inlined: the user's module gets a copy specialized for the
  /// method's types (unspecialized, each call looked up the generic metadata of its fold,
  /// its answers and its arguments, most of a `messages(_:)` delivery's cost), while the
  /// conformances' fast paths stay small. Queued members go through non-generic-heavy
  /// helpers out of line.
  @inlinable @inline(never)
  final func deliver<Arguments, Result>(
    _ index: Int, _ list: SwiftResponderList<Delegate>,
    _ table: SwiftMemberTable<Delegate>,
    _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) -> Result {
    let observers = table.observers[index]
    let filter = table.filters[index]
    // Read only for a paired method, so that the others pay one flag's test.
    let pairing = list.isPaired ? table.pairings[index] : nil
    for o in observers where o.phase == .before { o.notify(arguments) }
    var reduction = Reduction<Result>(list.rule)
    var collected: [Result] = []
    // Which member gave each answer, for a reducer that pairs them (Reducer.multicast); nil
    // (no array) for every other dispatch.
    var sources: [UInt64]? = list.rule == .custom && collectsSources(index, table) ? [] : nil
    let learned = list.isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    for responder in list.responders {
      let member = responder.member.takeUnretainedValue()
      if filter != nil, !admits(filter, member, arguments) { continue }
      let called: Result??
      if let pairing {
        // The member's own arguments; not called when it has no part in an answer passed.
        guard let own = pairing.arguments(arguments, for: member.id) else { continue }
        called = callMember(index, list, member, own, call)
      } else {
        called = callMember(index, list, member, arguments, call)
      }
      // Sent to its queue, not waited for; or it could not answer.
      guard let answer = called, let value = answer else { continue }
      if list.isOptional && skipsOptional(index, responder.member, since: learned) { continue }
      if !member.answers { continue }
      if list.rule == .custom { collected.append(value) }
      sources?.append(member.id)
      if reduction.add(value) { break }
    }
    for o in observers where o.phase == .after { o.notify(arguments) }
    // A `void` method has nothing to fold (rule `.every`, answer `()`), as in `__send`.
    // Resolved when specialized: a void dispatch (every `messages(_:)` delivery of a void
    // method) skips `finish`, whose fold outcome and no-answer cast are not specialized
    // (type-metadata lookups and a dynamic cast per call, Benchmarks/callgrind-swift.sh).
    if Result.self == Void.self { return () as! Result }
    return finish(reduction, index, table, collected: collected, sources: sources)
  }

  /// One member's call on the general path: on its queue (a `void` method's sent, not
  /// waited for: nil), else directly; `.some(nil)` when it could not answer.
  @inlinable @inline(__always)
  final func callMember<Arguments, Result>(
    _ index: Int, _ list: SwiftResponderList<Delegate>, _ member: SwiftMember<Delegate>,
    _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) -> Result?? {
    if let queue = member.queue {
      if list.rule == .every && !list.waitsForQueued {
        sendQueued(index, list, member, queue, arguments, call)
        return nil
      }
      return .some(callQueued(index, list, member, queue, arguments, call))
    }
    let answer = member.withDelegate { call(member.existential.pointee, arguments) }
    if answer == nil, !member.isRemoved { needsRebuild.raise() }
    return .some(answer)
  }

  /// A queued member's call of a `void` method: sent to its queue, not waited for.
  @usableFromInline
  final func sendQueued<Arguments, Result>(
    _ index: Int, _ list: SwiftResponderList<Delegate>, _ member: SwiftMember<Delegate>,
    _ queue: DispatchQueue, _ arguments: Arguments,
    _ call: @escaping (Delegate, Arguments) -> Result
  ) {
    let queued = queuedCall(index, list, member, arguments, call)
    queue.async { _ = queued.run() }
  }

  /// A queued member's call, run on its queue and waited for (directly when the caller is
  /// already on that queue); nil when the member could not answer.
  @usableFromInline
  final func callQueued<Arguments, Result>(
    _ index: Int, _ list: SwiftResponderList<Delegate>, _ member: SwiftMember<Delegate>,
    _ queue: DispatchQueue, _ arguments: Arguments,
    _ call: @escaping (Delegate, Arguments) -> Result
  ) -> Result? {
    let queued = queuedCall(index, list, member, arguments, call)
    return QueueMarks.isCurrent(queue) ? queued.run() : queue.sync { queued.run() }
  }

  private func queuedCall<Arguments, Result>(
    _ index: Int, _ list: SwiftResponderList<Delegate>, _ member: SwiftMember<Delegate>,
    _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) -> QueuedCall<Delegate, Arguments, Result> {
    QueuedCall(
      member: member, arguments: arguments, call: call,
      optionalSelector: list.isOptional ? protocolDescription.methods[index].selector.name : nil)
  }

  // MARK: Asynchronous aggregation and broadcast

  /// Sends a message to every responder — queued ones on their queues — and returns
  /// the values folded by `reducer` (the method's policy when nil), suspending, never
  /// blocking, until the last queued delegate has answered (`GCDMulticastDelegate`'s
  /// aggregation). The method's arguments follow its handle as they are written in a
  /// call.
  ///
  /// ```swift
  /// let start = try await proxy.aggregate(\.sensorShouldStart, sensor, reducer: .allTrue)
  /// let title = try await feeds.aggregate(\.feedTitleForRow, feed, 3, reducer: .firstNonNil)
  /// ```
  public final func aggregate<each Argument, Result>(
    _ message: HandleKey<(repeat each Argument), Result>, _ argument: repeat each Argument,
    reducer: Reducer<Result>? = nil
  ) async -> Result {
    let arguments = (repeat each argument)
    let box = prepareAggregate(message, reducer?.relabeled())
    let values: [Result?] = await gather(box.index, arguments, Handles()[keyPath: message].invoke)
    return reduced(values, box)
  }

  /// Like ``aggregate(_:_:reducer:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Result>,_,_)``, calling `completion` on `completionQueue` with the
  /// folded value once the last queued delegate has answered. Delegates without a queue
  /// are called before this returns.
  public final func aggregate<each Argument, Result>(
    _ message: HandleKey<(repeat each Argument), Result>, _ argument: repeat each Argument,
    reducer: Reducer<Result>? = nil, completionQueue: DispatchQueue,
    completion: @escaping @Sendable (Result) -> Void
  ) {
    let arguments = (repeat each argument)
    let box = prepareAggregate(message, reducer?.relabeled())
    let invoke = Handles()[keyPath: message].invoke
    // The delegates' answers cross to the completion queue as their arguments crossed to
    // the delegates' queues (see UncheckedSendable).
    let gathering = AnswerGathering<UncheckedSendable<Result?>>()
    for (slot, work) in gatherCalls(box.index, arguments, invoke).enumerated() {
      switch work {
      case .done(let value): gathering.record(UncheckedSendable(value), at: slot)
      case .queued(let queue, let call):
        gathering.run(on: queue) {
          // An injected listener is called but does not answer (DelegateInjection).
          let value = call.run().flatMap { call.member.answers ? $0 : nil }
          gathering.record(UncheckedSendable(value), at: slot)
        }
      }
    }
    let finish = UncheckedSendable((self, box))
    gathering.whenGathered(on: completionQueue) { results in
      let (multicast, box) = finish.value
      // A closure, not `\.value`: a key path literal in a parameter-pack generic context
      // fails to demangle at run time (Swift 6.3).
      completion(multicast.reduced(results.map { $0.value }, box))
    }
  }

  /// Sends a `void` message to every responder — queued ones on their queues — and
  /// returns once every one of them has run (or was skipped because it was removed or
  /// deallocated meanwhile). The method's arguments follow its handle as they are written
  /// in a call.
  ///
  /// ```swift
  /// await proxy.broadcast(\.sensorDidStop, sensor)   // every listener has stopped
  /// await feeds.broadcast(\.feedDidReceive, feed, 99)
  /// ```
  public final func broadcast<each Argument>(
    _ message: HandleKey<(repeat each Argument), Void>, _ argument: repeat each Argument
  ) async {
    let arguments = (repeat each argument)
    let _: [Void?] = await gather(
      index(of: message), arguments, Handles()[keyPath: message].invoke)
  }

  /// One responder's part in an aggregation: answered already, or to be called on a queue.
  enum GatheredCall<Arguments, Result> {
    case done(Result?)
    case queued(DispatchQueue, QueuedCall<Delegate, Arguments, Result>)
  }

  /// Calls the unqueued responders now (in order, observers around them) and returns
  /// what the queued ones still owe.
  func gatherCalls<Arguments, Result>(
    _ index: Int, _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) -> [GatheredCall<Arguments, Result>] {
    let work: [GatheredCall<Arguments, Result>] = Quiescence.readSection(published.domain) {
      withTable { table in
        let observers = table.observers[index]
        let filter = table.filters[index]
        for o in observers where o.phase == .before { o.notify(arguments) }
        var work: [GatheredCall<Arguments, Result>] = []
        let learned =
          table.lists[index].isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
        let pairing = table.pairings[index]
        for responder in table.lists[index].responders {
          let member = responder.member.takeUnretainedValue()
          if filter != nil, !admits(filter, member, arguments) { continue }
          // The member's own arguments (ArgumentPairing.swift): not called without a part.
          guard let own = pairing.map({ $0.arguments(arguments, for: member.id) }) ?? arguments
          else { continue }
          let optional = table.lists[index].isOptional
          let call = QueuedCall(
            member: member, arguments: own, call: call,
            optionalSelector: optional ? protocolDescription.methods[index].selector.name : nil)
          if let queue = member.queue {
            work.append(.queued(queue, call))
          } else {
            let value = call.run()
            if value != nil, table.lists[index].isOptional,
              skipsOptional(index, responder.member, since: learned)
            {
              continue
            }
            // An injected listener is called but does not answer (DelegateInjection).
            work.append(.done(member.answers ? value : nil))
          }
        }
        for o in observers where o.phase == .after { o.notify(arguments) }
        return work
      }
    }
    rebuildIfNeeded()
    return work
  }

  /// Every responder's value, in responder order (nil for one that was skipped).
  func gather<Arguments, Result>(
    _ index: Int, _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) async -> [Result?] {
    var values: [Result?] = []
    for work in gatherCalls(index, arguments, call) {
      switch work {
      case .done(let value): values.append(value)
      case .queued(let queue, let queued):
        let answer = await withCheckedContinuation {
          (continuation: CheckedContinuation<UncheckedSendable<Result?>, Never>) in
          queue.async { continuation.resume(returning: UncheckedSendable(queued.run())) }
        }
        values.append(queued.member.answers ? answer.value : nil)
      }
    }
    return values
  }

  /// The method's index and the rule aggregation folds by.
  struct AggregatePlan {
    let index: Int
    let rule: ReducerRule
    let reducer: ErasedReducer?
  }

  func prepareAggregate<Handle: MessageHandleProtocol>(
    _ message: KeyPath<Handles, Handle>, _ reducer: ErasedReducer?
  ) -> AggregatePlan {
    let index = index(of: message)
    let policy = reducer.map(ErasedPolicy.reduce) ?? policy(at: index)
    let isVoid = protocolDescription.methods[index].result.isVoid
    let rule = ReducerRule(policy, returnsVoid: isVoid)
    // Aggregation calls every responder, so firstResponder folds to the first value.
    return AggregatePlan(index: index, rule: rule, reducer: reducer ?? policy.reducer)
  }

  /// The aggregation's answer: the responders' answers in order, folded as a dispatch
  /// folds them (``finish``); nobody answering is the method's answer for no delegates.
  func reduced<Result>(_ values: [Result?], _ plan: AggregatePlan) -> Result {
    var reduction = Reduction<Result>(plan.rule)
    let answered = values.compactMap { $0 }
    for v in answered { if reduction.add(v) { break } }
    return finish(reduction, plan.index, reducer: plan.reducer, collected: answered)
  }

}
