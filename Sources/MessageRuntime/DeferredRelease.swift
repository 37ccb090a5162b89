/// Releases what a dispatch may still be using — a route target's closure method — once
/// no read section of the route's receiver that began earlier is still open.
///
/// Never on the caller's thread at once, and never waiting: route changes happen under a
/// proxy's lock and the route writers' lock, and the last reference to a closure may be the
/// last reference to what it captured (its proxy, say), whose deinit takes locks of its
/// own. The references are retired (``Quiescence/retire(_:in:)``) and dropped by a later
/// reclamation, with no lock held.
enum DeferredRelease {
  /// Drops `methods` after every read section of `domain` open now has ended.
  static func release(_ methods: [Method], in domain: UnsafeRawPointer) {
    guard !methods.isEmpty else { return }
    Quiescence.afterReaders(of: domain) { withExtendedLifetime(methods) {} }
  }
}

extension Quiescence {
  /// Waits until the closure methods that routes stopped using before the call have been
  /// released. For tests and diagnostics; never inside a read section.
  package static func waitForDeferredReleases() { waitForReclamation() }
}
