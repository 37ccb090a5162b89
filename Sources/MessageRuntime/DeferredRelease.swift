import Dispatch

/// Releases what a dispatch may still be using — a route target's closure method —
/// once a grace period has passed, on a serial queue of its own.
///
/// Never on the caller's thread: route changes happen under a proxy's lock and the route
/// writers' lock, and the last reference to a closure may be the last reference to what it
/// captured (its proxy, say), whose deinit waits out dispatches and takes locks of its own.
/// On the queue no lock is held: the grace period (``Quiescence/synchronize()``) is waited
/// out there, then the references are dropped.
enum DeferredRelease {
  private static let queue = DispatchQueue(label: "MessageRuntime.DeferredRelease")

  /// Drops `methods` after every read section running now has ended.
  static func release(_ methods: [Method]) {
    guard !methods.isEmpty else { return }
    afterGracePeriod { withExtendedLifetime(methods) {} }
  }

  /// Runs `work` on the queue once every read section running now — the caller's
  /// included — has ended.
  static func afterGracePeriod(_ work: @escaping @Sendable () -> Void) {
    queue.async {
      // The queue is never inside a read section, so it can wait for every reader,
      // those waiting inside their own sections too.
      Quiescence.synchronizeAll()
      work()
    }
  }

  /// Waits until everything handed to ``release(_:)`` before the call has been released.
  /// Must not be called inside a read section (the release waits for it).
  static func wait() {
    precondition(!Quiescence.isInReadSection, "DeferredRelease.wait() inside a read section")
    queue.sync {}
  }
}

extension Quiescence {
  /// Runs `work` once every read section running now has ended, the calling thread's
  /// included — off this thread, on a queue of its own: what a writer that may itself be
  /// inside a dispatch (a delegate changing its multicast from its own call) does to
  /// release what that dispatch may still read.
  package static func afterGracePeriod(_ work: @escaping @Sendable () -> Void) {
    DeferredRelease.afterGracePeriod(work)
  }

  /// Waits until the closure methods that routes stopped using before the call have been
  /// released (after their grace period, on a queue of their own). For tests and
  /// diagnostics; never inside a read section.
  package static func waitForDeferredReleases() { DeferredRelease.wait() }
}
