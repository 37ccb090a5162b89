import Dispatch
import MessageRuntime
import Synchronization

/// One membership of a plain Swift object in a ``DelegateMulticast``: the object, held
/// weakly (an unowned reference that a dispatch upgrades with one `tryRetain`, never a
/// `weak` variable) or strongly, and the flag that stops every dispatch from calling it.
@usableFromInline
final class DelegateMember<Delegate>: AnyDelegateMember, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable after init (`removed`, in
  // the base, is atomic); `slot` is written once in init and only read after.

  /// A number unique within the process.
  let id: UInt64
  /// The delegate as its protocol's existential, stored at +0: the slot does not keep
  /// the object alive (`object` or `strong` does), so it is never deinitialized, only
  /// deallocated.
  let slot: UnsafeMutablePointer<Delegate>
  /// Keeps the object's memory allocated, so `tryRetain` is safe after its deinit began.
  let object: UnownedObject
  /// The strong reference, for ``Retention/strong``.
  let strong: AnyObject?
  /// How the delegate is held.
  let retention: Retention
  /// The queue the delegate is called on, or nil for the sender's thread
  /// (`GCDMulticastDelegate`'s `delegateQueue`).
  let queue: DispatchQueue?
  /// The delegate's class (a stand-in's own identity: `DelegateOptional.identity(of:)`),
  /// for optional methods it does not implement.
  let typeID: ObjectIdentifier
  /// The class's name, for diagnostics after the object is gone.
  let typeName: String

  init(_ delegate: Delegate, object: AnyObject, retention: Retention, queue: DispatchQueue?) {
    self.queue = queue
    id = delegateMemberIDs.wrappingAdd(1, ordering: .relaxed).oldValue
    self.object = UnownedObject(object)
    self.retention = retention
    strong = retention == .strong ? object : nil
    typeID = DelegateOptional.identity(of: object)
    typeName = String(reflecting: type(of: object))
    slot = .allocate(capacity: 1)
    slot.initialize(to: delegate)
    // The slot's copy took a strong reference; give it back so the slot holds +0.
    Unmanaged.passUnretained(object).release()
  }

  deinit {
    // Not deinitialize(): the slot's reference is +0 (see init).
    slot.deallocate()
    object.releaseUnowned()
  }

  /// Whether the delegate's deinit has not begun.
  var isAlive: Bool { strong != nil || object.isAlive }

  /// The delegate, strongly held, or nil once it is being deallocated.
  var delegate: Delegate? {
    guard strong != nil || object.tryRetain() else { return nil }
    defer { if strong == nil { object.release() } }
    return slot.pointee
  }

  /// Whether this member holds `object`.
  func holds(_ other: AnyObject) -> Bool {
    object.address == Unmanaged.passUnretained(other).toOpaque()
  }

}

/// What every membership has whatever its delegate's type: the removed flag, which the
/// generic-free C entries (``DelegateCReceiver``) read as directly as dispatch loops do.
@usableFromInline
class AnyDelegateMember: @unchecked Sendable {
  // @unchecked Sendable: its one stored property is atomic.

  /// Set once by `remove` (or compaction); read by dispatches right before each call.
  @usableFromInline let removed = Atomic<Bool>(false)

  init() {}

  /// Whether the member was removed.
  @inlinable final var isRemoved: Bool { removed.load(ordering: .relaxed) }

  final func markRemoved() { removed.store(true, ordering: .relaxed) }
}

/// The source of ``DelegateMember/id`` (a generic type has no static stored properties).
private let delegateMemberIDs = Atomic<UInt64>(1)
