import Dispatch
import MessageRuntime

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
