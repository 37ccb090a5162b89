import CoreMetrics
import DelegateProxy

// swift-metrics' factory and handler protocols, restated for @Delegate. The handlers are
// class-bound (class multicasts); `MetricsFactory` is not, so its multicast takes struct
// factories too — as a class (`MetricsFactories`) and as a value (`ValueMetricsFactories`).
// Each `make…` answers, under Reducer.multicast, a multicast of every factory's own
// handler, and each `destroy…` hands every factory its own handler back.

@Delegate(for: CounterHandler.self)
protocol Counters: CounterHandler {
  func increment(by: Int64)
  func reset()
}

@Delegate(for: FloatingPointCounterHandler.self)
protocol FloatingPointCounters: FloatingPointCounterHandler {
  func increment(by: Double)
  func reset()
}

// `RecorderHandler` and `MeterHandler` overload a requirement by its parameter's type
// (`record(_: Int64)` and `record(_: Double)`, `set(_:)` likewise): two requirements may not
// share a handle or selector, so each overload is named (`\.recordInt64`, `\.recordDouble`).

@Delegate(for: RecorderHandler.self)
protocol Recorders: RecorderHandler {
  @Handle("recordInt64") @Selector("recordInt64:") func record(_ value: Int64)
  @Handle("recordDouble") @Selector("recordDouble:") func record(_ value: Double)
}

@Delegate(for: MeterHandler.self)
protocol Meters: MeterHandler {
  @Handle("setInt64") @Selector("setInt64:") func set(_ value: Int64)
  @Handle("setDouble") @Selector("setDouble:") func set(_ value: Double)
  func increment(by: Double)
  func decrement(by: Double)
}

@Delegate(for: TimerHandler.self)
protocol Timers: TimerHandler {
  func recordNanoseconds(_ duration: Int64)
  func preferDisplayUnit(_ unit: TimeUnit)
}

// The answers when no factory answers: multicasts of no one. (Functions, because a macro's
// argument cannot name a type another macro generates.)
func noCounter() -> any CounterHandler { CountersMulticast() }
func noFloatingPointCounter() -> any FloatingPointCounterHandler {
  FloatingPointCountersMulticast()
}
func noRecorder() -> any RecorderHandler { RecordersMulticast() }
func noMeter() -> any MeterHandler { MetersMulticast() }
func noTimer() -> any TimerHandler { TimersMulticast() }

/// A multicast of metrics factories: a class.
@Delegate(for: MetricsFactory.self)
protocol MetricsFactories: MetricsFactory {
  @Default(noCounter())
  func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler
  @Default(noFloatingPointCounter())
  func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
    -> FloatingPointCounterHandler
  @Default(noMeter())
  func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler
  @Default(noRecorder())
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> RecorderHandler
  @Default(noTimer())
  func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler
  func destroyCounter(_ handler: CounterHandler)
  func destroyMeter(_ handler: MeterHandler)
  func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler)
  func destroyRecorder(_ handler: RecorderHandler)
  func destroyTimer(_ handler: TimerHandler)
}

/// The same multicast as a value (a struct over copy-on-write storage).
@Delegate(for: MetricsFactory.self, semantics: .value)
protocol ValueMetricsFactories: MetricsFactory {
  @Default(noCounter())
  func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler
  @Default(noFloatingPointCounter())
  func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
    -> FloatingPointCounterHandler
  @Default(noMeter())
  func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler
  @Default(noRecorder())
  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool)
    -> RecorderHandler
  @Default(noTimer())
  func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler
  func destroyCounter(_ handler: CounterHandler)
  func destroyMeter(_ handler: MeterHandler)
  func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler)
  func destroyRecorder(_ handler: RecorderHandler)
  func destroyTimer(_ handler: TimerHandler)
}

extension MetricsFactoriesMulticast {
  /// `factories` behind one factory: every `make…` answers the multicast of each factory's
  /// own handler.
  static func multiplexing(_ factories: [any MetricsFactory]) -> MetricsFactoriesMulticast {
    let multicast = MetricsFactoriesMulticast()
    // Strongly, as MultiplexMetricsHandler holds them.
    for factory in factories { multicast.add(factory, retention: .strong) }
    multicast.setPolicy(
      .reduce(.multicast(CountersMulticast.self)), for: \.makeCounterLabelDimensions)
    multicast.setPolicy(
      .reduce(.multicast(FloatingPointCountersMulticast.self)),
      for: \.makeFloatingPointCounterLabelDimensions)
    multicast.setPolicy(.reduce(.multicast(MetersMulticast.self)), for: \.makeMeterLabelDimensions)
    multicast.setPolicy(
      .reduce(.multicast(RecordersMulticast.self)), for: \.makeRecorderLabelDimensionsAggregate)
    multicast.setPolicy(.reduce(.multicast(TimersMulticast.self)), for: \.makeTimerLabelDimensions)
    return multicast
  }
}

extension ValueMetricsFactoriesMulticast {
  /// ``MetricsFactoriesMulticast/multiplexing(_:)`` as a value.
  static func multiplexing(_ factories: [any MetricsFactory]) -> ValueMetricsFactoriesMulticast {
    var multicast = ValueMetricsFactoriesMulticast()
    for factory in factories { multicast.add(factory, retention: .strong) }
    multicast.setPolicy(
      .reduce(.multicast(CountersMulticast.self)), for: \.makeCounterLabelDimensions)
    multicast.setPolicy(
      .reduce(.multicast(FloatingPointCountersMulticast.self)),
      for: \.makeFloatingPointCounterLabelDimensions)
    multicast.setPolicy(.reduce(.multicast(MetersMulticast.self)), for: \.makeMeterLabelDimensions)
    multicast.setPolicy(
      .reduce(.multicast(RecordersMulticast.self)), for: \.makeRecorderLabelDimensionsAggregate)
    multicast.setPolicy(.reduce(.multicast(TimersMulticast.self)), for: \.makeTimerLabelDimensions)
    return multicast
  }
}
