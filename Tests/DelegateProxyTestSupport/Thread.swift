#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A plain POSIX thread for tests that need real threads (not a task pool).
// @unchecked Sendable: `id` is written by pthread_create before `start` returns and only
// read by `join` afterwards, on the starting thread; `body` is a `let`.
package final class Thread: @unchecked Sendable {
  private var id = pthread_t()
  private let body: @Sendable () -> Void

  private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  /// Starts a thread running `body`.
  package static func start(_ body: @escaping @Sendable () -> Void) -> Thread {
    let t = Thread(body)
    let context = Unmanaged.passRetained(t).toOpaque()
    pthread_create(
      &t.id, nil,
      { raw in
        let t = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
        t.body()
        return nil
      }, context)
    return t
  }

  /// Waits for the thread to finish.
  package func join() { pthread_join(id, nil) }
}
