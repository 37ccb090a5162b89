/// The consumers' hold on a ``MessageChannel``: its sequence and iterators keep it, and
/// when the last of them is dropped the channel is terminated (so the multicast stops
/// copying calls for nobody).
@usableFromInline
final class MessageChannelLease<Element>: Sendable {
  @usableFromInline let channel: MessageChannel<Element>

  @inlinable init(_ channel: MessageChannel<Element>) { self.channel = channel }

  deinit { channel.terminate() }
}
