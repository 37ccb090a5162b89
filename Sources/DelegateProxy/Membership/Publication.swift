import MessageRuntime
import Synchronization

/// THE way a multicast publishes its member table to lock-free readers and retires the
/// table it replaces: an atomic address of a retained, immutable table. A reader loads
/// it inside a read section of the publication's ``domain`` (`Quiescence`) and may use it
/// until the section ends; a replaced table is released once no section of that domain
/// that could have loaded it is still open — later, never by waiting for one.
///
/// Both multicasts publish this way: `@Delegate`'s, whose inlined dispatch loop borrows
/// the table without a retain, and ``MulticastProxy``, whose forwarding path keeps a
/// strong reference to it across delegate calls.
@usableFromInline
final class Publication<Table: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: `address` is atomic; the table it names is immutable and kept
  // retained until retired and reclaimed.

  /// The published table's address (retained +1 by the publication).
  @usableFromInline let address: Atomic<UInt>
  /// The read sections' domain, as a number: the publication's identity, or what
  /// ``share(domain:)`` set before any reader could exist. Unchecked exclusivity: it is
  /// written only while the owner is being initialized (before any other access), and a
  /// checked read costs every dispatch a `swift_beginAccess` (about 75 instructions).
  @exclusivity(unchecked) @usableFromInline private(set) var domainAddress: UInt = 0

  /// Publishes `table`. (Required: a copy of a multicast makes its publication through
  /// `type(of:)` of its original's.)
  required init(_ table: Table) {
    address = Atomic(UInt(bitPattern: Unmanaged.passRetained(table).toOpaque()))
    domainAddress = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
  }

  /// Makes `domain` the readers' domain: a ``MulticastProxy`` shares its receiver's, which
  /// its C routes read in, so a table (and the memberships it holds) outlives the route
  /// dispatches that may still call its members. Call before the owner is shared with
  /// another thread (its initializer).
  func share(domain: UnsafeRawPointer) { domainAddress = UInt(bitPattern: domain) }

  /// Set by an owner, as it is deallocated, whose every reader holds it (a `@Delegate`
  /// multicast without a C face): the flags of its members are then freed with the table
  /// instead of retired (`Quiescence.closing`). Unchecked exclusivity: written once, in the
  /// owner's deinit, when nothing else can reach the publication.
  @exclusivity(unchecked) var closesWithOwner = false

  deinit {
    // No reader can be running: each holds a reference to the publication's owner.
    let table = Unmanaged<Table>.fromOpaque(
      UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring))!)
    if closesWithOwner {
      Quiescence.closing(domain) { table.release() }
    } else {
      table.release()
    }
  }

  /// The read sections' domain. A dispatch of one multicast that runs long delays only
  /// the reclamation of that multicast's tables.
  @inlinable var domain: UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: domainAddress).unsafelyUnwrapped
  }

  /// The published table, not retained: call inside a read section of ``domain``, and do
  /// not use it after the section ends (a replaced table is reclaimed once no section that
  /// could have loaded it is open).
  @inlinable var borrowed: Unmanaged<Table> {
    // Never 0 (a table is published from init on): unchecked, a test and branch less per
    // dispatch.
    Unmanaged<Table>.fromOpaque(
      UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)).unsafelyUnwrapped)
  }

  /// Runs `body` with the published table, borrowed: call inside a read section of
  /// ``domain``, and do not let the table escape it.
  @inlinable
  func withTable<R>(_ body: (Table) -> R) -> R {
    borrowed._withUnsafeGuaranteedRef(body)
  }

  /// The published table, retained: usable anywhere, for as long as it is held.
  var current: Table {
    Quiescence.readSection(domain) {
      let raw = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring))!
      return Unmanaged<Table>.fromOpaque(raw).takeUnretainedValue()
    }
  }

  /// Publishes `table` in place of the current one (call under the owner's lock) and
  /// returns the one it replaced, for ``Retired/release()`` after the lock.
  func replace(with table: Table) -> Retired<Table> {
    let new = UInt(bitPattern: Unmanaged.passRetained(table).toOpaque())
    return Retired(
      address: address.exchange(new, ordering: .acquiringAndReleasing),
      domain: domainAddress)
  }
}

/// A table taken out of a ``Publication``: still readable by read sections that loaded
/// it before it was replaced.
struct Retired<Table: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: the address of a retained table, released exactly once, and its
  // publication's domain, an identity.
  let address: UInt
  let domain: UInt

  /// Releases the table now when no read section of its publication is open — the
  /// records only it held go with it, so a removed strong delegate's deinit runs here —
  /// else hands it over, to be released once the sections that could hold it have ended
  /// (by whichever thread reclaims then). Never waits for a reader: one running a
  /// delegate's code delays only this table. Call with no lock held: a delegate's deinit
  /// may run here.
  func release() {
    let table = Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
    Quiescence.release(table.takeUnretainedValue(), in: UnsafeRawPointer(bitPattern: domain)!)
    table.release()  // the publication's reference; the release above took its own
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
