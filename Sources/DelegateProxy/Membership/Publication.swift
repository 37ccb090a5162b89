import MessageRuntime
import Synchronization

/// THE way a multicast publishes its member table to lock-free readers and retires the
/// table it replaces: an atomic address of a retained, immutable table. A reader loads
/// it inside a read section (`Quiescence`) and may use it until the section ends; a
/// replaced table is released only after a grace period, when no section that could
/// have loaded it is still running.
///
/// Both multicasts publish this way: `@Delegate`'s, whose inlined dispatch loop borrows
/// the table without a retain, and ``MulticastProxy``, whose forwarding path keeps a
/// strong reference to it across delegate calls.
@usableFromInline
final class Publication<Table: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: `address` is atomic; the table it names is immutable and kept
  // retained until retired after a grace period.

  /// The published table's address (retained +1 by the publication).
  @usableFromInline let address: Atomic<UInt>

  /// Whether readers borrow the table without a reference (`@Delegate` multicasts'
  /// inlined loops) rather than retain it (``MulticastProxy``): retiring a borrowed
  /// table waits for more (see ``Retired/release()``).
  let readersBorrow: Bool

  /// Publishes `table`.
  init(_ table: Table, readersBorrow: Bool) {
    address = Atomic(UInt(bitPattern: Unmanaged.passRetained(table).toOpaque()))
    self.readersBorrow = readersBorrow
  }

  deinit {
    // No reader can be running: each holds a reference to the publication's owner.
    Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring))!)
      .release()
  }

  /// Runs `body` with the published table, borrowed: call inside a read section, and do
  /// not let the table escape it.
  @inlinable
  func withTable<R>(_ body: (Table) -> R) -> R {
    let raw = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring))!
    return Unmanaged<Table>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
  }

  /// The published table, retained: usable anywhere, for as long as it is held.
  var current: Table {
    Quiescence.readSection {
      let raw = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring))!
      return Unmanaged<Table>.fromOpaque(raw).takeUnretainedValue()
    }
  }

  /// Publishes `table` in place of the current one (call under the owner's lock) and
  /// returns the one it replaced, for ``Retired/release()`` after the lock.
  func replace(with table: Table) -> Retired<Table> {
    let new = UInt(bitPattern: Unmanaged.passRetained(table).toOpaque())
    return Retired(
      address: address.exchange(new, ordering: .acquiringAndReleasing), borrowed: readersBorrow)
  }
}

/// A table taken out of a ``Publication``: still readable by read sections that loaded
/// it before it was replaced.
struct Retired<Table: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: the address of a retained table, released exactly once.
  let address: UInt
  /// Whether readers may hold the table without a reference.
  let borrowed: Bool

  /// Waits until no read section can still hold the table, then releases it — and with
  /// it the records only it held (their delegates' deinits may run here). Call with no
  /// lock held: a deinit waits out dispatches, and a dispatch may wait for the lock.
  ///
  /// A borrowed table (a Swift dispatch holds it without a reference: Model/README.md,
  /// finding 2) needs more: the wait covers readers waiting out a grace period inside
  /// their own sections too — a delegate's deinit, run by a dispatch's release in the
  /// middle of its loop, may wait so, and the loop goes on reading the table afterwards;
  /// and called inside a read section — a delegate changing its multicast from its own
  /// call — the release happens later, off this thread, for the dispatch that called the
  /// delegate is still reading the table. A retained table only waits out the other
  /// threads' dispatches (as route lists do).
  func release() {
    guard borrowed else {
      Quiescence.synchronize()
      return releaseNow()
    }
    guard !Quiescence.isInReadSection else {
      let me = self
      Quiescence.afterGracePeriod { me.releaseNow() }
      return
    }
    Quiescence.synchronizeAll()
    releaseNow()
  }

  private func releaseNow() {
    Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
  }
}

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
