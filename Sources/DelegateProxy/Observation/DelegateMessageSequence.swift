import Dispatch
import MessageRuntime

/// The calls of one method of a Swift multicast, as their arguments (see
/// ``DelegateMulticast/messages(_:_:bufferingPolicy:)``).
public struct DelegateMessageSequence<Arguments>: AsyncSequence {
  /// One call's arguments.
  public typealias Element = Arguments
  @usableFromInline let stream: AsyncStream<UncheckedSendable<Arguments>>

  @inlinable init(stream: AsyncStream<UncheckedSendable<Arguments>>) { self.stream = stream }

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncStream<UncheckedSendable<Arguments>>.AsyncIterator

    @inlinable init(base: AsyncStream<UncheckedSendable<Arguments>>.AsyncIterator) {
      self.base = base
    }
    /// The next call's arguments, or nil when the multicast is gone or iteration ended.
    @inlinable public mutating func next() async -> Arguments? { await base.next()?.value }
    /// The next call's arguments (isolation-preserving form).
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Arguments? {
      await base.next(isolation: actor)?.value
    }
  }

  /// Starts iterating.
  @inlinable public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator())
  }
}
