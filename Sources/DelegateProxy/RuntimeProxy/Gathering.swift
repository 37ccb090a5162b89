import Dispatch
import MessageRuntime

/// Values gathered from every responder of one asynchronous aggregation, by position,
/// and the group that says when the last queued responder has answered.
final class Gathering: Sendable {
  let group = DispatchGroup()
  private let values = Lock<[(position: Int, value: ReturnValue)]>([])

  func record(_ value: ReturnValue, at position: Int) {
    values.withLock { $0.append((position, value)) }
  }

  /// The values in responder order.
  var ordered: [ReturnValue] {
    values.withLock { $0 }.sorted { $0.position < $1.position }.map(\.value)
  }
}
