import Dispatch
import MessageRuntime

// The general path of a Swift multicast: delegates on queues, observers and custom
// reducers; asynchronous aggregation and broadcast; observation.

/// What a queued delivery carries to a delegate's queue.
struct QueuedCall<Delegate, Arguments, Result>: @unchecked Sendable {
  // @unchecked Sendable: a delegate added with a queue is called on that queue with the
  // sender's arguments — as GCDMulticastDelegate hands them over. The member is only read
  // (its flag atomically); the arguments must be safe to use from the delegate's queue
  // (values, or objects the caller shares knowingly), as documented on add(_:queue:).
  let member: SwiftMember<Delegate>
  let arguments: Arguments
  let call: (Delegate, Arguments) -> Result
  /// For an optional method: its selector, to drop the answer of a class that turns out
  /// not to implement it.
  var optionalSelector: String? = nil

  /// Calls the delegate unless it was removed or is being deallocated, or its class
  /// does not implement the (optional) method; nil then.
  func run() -> Result? {
    guard let value = member.withDelegate({ call(member.slot.pointee, arguments) }) else {
      return nil
    }
    if let optionalSelector,
      DelegateOptional.isKnownMissing(optionalSelector, typeID: member.typeID)
    {
      return nil
    }
    return value
  }
}

extension DelegateMulticast {
  /// The general path: observers before and after, queued responders (asynchronously
  /// for `void` methods; on their queue and waited for otherwise), custom reducers.
  @usableFromInline
  final func deliver<Arguments, Result>(
    _ index: Int, _ list: DelegateResponderList<Delegate>,
    _ table: DelegateResponderTable<Delegate>,
    _ arguments: Arguments, _ call: @escaping (Delegate, Arguments) -> Result
  ) -> Result {
    let observers = table.observers[index]
    for o in observers where o.phase == .before { o.notify(arguments) }
    var fold = DelegateFold<Result>(list.rule)
    var collected: [Result] = []
    func add(_ value: Result) -> Bool {
      if list.rule == .custom { collected.append(value) }
      return fold.add(value)
    }
    let learned = list.isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
    for responder in list.responders {
      let member = responder.member.takeUnretainedValue()
      if let queue = member.queue {
        let queued = QueuedCall(
          member: member, arguments: arguments, call: call,
          optionalSelector: list.isOptional ? protocolDescription.methods[index].selector.name : nil
        )
        if list.rule == .every {
          queue.async { _ = queued.run() }
          continue
        }
        let value = DelegateQueues.isCurrent(queue) ? queued.run() : queue.sync { queued.run() }
        guard let value else { continue }
        if list.isOptional && skipsOptional(index, responder, since: learned) { continue }
        if add(value) { break }
        continue
      }
      guard let value = responder.call(call, arguments) else {
        if !responder.isRemoved { needsRebuild.raise() }
        continue
      }
      if list.isOptional && skipsOptional(index, responder, since: learned) { continue }
      if add(value) { break }
    }
    for o in observers where o.phase == .after { o.notify(arguments) }
    return finish(fold, index, list, table, collected: collected)
  }

  // MARK: Asynchronous aggregation and broadcast

  /// Sends a message to every responder — queued ones on their queues — and returns
  /// the values folded by `reducer` (the method's policy when nil), suspending, never
  /// blocking, until the last queued delegate has answered (`GCDMulticastDelegate`'s
  /// aggregation). Throws ``DelegateProxyError/reducerTypeMismatch(reducer:returnType:)``
  /// when the reducer cannot make the result type.
  ///
  /// ```swift
  /// let start = try await proxy.aggregate(\.sensorShouldStart, sensor, reducer: .allTrue)
  /// ```
  public final func aggregate<Arguments, Result>(
    _ message: MessageKey<Arguments, Result>, _ arguments: Arguments, reducer: Reducer? = nil
  ) async throws(DelegateProxyError) -> Result {
    let box = try prepareAggregate(message, reducer)
    let values: [Result?] = await gather(box.index, arguments, Messages()[keyPath: message].invoke)
    return fold(values, box)
  }

  /// Like ``aggregate(_:_:reducer:)``, calling `completion` on `completionQueue` with the
  /// folded value once the last queued delegate has answered. Delegates without a queue
  /// are called before this returns.
  public final func aggregate<Arguments, Result>(
    _ message: MessageKey<Arguments, Result>, _ arguments: Arguments, reducer: Reducer? = nil,
    completionQueue: DispatchQueue, completion: @escaping @Sendable (Result) -> Void
  ) throws(DelegateProxyError) {
    let box = try prepareAggregate(message, reducer)
    let invoke = Messages()[keyPath: message].invoke
    let pending = gatherCalls(box.index, arguments, invoke)
    let group = DispatchGroup()
    // The delegates' answers cross to the completion queue as their arguments crossed to
    // the delegates' queues (see UncheckedSendable).
    let results = Lock<[UncheckedSendable<Result?>]>(
      Array(repeating: UncheckedSendable(nil), count: pending.count))
    for (slot, work) in pending.enumerated() {
      switch work {
      case .done(let value): results.withLock { $0[slot] = UncheckedSendable(value) }
      case .queued(let queue, let call):
        group.enter()
        queue.async {
          let value = call.run()
          results.withLock { $0[slot] = UncheckedSendable(value) }
          group.leave()
        }
      }
    }
    let finish = UncheckedSendable((self, box))
    group.notify(queue: completionQueue) {
      let (multicast, box) = finish.value
      completion(multicast.fold(results.withLock { $0.map(\.value) }, box))
    }
  }

  /// Sends a `void` message to every responder — queued ones on their queues — and
  /// returns once every one of them has run (or was skipped because it was removed or
  /// deallocated meanwhile).
  ///
  /// ```swift
  /// await proxy.broadcast(\.sensorDidStop, sensor)   // every listener has stopped
  /// ```
  public final func broadcast<Arguments>(
    _ message: MessageKey<Arguments, Void>, _ arguments: Arguments
  ) async {
    let _: [Void?] = await gather(
      index(of: message), arguments, Messages()[keyPath: message].invoke)
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
    let work: [GatheredCall<Arguments, Result>] = Quiescence.readSection {
      withTable { table in
        let observers = table.observers[index]
        for o in observers where o.phase == .before { o.notify(arguments) }
        var work: [GatheredCall<Arguments, Result>] = []
        let learned =
          table.lists[index].isOptional ? DelegateOptional.learned.load(ordering: .acquiring) : 0
        for responder in table.lists[index].responders {
          let member = responder.member.takeUnretainedValue()
          let optional = table.lists[index].isOptional
          let call = QueuedCall(
            member: member, arguments: arguments, call: call,
            optionalSelector: optional ? protocolDescription.methods[index].selector.name : nil)
          if let queue = member.queue {
            work.append(.queued(queue, call))
          } else {
            let value = call.run()
            if value != nil, table.lists[index].isOptional,
              skipsOptional(index, responder, since: learned)
            {
              continue
            }
            work.append(.done(value))
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
        values.append(answer.value)
      }
    }
    return values
  }

  /// The method's index and the rule aggregation folds by.
  struct AggregatePlan {
    let index: Int
    let rule: DelegateRule
    let reducer: Reducer?
  }

  func prepareAggregate<Arguments, Result>(
    _ message: MessageKey<Arguments, Result>, _ reducer: Reducer?
  )
    throws(DelegateProxyError) -> AggregatePlan
  {
    let index = index(of: message)
    if let reducer { try check(reducer, for: index) }
    let policy = reducer.map(ReturnPolicy.reduce) ?? self.policy(for: message)
    let isVoid = protocolDescription.methods[index].result.isVoid
    let rule = DelegateResponderTable<Delegate>.rule(policy, voidResult: isVoid)
    // Aggregation calls every responder, so firstResponder folds to the first value.
    return AggregatePlan(index: index, rule: rule, reducer: reducer ?? policy.reducer)
  }

  func fold<Result>(_ values: [Result?], _ plan: AggregatePlan) -> Result {
    var fold = DelegateFold<Result>(plan.rule)
    let answered = values.compactMap { $0 }
    for v in answered { if fold.add(v) { break } }
    let method = protocolDescription.methods[plan.index]
    switch plan.rule {
    case .allTrue, .anyTrue:
      return DelegateZero.truth(fold.truth, Result.self, for: method.selector.name)
    case .custom:
      guard let reducer = plan.reducer, let type = method.result.encoding else { break }
      let returnValues = answered.compactMap { v in
        method.result.cBytes(of: v).map { ReturnValue(type: type, bytes: $0) }
      }
      if let folded = try? reducer.reduce(returnValues, returning: type),
        let value = method.result.value(fromC: folded.bytes, as: Result.self)
      {
        return value
      }
      fatalError(
        "\(protocolDescription.name).\(method.swiftName): reducer \(reducer.name) could not fold \(Result.self)"
      )
    case .every, .last, .first, .firstNonZero:
      if let value = fold.result { return value }
    }
    return DelegateZero.value(Result.self, for: method.selector.name)
  }

  // MARK: Observation

  /// Calls `handler` with the arguments each time the method is called on the
  /// multicast — from Swift, or from C through ``imp(for:)`` — before or after its
  /// delegates (RxCocoa's `sentMessage` / `methodInvoked`), on the calling thread. Keep the returned observation: dropping
  /// it (or cancelling it) removes the observer. Observing a `void` method makes the
  /// multicast answer ``responds(to:)`` for it.
  ///
  /// ```swift
  /// let watching = proxy.observe(\.sensorDidRead) { sensor, reading in log(reading) }
  /// ```
  public final func observe<Arguments, Result>(
    _ message: MessageKey<Arguments, Result>, _ phase: ObservationPhase = .after,
    _ handler: @escaping @Sendable (Arguments) -> Void
  ) -> MessageObservation {
    let observer = DelegateObserver(phase: phase, handler)
    return register(observer, for: message)
  }

  /// The calls of a method, as an `AsyncSequence` of their arguments. Ending the
  /// iteration (or dropping the sequence) removes the observer; the sequence finishes
  /// when the multicast is deallocated.
  ///
  /// ```swift
  /// for await (sensor, reading) in proxy.messages(\.sensorDidRead) { … }
  /// ```
  public final func messages<Arguments, Result>(
    _ message: MessageKey<Arguments, Result>, _ phase: ObservationPhase = .after,
    bufferingPolicy: AsyncStream<UncheckedSendable<Arguments>>.Continuation.BufferingPolicy =
      .unbounded
  ) -> DelegateMessageSequence<Arguments> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: UncheckedSendable<Arguments>.self, bufferingPolicy: bufferingPolicy)
    let yield: @Sendable (Arguments) -> Void = { continuation.yield(UncheckedSendable($0)) }
    let observer = DelegateObserver(phase: phase, finish: { continuation.finish() }, yield)
    let observation = register(observer, for: message)
    continuation.onTermination = { _ in observation.cancel() }
    return DelegateMessageSequence(stream: stream)
  }

  private func register<Arguments, Result>(
    _ observer: DelegateObserver, for message: MessageKey<Arguments, Result>
  )
    -> MessageObservation
  {
    let index = index(of: message)
    update { $0.observers[index, default: []].append(observer) }
    return MessageObservation(
      observer: observer.registration, selector: protocolDescription.methods[index].selector
    ) { [weak self] id in
      self?.update { s in
        s.observers[index]?.removeAll { $0.registration.id == id }
        if s.observers[index]?.isEmpty == true { s.observers[index] = nil }
      }
    }
  }
}

/// A value handed across threads as the reference systems hand delegate arguments across
/// queues: the sender vouches for it (see ``DelegateMulticast/messages(_:_:bufferingPolicy:)``).
public struct UncheckedSendable<Value>: @unchecked Sendable {
  // @unchecked Sendable: used only for a delegate call's arguments and results crossing to
  // a delegate's queue or an observer's task; the caller of add(_:queue:) or messages(_:)
  // chooses to share them, as GCDMulticastDelegate and RxCocoa do.
  /// The value.
  public let value: Value
  /// Wraps `value`.
  public init(_ value: Value) { self.value = value }
}

/// The calls of one method of a Swift multicast, as their arguments (see
/// ``DelegateMulticast/messages(_:_:bufferingPolicy:)``).
public struct DelegateMessageSequence<Arguments>: AsyncSequence {
  /// One call's arguments.
  public typealias Element = Arguments
  let stream: AsyncStream<UncheckedSendable<Arguments>>

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<UncheckedSendable<Arguments>>.AsyncIterator
    /// The next call's arguments, or nil when the multicast is gone or iteration ended.
    public mutating func next() async -> Arguments? { await base.next()?.value }
    /// The next call's arguments (isolation-preserving form).
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Arguments? {
      await base.next(isolation: actor)?.value
    }
  }

  /// Starts iterating.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator())
  }
}
