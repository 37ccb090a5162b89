import CoreMetrics
import DelegateProxy
import Testing

// MetricsFactories.swift is `swift package restate-delegate MetricsFactory --target
// RestatedProtocolTests`'s output with one edit the command asked for: a `@Default` on each
// `make…`, whose result (`any CounterHandler`) has no empty value. Running the command again
// keeps them (Scripts/restate.sh checks that it changes nothing). The handlers' multicasts
// are the command's restatements of each handler protocol, unedited.

/// The answers when no factory answers: multicasts of no one. (Functions, because a macro's
/// argument cannot name a type another macro generates.)
func noCounter() -> any CounterHandler { CounterHandlersMulticast() }
func noFloatingPointCounter() -> any FloatingPointCounterHandler {
  FloatingPointCounterHandlersMulticast()
}
func noMeter() -> any MeterHandler { MeterHandlersMulticast() }
func noRecorder() -> any RecorderHandler { RecorderHandlersMulticast() }
func noTimer() -> any TimerHandler { TimerHandlersMulticast() }

/// A factory whose counters add into totals it keeps.
final class CountingFactory: MetricsFactory {
  let counter = TotalCounter()

  func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { counter }
  func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
    -> any FloatingPointCounterHandler
  { FloatingPointCounterHandlersMulticast() }
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> any RecorderHandler
  { RecorderHandlersMulticast() }
  func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
    MeterHandlersMulticast()
  }
  func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
    TimerHandlersMulticast()
  }
  func destroyCounter(_ handler: any CounterHandler) {}
  func destroyMeter(_ handler: any MeterHandler) {}
  func destroyRecorder(_ handler: any RecorderHandler) {}
  func destroyTimer(_ handler: any TimerHandler) {}
}

@Suite("MetricsFactory restated by the command")
struct SwiftMetricsFactoryTests {
  @Test("A Counter made by the multicast factory counts in both factories' counters")
  func counter() {
    let first = CountingFactory()
    let second = CountingFactory()
    var factories = MetricsFactoriesMulticast()
    factories.add(first)
    factories.add(second)
    factories.setPolicy(
      .reduce(.multicast(CounterHandlersMulticast.self)), for: \.makeCounterLabelDimensions)
    let counter = Counter(label: "requests", factory: factories)
    counter.increment(by: 2)
    #expect(first.counter.total.withLock { $0 } == 2)
    #expect(second.counter.total.withLock { $0 } == 2)
  }
}
