#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value protected by a `pthread_mutex_t`: the lock of every shared state in the runtime
/// (method tables, registries, interned signatures) and in the proxies built on it.
///
/// `Synchronization.Mutex` would do the same job, but on Linux its lock and unlock run in
/// the prebuilt (uninstrumented) Synchronization library, so ThreadSanitizer does not see
/// them and reports every access the mutex protects as a race. A pthread mutex is
/// intercepted by ThreadSanitizer, which keeps `--sanitize=thread` runs meaningful.
/// Not recursive: never take it again while holding it.
///
/// Sendable only when `Value` is (as `NIOLockedValueBox`): the lock serialises access, but
/// a non-Sendable value handed out of `withLock` could still be shared unsynchronised.
package struct Lock<Value> {
  /// The value and its mutex, in one allocation: a lock costs one `malloc`, not two (a copy
  /// of a value multicast makes several locks per request).
  @usableFromInline let storage: LockStorage<Value>
  /// Where `storage` keeps the value and the mutex, worked out once: generic code that runs
  /// unspecialised (a multicast's) would otherwise look the storage's metadata up on every
  /// `withLock` to find its header.
  @usableFromInline let value: UnsafeMutablePointer<Value>
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// A lock protecting `value`.
  package init(_ value: Value) {
    storage = LockStorage.make(value)
    (self.value, mutex) = storage.pointers
  }

  /// A lock protecting `value`, its storage made through the type of `other`'s (a load):
  /// code that runs unspecialised (a copy of a value multicast) would otherwise look the
  /// storage's generic metadata up.
  @inlinable
  package init(_ value: Value, storedLike other: Lock<Value>) {
    storage = type(of: other.storage).make(value)
    (self.value, mutex) = storage.pointers
  }

  /// Runs `body` with exclusive access to the value. Inlinable: a call from code that runs
  /// unspecialised (a multicast's) would otherwise pass, so look up, the value's metadata.
  @inlinable @inline(__always)
  package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    // `storage`, which owns both addresses, lives as long as `self`, which the caller keeps
    // for the call (no `withExtendedLifetime`: generic, unspecialised it looks up metadata).
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}

/// A ``Lock``'s storage: the value as the header, the mutex as the one element (its address
/// never changes while the object lives, as a `pthread_mutex_t` requires).
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
  /// Storage holding `value` and an initialised mutex.
  @usableFromInline
  static func make(_ value: Value) -> LockStorage {
    let buffer = create(minimumCapacity: 1) { _ in value }
    buffer.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
    return unsafeDowncast(buffer, to: LockStorage.self)
  }

  /// The value's and the mutex's addresses: valid while the storage lives (the caller holds
  /// it for the call).
  @usableFromInline
  var pointers: (UnsafeMutablePointer<Value>, UnsafeMutablePointer<pthread_mutex_t>) {
    withUnsafeMutablePointers { ($0, $1) }
  }

  deinit {
    // The header (the value) is destroyed by ManagedBuffer; the mutex is ours.
    withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
    }
  }
}

// The value is reached only through `withLock`, under the mutex, and the mutex pointer
// never changes: sharing the lock shares the value only as safely as `Value` allows.
extension Lock: @unchecked Sendable where Value: Sendable {}
