import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a call ran: the thread and the dispatch queue.
public struct CallContext: Sendable, Hashable, CustomStringConvertible {
  /// The calling thread (`pthread_self`), as a number for comparison.
  public let thread: UInt
  /// The label of the dispatch queue the call ran on (`dispatch_queue_get_label`), or
  /// the label of the root queue or main queue that ran the thread.
  public let queueLabel: String

  /// The context of the code running now.
  public static var current: CallContext {
    CallContext(
      thread: UInt(bitPattern: Int(bitPattern: pthread_self())), queueLabel: currentLabel())
  }

  /// Whether this context is on `queue` (by label: give test queues distinct labels).
  package func isOn(_ queue: DispatchQueue) -> Bool { queueLabel == queue.label }

  /// `queue <label>, thread <id>`.
  public var description: String { "queue \(queueLabel), thread 0x\(String(thread, radix: 16))" }

  private static func currentLabel() -> String {
    guard let label = dispatchQueueGetLabel(nil) else { return "" }
    return String(cString: label)
  }
}

// libdispatch's `dispatch_queue_get_label` (dispatch/queue.h). The Swift overlay marks it
// unavailable in favour of `DispatchQueue.label`, which needs the queue object — and the
// current queue is only reachable by passing NULL (DISPATCH_CURRENT_QUEUE_LABEL). Safe to
// bind by name: it takes and returns one pointer, which Swift's and C's calling
// conventions pass alike on every supported platform (RT11 of dp_swift_runtime.h).
@_silgen_name("dispatch_queue_get_label")
private func dispatchQueueGetLabel(_ queue: OpaquePointer?) -> UnsafePointer<CChar>?
