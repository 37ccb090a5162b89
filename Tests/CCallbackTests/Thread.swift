import Glibc

/// A plain POSIX thread for tests that need real threads (not a task pool) — the helper
/// of MessageRuntimeTests (Thread.swift), copied.
final class Thread: @unchecked Sendable {
  private var id = pthread_t()
  private let body: @Sendable () -> Void

  private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  static func start(_ body: @escaping @Sendable () -> Void) -> Thread {
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

  func join() { pthread_join(id, nil) }
}
