/// A typed observer of one method of a Swift multicast: its registration (phase, the
/// active flag a dispatch reads) and its handler, which receives the call's arguments.
final class TypedObserver: Sendable {
  /// The registration (shared with ``MulticastProxy``'s observers: id, phase, flag).
  let registration: MessageObserver
  /// `(Arguments) -> Void` for the method's `Arguments`, checked when called.
  private let handler: @Sendable (Any) -> Void

  init<Arguments>(
    phase: ObservationPhase, finish: (@Sendable () -> Void)? = nil,
    _ body: @escaping @Sendable (Arguments) -> Void
  ) {
    registration = MessageObserver(phase: phase, finish: finish) { _ in }
    handler = { arguments in
      // The multicast registers observers only under the method whose Arguments they take.
      body(arguments as! Arguments)
    }
  }

  var phase: ObservationPhase { registration.phase }
  var isActive: Bool { registration.isActive }

  func notify<Arguments>(_ arguments: Arguments) {
    if isActive { handler(arguments) }
  }
}
