/// Observing a Swift multicast's calls: handlers and `AsyncSequence`s of arguments.
extension DelegateMulticast {
  /// Calls `handler` with the arguments each time the method is called on the
  /// multicast — from Swift, or from C through ``imp(for:)`` — before or after its
  /// delegates (RxCocoa's `sentMessage` / `methodInvoked`), on the calling thread. Keep the returned observation: dropping
  /// it (or cancelling it) removes the observer. Observing a `void` method makes the
  /// multicast answer ``responds(to:)`` for it.
  ///
  /// ```swift
  /// let watching = proxy.observe(\.sensorDidRead) { sensor, reading in log(reading) }
  /// ```
  public final func observe<Handle: MessageHandleProtocol>(
    _ message: KeyPath<Handles, Handle>, _ phase: ObservationPhase = .after,
    _ handler: @escaping @Sendable (Handle.Arguments) -> Void
  ) -> MessageObservation {
    let observer = TypedObserver(phase: phase, detaching(message, handler))
    return register(observer, for: message)
  }

  /// The calls of a method, as an `AsyncSequence` of their arguments. Ending the
  /// iteration (or dropping the sequence) removes the observer; the sequence finishes
  /// when the multicast is deallocated.
  ///
  /// ```swift
  /// for await (sensor, reading) in proxy.messages(\.sensorDidRead) { … }
  /// ```
  // Inlinable: the channel (a lock-protected buffer and one waiting continuation, see
  // MessageChannel) and the observer's yield are specialized for the method's arguments in
  // the caller's module (unspecialized, each message cost generic-metadata lookups per
  // consumer; an `AsyncStream`'s storage is unspecialized generic code).
  @inlinable
  public final func messages<Handle: MessageHandleProtocol>(
    _ message: KeyPath<Handles, Handle>, _ phase: ObservationPhase = .after,
    bufferingPolicy: MessageBuffering = .unbounded
  ) -> DelegateMessageSequence<Handle.Arguments> {
    let channel = MessageChannel<Handle.Arguments>(buffering: bufferingPolicy)
    let observer = TypedObserver(
      phase: phase, finish: { channel.finish() }, detaching(message) { channel.yield($0) })
    channel.attach(register(observer, for: message))
    return DelegateMessageSequence(lease: MessageChannelLease(channel))
  }

  /// `handler`, given copies of the method's `inout` arguments rather than the caller's
  /// variables, which outlive no call (see ``DelegateInout``).
  @usableFromInline
  final func detaching<Handle: MessageHandleProtocol>(
    _ message: KeyPath<Handles, Handle>,
    _ handler: @escaping @Sendable (Handle.Arguments) -> Void
  ) -> @Sendable (Handle.Arguments) -> Void {
    guard let detach = Handles()[keyPath: message].detach else { return handler }
    return { arguments in handler(detach(arguments)) }
  }

  @usableFromInline
  final func register<Handle: MessageHandleProtocol>(
    _ observer: TypedObserver, for message: KeyPath<Handles, Handle>
  )
    -> MessageObservation
  {
    let index = index(of: message)
    return register(observer, forKey: index, selector: protocolDescription.methods[index].selector)
  }
}
