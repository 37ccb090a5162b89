// Public: read sections are entered from dispatch loops inlined into other modules
// (DelegateMulticast.send, in the modules @Delegate expands in): the entry points are
// package and @usableFromInline, their bodies inlinable.
public import DelegateProxyCCore

/// Read sections and deferred reclamation: how dispatch code reads shared lists without
/// locks, and how code that replaces them frees the old ones without waiting for anyone.
///
/// A dispatcher reads its current list inside ``readSection(_:_:)`` of a *domain* — the
/// identity of what it reads (a multicast's publication, a C receiver). A writer publishes
/// a new list and hands the old one to ``retire(_:in:)`` with the same domain: it is
/// released once no read section of that domain that began earlier is still open, by
/// ``reclaim()`` on a thread that calls it or by the reclaimer thread. A writer never waits
/// for a reader, so a read section may span delegate code that runs long, or never
/// returns: it delays only the memory of its own domain.
///
/// Dispatch loops check each member's removed flag as the last step before calling it, and
/// name the member they call in their section's slot (``ReadSlot/calling(_:)``): the one
/// scoped wait, ``waitForCalls(to:)``, waits for calls to one member and nothing else.
@usableFromInline
package enum Quiescence {
  /// Runs `body` inside a read section of `domain` (nestable).
  @inlinable
  package static func readSection<R, E: Error>(
    _ domain: UnsafeRawPointer, _ body: () throws(E) -> R
  ) throws(E) -> R {
    _ = enter(domain)
    defer { exit() }
    return try body()
  }

  /// Enters a read section of `domain` (nestable); pair with ``exit()`` on the same
  /// thread. What ``readSection(_:_:)`` does, for dispatch loops that must not go through
  /// a closure. Returns the section's slot.
  ///
  /// The section records no frame (Swift cannot name a frame address that a later C
  /// entry could compare reliably), so a C entry's stale-section recovery
  /// (`dp_read_drop_stale`) never closes it, and stops at it: only sections opened by C
  /// (route and callback entries, `DP_MSG_SEND`) are recovered after a `longjmp` or C++
  /// exception. That is by design: unwinding through Swift frames is undefined in Swift
  /// (a `longjmp` skips their releases and `defer`s, a C++ exception terminates), so every
  /// section Swift opens is closed by its own exit. A C callee reached from a Swift send
  /// must not `longjmp` or throw past that send (Misuse.md).
  @inlinable @inline(__always)
  package static func enter(_ domain: UnsafeRawPointer) -> ReadSlot {
    ReadSlot(raw: dp_read_enter_inline(domain))
  }
  /// Leaves the innermost read section.
  @inlinable @inline(__always) package static func exit() { dp_read_exit_inline() }
  /// Leaves the innermost read section, `slot` (what its ``enter(_:)`` returned): a few
  /// instructions fewer than ``exit()``, which works the slot out again.
  @inlinable @inline(__always) package static func exit(_ slot: ReadSlot) {
    dp_read_exit_slot_inline(slot.raw)
  }

  /// Whether the calling thread is inside a read section.
  package static var isInReadSection: Bool { dp_in_read_section() }

  /// Names `member` as what the innermost open section calls next (see
  /// ``ReadSlot/calling(_:)``); nothing outside a read section.
  @usableFromInline
  package static func calling(_ member: UnsafeRawPointer?) {
    guard dp_in_read_section() else { return }
    dp_read_calling(dp_read_current_slot(), member)
  }

  /// Releases `object` once no read section of `domain` that began before the call is
  /// still open. Never waits: the release happens in a later ``reclaim()`` — on this
  /// thread if it calls one, else on the reclaimer thread.
  package static func retire(_ object: AnyObject, in domain: UnsafeRawPointer) {
    dp_retire_in(domain, Unmanaged.passRetained(object).toOpaque(), releaseRetired)
  }

  /// Releases `object` now, on this thread, when no read section of `domain` is open
  /// (a removed strong delegate's deinit then runs before the writer returns); else
  /// retires it (``retire(_:in:)``). Never waits. Call with no lock held.
  package static func release(_ object: AnyObject, in domain: UnsafeRawPointer) {
    dp_free_or_retire(domain, Unmanaged.passRetained(object).toOpaque(), releaseRetired)
  }

  /// Runs `work` once no read section of `domain` that began before the call is still
  /// open (in a later ``reclaim()``, on whichever thread runs it).
  package static func afterReaders(
    of domain: UnsafeRawPointer, _ work: @escaping @Sendable () -> Void
  ) {
    retire(DeferredWork(work), in: domain)
  }

  /// Frees what was retired and is no longer readable, on this thread (where a removed
  /// strong member's deinit then runs); never waits for a reader. Call with no lock held.
  /// Returns how many items are still waiting (for tests and diagnostics).
  @discardableResult
  package static func reclaim() -> UInt64 { dp_reclaim() }

  /// The scoped wait (the Linux kernel's `del_timer_sync` rule): returns once no other
  /// thread is inside a call, made by a read section of `domain` (the member's multicast's;
  /// by default any), to the member whose removed flag is `member` that began before this
  /// call. The calling thread's own calls are never waited for. Deadlocks if
  /// the caller holds a lock the awaited call is waiting for. Dispatches name the member
  /// they call without a fence (``ReadSlot/calling(_:)``): where Linux `membarrier` is
  /// missing or has failed, the wait pauses a millisecond before it looks.
  package static func waitForCalls(
    to member: UnsafeRawPointer, in domain: UnsafeRawPointer = everyDomain
  ) {
    dp_wait_member_idle(domain, member)
  }

  /// The scoped wait for a domain: returns once no other thread has a read section of
  /// `domain` open that began before this call (the same rule as ``waitForCalls(to:)``).
  package static func waitForReaders(of domain: UnsafeRawPointer) { dp_wait_domain_idle(domain) }

  /// Runs `body` (the release of what an owner being deallocated kept) with `domain`
  /// declared closing on this thread: no read section of it is open or can open again —
  /// every reader of the domain holds the owner — so the membership flags of that domain
  /// released meanwhile are freed at once instead of retired.
  package static func closing(_ domain: UnsafeRawPointer, _ body: () -> Void) {
    let previous = dp_domain_closing(domain)
    body()
    _ = dp_domain_closing(previous)
  }

  /// For tests and diagnostics (liburcu's `rcu_barrier`): waits until everything retired
  /// before the call has been released. Traps inside a read section.
  package static func waitForReclamation() { dp_reclaim_wait() }

  /// The wildcard domain: a wait for its readers waits for every open read section.
  package static var everyDomain: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }

  /// How many retired items wait to be freed.
  package static var retiredCount: UInt64 { dp_retired_count() }

  /// How many method tables (class caches, objects' own tables) exist: made and not yet
  /// freed. For tests that replaced tables are reclaimed.
  package static var methodTablesLive: UInt64 { dp_method_tables_live() }
}

/// An open read section's slot: where the dispatch names the member it calls.
@usableFromInline
package struct ReadSlot {
  @usableFromInline let raw: UnsafeMutablePointer<dp_read_slot>

  @inlinable init(raw: UnsafeMutablePointer<dp_read_slot>) { self.raw = raw }

  /// Names `member` (a membership's removed flag) as the member this section calls next:
  /// call right before that member's removed check. One store, no fence and no test: the
  /// member wait orders it (``Quiescence/waitForCalls(to:in:)``).
  @inlinable @inline(__always)
  package func calling(_ member: OpaquePointer) {
    dp_read_calling(raw, UnsafeRawPointer(member))
  }
}

/// Work run when its retirement is reclaimed (``Quiescence/afterReaders(of:_:)``).
private final class DeferredWork: Sendable {
  let work: @Sendable () -> Void
  init(_ work: @escaping @Sendable () -> Void) { self.work = work }
  deinit { work() }
}

/// The `free_fn` of a retired Swift object: drops the reference `retire` took.
private let releaseRetired: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
  Unmanaged<AnyObject>.fromOpaque(pointer!).release()
}
