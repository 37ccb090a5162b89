// Public: the two calls a dispatch loop makes per weak delegate are inlined into it.
public import DelegateProxyCCore

/// A reference that keeps a Swift object's memory allocated but not the object alive
/// (what Swift's `unowned` holds), and that can try to take a strong reference — which
/// fails once the object's deinit has begun (RT1 and RT2 of dp_swift_runtime.h).
///
/// It is what lets a dispatch loop hold delegates weakly without a weak reference: a
/// `weak` variable gives its object a side table, after which every retain and release
/// of that object takes the Swift runtime's slow path. ``tryRetain()`` costs what one
/// retain costs.
///
/// ```swift
/// let ref = UnownedObject(listener)       // listener may be deallocated at any time
/// if ref.tryRetain() {                    // alive: now held strongly
///   defer { ref.release() }
///   use(listener)
/// }
/// ref.releaseUnowned()                    // exactly once, when done with ref
/// ```
///
/// A value type with no deinit of its own: call ``releaseUnowned()`` exactly once per
/// ``init(_:)``.
@usableFromInline
package struct UnownedObject: Hashable, @unchecked Sendable {
  // @unchecked Sendable: the address is immutable and every operation on it is one of
  // the Swift runtime's atomic reference-count operations.

  /// The object's address (what `Unmanaged.toOpaque()` gives).
  @usableFromInline package let address: UnsafeMutableRawPointer

  /// Takes an unowned reference to `object`.
  package init(_ object: AnyObject) {
    address = Unmanaged.passUnretained(object).toOpaque()
    dp_swift_unowned_retain(address)
  }

  /// Drops the unowned reference taken by ``init(_:)``; the object's memory may then be
  /// freed. Call exactly once; the value must not be used afterwards.
  package func releaseUnowned() { dp_swift_unowned_release(address) }

  /// Takes a strong reference, unless the object's deinit has begun. Pair a `true`
  /// answer with ``release()``.
  @inlinable
  package func tryRetain() -> Bool { dp_swift_try_retain(address) }

  /// Drops a strong reference taken by ``tryRetain()``.
  @inlinable
  package func release() { Unmanaged<AnyObject>.fromOpaque(address).release() }

  /// Whether the object's deinit has not begun (a snapshot: it may begin right after).
  package var isAlive: Bool {
    guard tryRetain() else { return false }
    release()
    return true
  }

  /// The object, strongly held, or nil once its deinit has begun.
  package func object() -> AnyObject? {
    guard tryRetain() else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
  }
}
