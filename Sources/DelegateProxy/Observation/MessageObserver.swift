import MessageRuntime
import Synchronization

/// A registered observer: its phase, its handler, and a flag the dispatch loop reads so
/// an observer cancelled mid-dispatch is not called again.
final class MessageObserver: Sendable {
  let id: UInt64
  let phase: ObservationPhase
  let handler: @Sendable (MessageSnapshot) -> Void
  /// Ends an `AsyncStream` when the proxy goes away.
  let finish: (@Sendable () -> Void)?
  private let active = Atomic<Bool>(true)

  private static let nextID = Atomic<UInt64>(1)

  init(
    phase: ObservationPhase, finish: (@Sendable () -> Void)? = nil,
    handler: @escaping @Sendable (MessageSnapshot) -> Void
  ) {
    id = MessageObserver.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    self.phase = phase
    self.finish = finish
    self.handler = handler
  }

  var isActive: Bool { active.load(ordering: .acquiring) }
  func deactivate() { active.store(false, ordering: .releasing) }
}

/// When an observer hears a message: before it is delivered to the delegates (RxCocoa's
/// `sentMessage`) or after (RxCocoa's `methodInvoked`).
public enum ObservationPhase: Sendable, Hashable, CustomStringConvertible {
  /// Before any delegate is called.
  case before
  /// After every delegate called on the sender's thread has returned (delegates on
  /// queues may still be running).
  case after

  /// A readable rendering, for logs and diagnostics.
  public var description: String { self == .before ? "before" : "after" }
}

/// A registration made by `observe` (on a ``MulticastProxy`` or a Swift multicast). Keep
/// it: dropping it (or calling ``cancel()``) removes the observer.
public final class MessageObservation: Sendable {
  private let observer: MessageObserver
  /// Unregisters the observer from whatever holds it (captures its proxy weakly).
  private let unregister: @Sendable (UInt64) -> Void
  /// The selector observed.
  package let selector: Selector
  /// When the observer is called.
  package var phase: ObservationPhase { observer.phase }

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

/// A typed observer of one method of a Swift multicast: its registration (phase, the
/// active flag a dispatch reads) and its handler, which receives the call's arguments.
@usableFromInline
final class TypedObserver: Sendable {
  /// The registration (shared with ``MulticastProxy``'s observers: id, phase, flag).
  let registration: MessageObserver
  /// The handler, reading the method's `Arguments` from the address it is given. An
  /// address rather than `Any`: boxing the arguments in an existential and casting them
  /// back (`as!`) cost each observer a dynamic cast per call, the bulk of a `messages(_:)`
  /// delivery (Benchmarks/callgrind-swift.sh).
  @usableFromInline let handler: @Sendable (UnsafeRawPointer) -> Void
  /// When it is called (the registration's phase, kept here so a dispatch's filter reads
  /// it inline).
  @usableFromInline let phase: ObservationPhase
  /// `Arguments`'s identity, checked at every call (one compare).
  @usableFromInline let argumentsType: ObjectIdentifier

  /// An observer of a method taking `Arguments`, calling `body` with each call's.
  ///
  /// Inlinable: the handlers that read the arguments are made, and specialized for them,
  /// in the caller's module (unspecialized, each call copied the arguments through their
  /// type metadata's value witnesses: a quarter of a `messages(_:)` delivery at fan-out 1,
  /// Benchmarks/callgrind-swift.sh).
  @inlinable
  convenience init<Arguments>(
    phase: ObservationPhase, finish: (@Sendable () -> Void)? = nil,
    _ body: @escaping @Sendable (Arguments) -> Void
  ) {
    self.init(
      phase: phase, finish: finish, argumentsType: ObjectIdentifier(Arguments.self),
      // Safe: `notify` passes the address of a live `Arguments` (checked by type identity)
      // for the duration of the call; the body gets its own copy.
      handler: { address in body(address.assumingMemoryBound(to: Arguments.self).pointee) })
  }

  @usableFromInline
  init(
    phase: ObservationPhase, finish: (@Sendable () -> Void)?, argumentsType: ObjectIdentifier,
    handler: @escaping @Sendable (UnsafeRawPointer) -> Void
  ) {
    registration = MessageObserver(phase: phase, finish: finish) { _ in }
    self.phase = phase
    self.argumentsType = argumentsType
    self.handler = handler
  }

  @usableFromInline var isActive: Bool { registration.isActive }

  /// Calls the handler with `arguments`, unless the observer was cancelled. Inlinable, so
  /// the general path's specialized copy passes the arguments' address without looking
  /// up their type's metadata.
  @inlinable func notify<Arguments>(_ arguments: Arguments) {
    guard isActive else { return }
    // The multicast registers an observer only under the method whose Arguments it takes.
    precondition(
      argumentsType == ObjectIdentifier(Arguments.self),
      "observer of \(argumentsType) notified with \(Arguments.self) (DelegateProxy bug)")
    withUnsafePointer(to: arguments) { handler(UnsafeRawPointer($0)) }
  }
}
