import Dispatch
import MessageRuntime

/// Asynchronous aggregation over delegates on queues (`GCDMulticastDelegate`).
///
/// A void message sent to the proxy already goes asynchronously to each queued
/// delegate. A value-returning message sent synchronously cannot wait for queued
/// delegates without risking deadlock, so they are called asynchronously and their
/// values are lost — as in `GCDMulticastDelegate`. To use their answers, aggregate:
///
/// ```swift
/// // "If ANY of the delegates return NO, then the result is NO."
/// try proxy.aggregate(shouldPerform, worker, task, reducer: .allTrue, completionQueue: ourQueue) { result in
///   continuePerformSubTask((try? result.get()) ?? true)
/// }
/// let ok = try await proxy.aggregate(shouldPerform, worker, task, reducer: .allTrue)
/// ```
///
/// The caller never blocks: delegates without a queue are called on the caller's thread
/// before the method returns, queued ones asynchronously on their queues, and the
/// completion runs on `completionQueue` once the last has answered (a `DispatchGroup`
/// notification, never a wait) — so a delegate whose queue calls back into the
/// caller's queue cannot deadlock it.
extension MulticastProxy {
  /// Sends `invocation` to every responder — queued ones asynchronously — and calls
  /// `completion` on `completionQueue` with the values folded by `reducer`, in
  /// responder order. The invocation is copied for queued delegates; the caller may
  /// reuse it when this returns. Throws at once if the message's signature differs from
  /// the delegates', the reducer cannot produce its return type, or a delegate called
  /// on this thread throws.
  public func aggregate(
    _ invocation: Invocation, reducer: Reducer<ReturnValue>, completionQueue: DispatchQueue,
    completion: @escaping @Sendable (Result<ReturnValue, any Error>) -> Void
  ) throws {
    let returnType = invocation.signature.returnType
    guard reducer.accepts(returnType) else {
      throw DelegateProxyError.reducerTypeMismatch(
        reducer: reducer.name, returnType: returnType.canonicalString)
    }
    try gather(invocation, completionQueue: completionQueue) { values in
      completion(Result { try reducer.reduce(values, returning: returnType) })
    }
  }

  /// Sends a typed message to every responder and calls `completion` on
  /// `completionQueue` with the values folded by `reducer` (see
  /// ``aggregate(_:reducer:completionQueue:completion:)``).
  public func aggregate<R: MessageArgument & Sendable, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ arguments: repeat each A, reducer: Reducer<R>,
    completionQueue: DispatchQueue, completion: @escaping @Sendable (Result<R, any Error>) -> Void
  ) throws {
    let invocation = try makeInvocation(message, repeat each arguments)
    try aggregate(invocation, reducer: reducer.onCValues, completionQueue: completionQueue) {
      result in
      completion(result.flatMap { value in Result { try value.value(as: R.self) } })
    }
  }

  /// Sends a typed message to every responder and returns the values folded by
  /// `reducer`, suspending (never blocking) until the last queued delegate answers.
  public func aggregate<R: MessageArgument & Sendable, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ arguments: repeat each A, reducer: Reducer<R>
  ) async throws -> R {
    let invocation = try makeInvocation(message, repeat each arguments)
    return try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<R, any Error>) in
      do {
        try aggregate(invocation, reducer: reducer.onCValues, completionQueue: .global()) {
          result in
          continuation.resume(with: result.flatMap { v in Result { try v.value(as: R.self) } })
        }
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }

  /// Sends a typed message to every responder and calls `completion` on
  /// `completionQueue` with every value, in responder order ("collect all").
  public func collect<R: MessageArgument & Sendable, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ arguments: repeat each A,
    completionQueue: DispatchQueue,
    completion: @escaping @Sendable (Result<[R], any Error>) -> Void
  ) throws {
    let invocation = try makeInvocation(message, repeat each arguments)
    try gather(invocation, completionQueue: completionQueue) { values in
      completion(Result { try values.map { try $0.value(as: R.self) } })
    }
  }

  /// Sends a typed message to every responder and returns every value, in responder
  /// order, once the last queued delegate has answered.
  public func collect<R: MessageArgument & Sendable, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ arguments: repeat each A
  ) async throws -> [R] {
    let invocation = try makeInvocation(message, repeat each arguments)
    return try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<[R], any Error>) in
      do {
        try gather(invocation, completionQueue: .global()) { values in
          continuation.resume(with: Result { try values.map { try $0.value(as: R.self) } })
        }
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }

  /// The gathering dispatch: the one loop in `.gathering` mode, then a group
  /// notification on `completionQueue` with the values in responder order.
  func gather(
    _ invocation: Invocation, completionQueue: DispatchQueue,
    finish: @escaping @Sendable ([ReturnValue]) -> Void
  ) throws {
    guard let selector = invocation.selector else {
      throw RuntimeError.invocationIncomplete("the selector is not set")
    }
    let table = currentTable
    let list = table.list(for: selector)
    if let expected = list.signature, expected !== invocation.signature {
      throw RuntimeError.signatureMismatch(
        selector: selector, expected: expected.encoding, found: invocation.signature.encoding)
    }
    let gathering = Gathering()
    gathering.group.enter()  // held until the calls on this thread are done
    do {
      try Quiescence.readSection(published.domain) { () throws -> Void in
        try deliver(invocation, list: list, silentWhenEmpty: true, gathering: gathering)
      }
    } catch {
      gathering.group.leave()
      throw error
    }
    gathering.group.leave()
    gathering.whenGathered(on: completionQueue, finish)
    compactIfNeeded()
  }

  /// An invocation of `message` with `arguments`, addressed to this proxy.
  func makeInvocation<R, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ arguments: repeat each A
  ) throws(RuntimeError) -> Invocation {
    let invocation = Invocation(signature: message.signature, selector: message.selector)
    invocation.target = self
    var index = 0
    for argument in repeat each arguments {
      try invocation.setArgument(argument, at: index)
      index += 1
    }
    return invocation
  }
}

/// The return values gathered from every responder of one asynchronous aggregation.
typealias Gathering = AnswerGathering<ReturnValue>
