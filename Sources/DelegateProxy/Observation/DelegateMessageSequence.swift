import MessageRuntime
import Synchronization

/// The calls of one method of a Swift multicast, as their arguments (see
/// ``DelegateMulticast/messages(_:_:bufferingPolicy:)``).
///
/// Its own buffer rather than an `AsyncStream`: specialized for the method's arguments
/// in the caller's module (see MessageChannel). It ends as an `AsyncStream` does: when the
/// multicast is deallocated (after the calls already buffered), when the iterating task is
/// cancelled, or when the sequence and its iterators are dropped.
public struct DelegateMessageSequence<Arguments>: AsyncSequence {
  /// One call's arguments.
  public typealias Element = Arguments
  /// Iteration never throws.
  public typealias Failure = Never
  /// Keeps the channel, and terminates it when the last sequence or iterator is dropped.
  @usableFromInline let lease: MessageChannelLease<Arguments>

  @inlinable init(lease: MessageChannelLease<Arguments>) { self.lease = lease }

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol {
    /// The channel (the lease's, loaded once).
    @usableFromInline let channel: MessageChannel<Arguments>
    @usableFromInline let lease: MessageChannelLease<Arguments>

    @inlinable init(lease: MessageChannelLease<Arguments>) {
      self.lease = lease
      channel = lease.channel
    }
    /// The next call's arguments, or nil when the multicast is gone or iteration ended.
    @inlinable public mutating func next() async -> Arguments? {
      await channel.next(isolation: nil)
    }
    /// The next call's arguments (isolation-preserving form).
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Arguments? {
      await channel.next(isolation: actor)
    }
  }

  /// Starts iterating.
  @inlinable public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(lease: lease) }
}

/// How many calls a `messages(_:)` sequence keeps while nobody is iterating: all of them,
/// or the oldest or newest few (`AsyncStream`'s buffering policies, for any element type).
public enum MessageBuffering: Sendable, Hashable {
  /// Every call is kept until it is iterated (the default).
  case unbounded
  /// At most this many calls are kept; later ones are dropped.
  case bufferingOldest(Int)
  /// At most this many calls are kept; older ones make room for newer ones.
  case bufferingNewest(Int)

  /// The stream policy for elements of type `Element`.
  @usableFromInline
  func policy<Element>(for _: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .unbounded: .unbounded
    case .bufferingOldest(let n): .bufferingOldest(n)
    case .bufferingNewest(let n): .bufferingNewest(n)
    }
  }
}

/// The buffer between a multicast's observer of one method and the task iterating its
/// ``DelegateMessageSequence``: a lock-protected queue of calls and at most one waiting
/// consumer, honoring ``MessageBuffering``.
///
/// It replaces an `AsyncStream` whose storage is unspecialized generic code: every
/// member is inlinable, so the caller's module specializes the queue, the lock and the
/// continuation for the method's arguments (Benchmarks/callgrind-swift.sh,
/// `swift_string_protocol_proxy_messages`).
///
/// Ends in two ways, as `AsyncStream` does: *finished* by the producer (the multicast was
/// deallocated: calls already buffered are still iterated, then `nil`), or *terminated*
/// by the consumer (its task was cancelled, or every sequence and iterator was dropped:
/// the buffer is dropped and `nil` is returned from then on). Either way the observation
/// is cancelled, so the multicast stops copying calls into it.
@usableFromInline
final class MessageChannel<Element>: @unchecked Sendable {
  // @unchecked Sendable: every mutable field is in `state`, read and written only under
  // its mutex. Elements are a delegate call's arguments, handed from the calling thread to
  // the iterating task as `messages(_:)` documents (see UncheckedSendable).

  /// A continuation waiting for the next element (nil: the sequence ended).
  @usableFromInline typealias Waiter = UnsafeContinuation<UncheckedSendable<Element>?, Never>

  @usableFromInline
  struct State {
    /// Buffered calls from `head` on (the slots before it were taken).
    @usableFromInline var buffer: ContiguousArray<UncheckedSendable<Element>> = []
    @usableFromInline var head = 0
    /// The consumer waiting in ``next(isolation:)``, if any.
    @usableFromInline var waiter: Waiter?
    /// Further consumers waiting at once (several iterators of one sequence, each in its
    /// own task: rare), served in order after `waiter`.
    @usableFromInline var moreWaiters: [Waiter] = []
    /// The producer is done: buffered calls are still handed out, then nil.
    @usableFromInline var isFinished = false
    /// The consumer is done: nothing is kept or handed out.
    @usableFromInline var isTerminated = false
    /// The registration feeding this channel, cancelled when the channel ends.
    @usableFromInline var observation: MessageObservation?

    @usableFromInline init() {}

    /// How many calls are buffered.
    @inlinable var count: Int { buffer.count - head }

    /// Takes the oldest buffered call (the buffer is not empty).
    @inlinable
    mutating func takeFirst() -> UncheckedSendable<Element> {
      let value = buffer[head]
      head += 1
      if head == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 32 && head * 2 >= buffer.count {
        buffer.removeFirst(head)
        head = 0
      }
      return value
    }

    /// The next waiting consumer, removed from the waiters.
    @inlinable
    mutating func takeWaiter() -> Waiter? {
      guard let first = waiter else { return nil }
      waiter = moreWaiters.isEmpty ? nil : moreWaiters.removeFirst()
      return first
    }

    /// Every waiting consumer, removed from the waiters (to be resumed with nil).
    @inlinable
    mutating func takeAllWaiters() -> [Waiter] {
      guard let first = waiter else { return [] }
      let all = [first] + moreWaiters
      waiter = nil
      moreWaiters = []
      return all
    }
  }

  @usableFromInline let state: Mutex<State>
  @usableFromInline let buffering: MessageBuffering

  @inlinable
  init(buffering: MessageBuffering) {
    self.buffering = buffering
    state = Mutex(State())
  }

  /// Keeps `observation` until the channel ends (then cancels it); cancels it at once if
  /// the channel already ended.
  @usableFromInline
  func attach(_ observation: MessageObservation) {
    let ended = state.withLock { s in
      if s.isFinished || s.isTerminated { return true }
      s.observation = observation
      return false
    }
    if ended { observation.cancel() }
  }

  // MARK: Producer

  /// Hands `value` to the waiting consumer, or buffers it under the buffering policy (an
  /// ended channel drops it).
  @inlinable
  func yield(_ value: Element) {
    let element = UncheckedSendable(value)
    let waiter: Waiter? = state.withLock { s in
      if s.isFinished || s.isTerminated { return nil }
      if let waiter = s.takeWaiter() { return waiter }
      switch buffering {
      case .unbounded:
        s.buffer.append(element)
      case .bufferingOldest(let limit):
        if s.count < limit { s.buffer.append(element) }
      case .bufferingNewest(let limit):
        guard limit > 0 else { break }
        if s.count >= limit { _ = s.takeFirst() }
        s.buffer.append(element)
      }
      return nil
    }
    waiter?.resume(returning: element)
  }

  /// The producer is done (the multicast is gone): buffered calls are still iterated,
  /// then the sequence ends.
  @usableFromInline
  func finish() {
    let (waiters, observation) = state.withLock { s -> ([Waiter], MessageObservation?) in
      if s.isFinished || s.isTerminated { return ([], nil) }
      s.isFinished = true
      let observation = s.observation
      s.observation = nil
      // Waiters exist only while the buffer is empty.
      return (s.takeAllWaiters(), observation)
    }
    for waiter in waiters { waiter.resume(returning: nil) }
    observation?.cancel()
  }

  // MARK: Consumer

  /// The consumer is done (cancelled, or its sequence and iterators dropped): the buffer
  /// is dropped, waiters get nil, the observation is cancelled.
  @usableFromInline
  func terminate() {
    let (waiters, observation, dropped) = state.withLock {
      s -> ([Waiter], MessageObservation?, ContiguousArray<UncheckedSendable<Element>>) in
      if s.isTerminated { return ([], nil, []) }
      s.isTerminated = true
      let observation = s.observation
      s.observation = nil
      let dropped = s.buffer
      s.buffer = []
      s.head = 0
      return (s.takeAllWaiters(), observation, dropped)
    }
    // The buffered calls and the observation are released outside the lock (releasing
    // arguments may run a deinit).
    withExtendedLifetime(dropped) {}
    for waiter in waiters { waiter.resume(returning: nil) }
    observation?.cancel()
  }

  /// What a consumer finds without waiting.
  @usableFromInline
  enum Immediate: Sendable {
    /// A buffered call.
    case element(UncheckedSendable<Element>)
    /// The channel ended and holds nothing more.
    case end
    /// Nothing yet: wait.
    case wait
  }

  /// The next call: a buffered one at once, else the next one yielded; nil once the
  /// channel ended (after the buffered calls, when the producer finished it). Cancelling
  /// the waiting task terminates the channel.
  @inlinable
  func next(isolation actor: isolated (any Actor)?) async -> Element? {
    // A cancelled task ends the sequence even with calls buffered (as `AsyncStream`,
    // whose cancellation handler runs at once when the task is already cancelled).
    if _slowPath(Task.isCancelled) {
      terminate()
      return nil
    }
    // Buffered calls are taken without suspending: no continuation and no job per call
    // when the calls come faster than the consumer takes them.
    switch state.withLock({ s -> Immediate in
      if s.count > 0 { return .element(s.takeFirst()) }
      return s.isFinished || s.isTerminated ? .end : .wait
    }) {
    case .element(let element): return element.value
    case .end: return nil
    case .wait: break
    }
    let element: UncheckedSendable<Element>? = await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: Waiter) in
        let now = state.withLock { s -> Immediate in
          // Yielded, finished or cancelled between the first look and now.
          if s.count > 0 { return .element(s.takeFirst()) }
          if s.isFinished || s.isTerminated { return .end }
          if s.waiter == nil { s.waiter = waiter } else { s.moreWaiters.append(waiter) }
          return .wait
        }
        switch now {
        case .element(let element): waiter.resume(returning: element)
        case .end: waiter.resume(returning: nil)
        case .wait: break
        }
      }
    } onCancel: {
      terminate()
    }
    return element?.value
  }
}

/// The consumers' hold on a ``MessageChannel``: its sequence and iterators keep it, and
/// when the last of them is dropped the channel is terminated (so the multicast stops
/// copying calls for nobody).
@usableFromInline
final class MessageChannelLease<Element>: Sendable {
  @usableFromInline let channel: MessageChannel<Element>

  @inlinable init(_ channel: MessageChannel<Element>) { self.channel = channel }

  deinit { channel.terminate() }
}
