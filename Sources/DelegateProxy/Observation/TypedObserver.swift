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
  private let handler: @Sendable (UnsafeRawPointer) -> Void
  /// `Arguments`'s identity, checked at every call (one compare).
  private let argumentsType: ObjectIdentifier

  @usableFromInline
  init<Arguments>(
    phase: ObservationPhase, finish: (@Sendable () -> Void)? = nil,
    _ body: @escaping @Sendable (Arguments) -> Void
  ) {
    registration = MessageObserver(phase: phase, finish: finish) { _ in }
    argumentsType = ObjectIdentifier(Arguments.self)
    // Safe: `notify` passes the address of a live `Arguments` (checked by type identity)
    // for the duration of the call; the body gets its own copy.
    handler = { address in body(address.assumingMemoryBound(to: Arguments.self).pointee) }
  }

  @usableFromInline var phase: ObservationPhase { registration.phase }
  var isActive: Bool { registration.isActive }

  @usableFromInline func notify<Arguments>(_ arguments: Arguments) {
    guard isActive else { return }
    // The multicast registers an observer only under the method whose Arguments it takes.
    precondition(
      argumentsType == ObjectIdentifier(Arguments.self),
      "observer of \(argumentsType) notified with \(Arguments.self) (DelegateProxy bug)")
    withUnsafePointer(to: arguments) { handler(UnsafeRawPointer($0)) }
  }
}
