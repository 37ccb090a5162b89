import Dispatch
import MessageRuntime

/// Queues that delegates of Swift multicasts are called on, marked so a dispatch can
/// tell whether it already runs on one (and call the delegate directly instead of
/// waiting on the queue for itself).
enum QueueMarks {
  /// Set on every such queue, to the queue's identity.
  static let key = DispatchSpecificKey<ObjectIdentifier>()

  static func mark(_ queue: DispatchQueue) {
    if queue.getSpecific(key: key) == nil {
      queue.setSpecific(key: key, value: ObjectIdentifier(queue))
    }
  }

  /// Whether the current code runs on `queue` (or on a queue targeting it).
  static func isCurrent(_ queue: DispatchQueue) -> Bool {
    DispatchQueue.getSpecific(key: key) == ObjectIdentifier(queue)
  }
}
