import MessageRuntime

/// A registration made by `observe` (on a ``MulticastProxy`` or a Swift multicast). Keep
/// it: dropping it (or calling ``cancel()``) removes the observer.
public final class MessageObservation: Sendable {
  private let observer: MessageObserver
  /// Unregisters the observer from whatever holds it (captures its proxy weakly).
  private let unregister: @Sendable (UInt64) -> Void
  /// The selector observed.
  public let selector: Selector
  /// When the observer is called.
  public var phase: ObservationPhase { observer.phase }

  init(
    observer: MessageObserver, selector: Selector, unregister: @escaping @Sendable (UInt64) -> Void
  ) {
    self.observer = observer
    self.selector = selector
    self.unregister = unregister
  }

  deinit { cancel() }

  /// Whether the observer is still registered.
  public var isActive: Bool { observer.isActive }

  /// Removes the observer; it is not called again (not even by a dispatch already
  /// running). Idempotent.
  public func cancel() {
    guard observer.isActive else { return }
    observer.deactivate()
    unregister(observer.id)
  }
}
