import CoreMetrics
import DelegateProxy
import Synchronization
import Testing

// CounterHandlers.swift is `swift package restate-delegate CounterHandler --target
// RestatedProtocolTests`'s output, unedited.

/// A counter backend that keeps its total.
final class TotalCounter: CounterHandler {
  let total = Mutex<Int64>(0)
  func increment(by amount: Int64) { total.withLock { $0 += amount } }
  func reset() { total.withLock { $0 = 0 } }
}

@Suite("CounterHandler restated by the command")
struct SwiftMetricsRestatementTests {
  @Test("A Counter over the multicast increments and resets both backends")
  func counter() {
    let first = TotalCounter()
    let second = TotalCounter()
    let handlers = CounterHandlersMulticast()
    handlers.add(first)
    handlers.add(second)
    let counter = Counter(label: "requests", dimensions: [], handler: handlers)
    counter.increment(by: 3)
    counter.increment()
    #expect(first.total.withLock { $0 } == 4)
    #expect(second.total.withLock { $0 } == 4)
    counter.reset()
    #expect(first.total.withLock { $0 } == 0)
    #expect(second.total.withLock { $0 } == 0)
  }
}
