// Public: read sections are entered from dispatch loops inlined into other modules
// (DelegateMulticast.send, in the modules @Delegate expands in): the entry points are
// package and @usableFromInline, their bodies inlinable.
public import DelegateProxyCFFIShim

/// Read sections and grace periods: how dispatch code reads shared lists without locks
/// and how code that removes from them knows no dispatch still sees the old list.
///
/// A dispatcher reads its current list inside ``readSection(_:)``; a writer publishes a
/// new list, then calls ``synchronize()``, which returns once every read section that
/// began earlier on another thread has ended. Re-entrant removal (inside a read section)
/// is allowed: the caller's own section is not waited for, nor are other threads waiting
/// in ``synchronize()`` inside their sections, so dispatch loops check each target's
/// removed flag as the last step before calling it — after anything that could release
/// an object (a deinit may call ``synchronize()``).
@usableFromInline
package enum Quiescence {
  /// Runs `body` inside a read section (nestable; a thread-local store on entry and exit).
  @inlinable
  package static func readSection<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    enter()
    defer { exit() }
    return try body()
  }

  /// Enters a read section (nestable); pair with ``exit()`` on the same thread. What
  /// ``readSection(_:)`` does, for dispatch loops that must not go through a closure.
  @inlinable package static func enter() { dp_read_enter_inline() }
  /// Leaves a read section entered with ``enter()``.
  @inlinable package static func exit() { dp_read_exit_inline() }

  /// Whether the calling thread is inside a read section.
  package static var isInReadSection: Bool { dp_in_read_section() }

  /// Waits until every read section of another thread that began before the call has
  /// ended (see the type's discussion for the re-entrant case).
  package static func synchronize() { dp_synchronize() }

  /// Waits until every read section of another thread that began before the call has
  /// ended — those of threads waiting inside ``synchronize()`` too. For releasing what a
  /// dispatch borrows without a reference; never inside a read section (traps).
  package static func synchronizeAll() { dp_synchronize_all() }

  /// Frees retired memory whose grace period has passed; returns how much is still
  /// waiting (for tests and diagnostics).
  @discardableResult
  package static func reclaim() -> UInt64 { dp_reclaim() }

}
