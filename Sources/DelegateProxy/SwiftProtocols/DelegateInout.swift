/// An `inout` argument of a delegate protocol's method as the multicast carries it: the
/// caller's variable, which each delegate reads and writes in turn.
///
/// ```swift
/// @Delegate
/// protocol ScrollDelegate: AnyObject {
///   func scroll(_ view: ScrollView, willEndAt velocity: Double, target: inout Double)
/// }
/// ```
///
/// The multicast calls its delegates in order with the caller's variable: each sees the
/// value the previous one left, and the caller sees the last (the secondary-delegate
/// proxy's `targetContentOffset` out-pointer). A delegate on a queue is waited for, for a
/// `void` method too, so its write is in place before the next delegate runs. The typed
/// handle's `Arguments` hold a `DelegateInout` where the method has `inout`: observers and
/// ``DelegateMulticast/messages(_:bufferingPolicy:)`` receive a ``detached()`` copy of the
/// value as it was when they were notified, never the caller's variable.
///
/// During a synchronous call the value refers to the caller's variable (no copy, no
/// allocation); ``init(_:)`` makes one that owns its storage, for
/// ``DelegateMulticast/broadcast(_:_:)-(DelegateMulticast<Delegate,Handles>.HandleKey<(Argument),Void>,_)``
/// and `aggregate`, and for `async` methods, whose callers' variables cannot be lent
/// across a suspension.
public struct DelegateInout<Value> {
  /// Where the value lives: the caller's variable (for the call's duration) or `owner`'s
  /// storage.
  @usableFromInline let pointer: UnsafeMutablePointer<Value>
  /// The storage of a value that owns it; nil when `pointer` is the caller's variable.
  @usableFromInline let owner: DelegateInoutStorage<Value>?

  /// A value that owns its storage, starting at `value`.
  public init(_ value: Value) {
    let storage = DelegateInoutStorage(value)
    owner = storage
    pointer = storage.pointer
  }

  /// The caller's variable at `pointer`, lent for one call (generated code). The caller
  /// keeps `pointer` valid until the call returns, and the multicast does not keep this
  /// value beyond it (observers and message sequences get ``detached()`` copies).
  public init(__borrowing pointer: UnsafeMutablePointer<Value>) {
    self.pointer = pointer
    owner = nil
  }

  /// The value: reading gives the last delegate's write; writing changes it for the next
  /// delegate and the caller.
  @inlinable
  public var value: Value {
    get { pointer.pointee }
    nonmutating set { pointer.pointee = newValue }
  }

  /// A copy that owns its storage, holding the current value: what outlives the call.
  public func detached() -> DelegateInout<Value> { DelegateInout(pointer.pointee) }
}

extension DelegateInout: CustomStringConvertible {
  /// `inout` and the current value.
  public var description: String { "inout \(pointer.pointee)" }
}

/// The storage of a ``DelegateInout`` that owns its value.
@usableFromInline
final class DelegateInoutStorage<Value> {
  // A pointer of its own rather than a stored property: a class's stored property has no
  // address that may be kept across accesses.
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: value)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}

/// Whether a type is a ``DelegateInout`` (for a method description: a method with an
/// `inout` parameter waits for its queued delegates). Package: DelegateProxyTesting's
/// doubles record a copy of an `inout` argument as it arrived.
package protocol DelegateInoutArgument {
  /// ``DelegateInout/detached()``, as `Any`.
  func detachedCopy() -> Any
}
extension DelegateInout: DelegateInoutArgument {
  package func detachedCopy() -> Any { detached() }
}
