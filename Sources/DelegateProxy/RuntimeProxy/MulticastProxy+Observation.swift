import MessageRuntime

extension MulticastProxy {
  /// Calls `handler` with a snapshot of the arguments each time `selector` is sent to
  /// the proxy, before or after delivery (RxCocoa's `sentMessage` / `methodInvoked`).
  /// The handler runs on the sending thread. Keep the returned observation: dropping it
  /// removes the observer.
  ///
  /// With a protocol (``init(policy:options:protocol:proxyClass:)``), observing a void method the
  /// protocol declares makes the proxy answer `responds(to:)` true for it even when no
  /// delegate implements it, so a delegator that checks first still sends it.
  public func observe(
    _ selector: Selector, _ phase: ObservationPhase = .after,
    _ handler: @escaping @Sendable (MessageSnapshot) -> Void
  ) -> MessageObservation {
    register(MessageObserver(phase: phase, handler: handler), forKey: selector, selector: selector)
  }

  /// Observes a typed message: `handler` receives its arguments as their Swift types.
  /// Messages sent with another signature under the same selector are not reported.
  public func observe<R, each A: MessageArgument>(
    _ message: Message<R, repeat each A>, _ phase: ObservationPhase = .after,
    _ handler: @escaping @Sendable (repeat each A) -> Void
  ) -> MessageObservation {
    let signature = message.signature
    return observe(message.selector, phase) { snapshot in
      guard snapshot.signature === signature else { return }
      var index = 0
      func next<T: MessageArgument>(_: T.Type) -> T {
        defer { index += 1 }
        // The signature is the message's own, so the types match.
        return try! snapshot.argument(at: index, as: T.self)
      }
      handler(repeat next((each A).self))
    }
  }

  /// The messages sent with `selector`, as an `AsyncSequence` of argument snapshots.
  /// Ending the iteration (or dropping the sequence) removes the observer; the sequence
  /// finishes when the proxy is deallocated.
  public func messages(
    _ selector: Selector, _ phase: ObservationPhase = .after,
    bufferingPolicy: MessageBuffering = .unbounded
  ) -> AsyncStream<MessageSnapshot> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: MessageSnapshot.self, bufferingPolicy: bufferingPolicy.policy(for: MessageSnapshot.self))
    let observer = MessageObserver(
      phase: phase, finish: { continuation.finish() }, handler: { continuation.yield($0) })
    let observation = register(observer, forKey: selector, selector: selector)
    continuation.onTermination = { _ in observation.cancel() }
    return stream
  }

  /// Calls the active observers of one phase with a snapshot of `invocation`.
  func notify(_ observers: [MessageObserver], _ invocation: Invocation, _ phase: ObservationPhase) {
    let active = observers.filter(\.isActive)
    guard !active.isEmpty, let selector = invocation.selector else { return }
    let snapshot = MessageSnapshot(copying: invocation, selector: selector, phase: phase)
    for o in active where o.isActive { o.handler(snapshot) }
  }
}
