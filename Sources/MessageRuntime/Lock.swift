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
package final class Lock<Value> {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock protecting `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

// The value is reached only through `withLock`, under the mutex, and the mutex pointer
// never changes: sharing the lock shares the value only as safely as `Value` allows.
extension Lock: @unchecked Sendable where Value: Sendable {}
