import Dispatch
import MessageRuntime

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
