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
