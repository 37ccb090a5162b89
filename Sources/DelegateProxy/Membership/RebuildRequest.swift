import MessageRuntime
import Synchronization

/// Asks a multicast to rebuild its table: raised by dispatches (Swift loops and C
/// adapters, which must not hold the multicast), cleared when the table is rebuilt.
@usableFromInline
final class RebuildRequest: Sendable {
  @usableFromInline let raised = Atomic<Bool>(false)

  init() {}

  @inlinable func raise() { raised.store(true, ordering: .relaxed) }
  @inlinable var isRaised: Bool { raised.load(ordering: .relaxed) }
  func clear() { raised.store(false, ordering: .relaxed) }
}
