import MessageRuntime

/// A thread-safe, ordered log of calls.
package final class CallLog: Sendable {
  private let storage = Lock<[String]>([])

  /// An empty log.
  package init() {}

  /// Appends `s`.
  package func append(_ s: String) { storage.withLock { $0.append(s) } }
  /// Everything appended, in order.
  package var entries: [String] { storage.withLock { $0 } }
  /// Empties the log.
  package func clear() { storage.withLock { $0.removeAll() } }
  /// How many entries equal `s`.
  package func count(_ s: String) -> Int { entries.count { $0 == s } }
}
