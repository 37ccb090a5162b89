import Dispatch
import MessageRuntime

/// The answers of one asynchronous aggregation, for both faces (``MulticastProxy``'s
/// `aggregate` and `collect`, a `@Delegate` multicast's `aggregate(…completionQueue:)`):
/// each recorded at its responder's position, and the group that says when the last
/// queued responder has answered. The caller never waits on it: ``whenGathered(on:_:)``
/// is a group notification.
final class AnswerGathering<Value: Sendable>: Sendable {
  /// Entered for each call still owed (a queued responder's, or the caller's own loop).
  let group = DispatchGroup()
  private let values = Lock<[(position: Int, value: Value)]>([])

  /// Records the answer of the responder at `position`.
  func record(_ value: Value, at position: Int) {
    values.withLock { $0.append((position, value)) }
  }

  /// Runs `call` on `queue`, the gathering waiting for it (`call` records its answer).
  func run(on queue: DispatchQueue, _ call: @escaping @Sendable () -> Void) {
    group.enter()
    queue.async {
      call()
      self.group.leave()
    }
  }

  /// Calls `finish` on `queue` with the answers in responder order, once every call owed
  /// has answered.
  func whenGathered(on queue: DispatchQueue, _ finish: @escaping @Sendable ([Value]) -> Void) {
    group.notify(queue: queue) { finish(self.ordered) }
  }

  /// The answers in responder order.
  private var ordered: [Value] {
    values.withLock { $0 }.sorted { $0.position < $1.position }.map(\.value)
  }
}
