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
// (`record(_: Int64)` and `record(_: Double)`, `set(_:)` likewise). `@Delegate(for:)` cannot
// restate both (they would share the handle `\.record`, which the macro refuses), and
// restating one does not compile (the generated C-call table's `d.record(f.argument(0))`
// is ambiguous between them). So these two multicasts are written out as the macro writes
// the others — a `DelegateMulticast` subclass with its description, handles and methods —
// through the entry points generated code uses (`__delegateProtocol`, `__send`).

/// A multicast of `RecorderHandler`s, as `@Delegate(for: RecorderHandler.self)` would make it.
final class RecordersMulticast: DelegateMulticast<any RecorderHandler, RecordersMulticast.Handles>,
  RecorderHandler, @unchecked Sendable
{
  // @unchecked Sendable: every stored property lives in DelegateMulticast, which synchronises it.
  override class var __delegateProtocol: ProtocolDescription<any RecorderHandler> { described }
  private static let described = ProtocolDescription<any RecorderHandler>(
    name: "RecorderHandler",
    methods: [
      MethodDescription(
        selector: "recordInteger:", swiftName: "record(_:)", isRequired: true,
        parameters: [DelegateParameter("value", Int64.self)], result: Void.self, noAnswer: {}),
      MethodDescription(
        selector: "recordFloatingPoint:", swiftName: "record(_:)", isRequired: true,
        parameters: [DelegateParameter("value", Double.self)], result: Void.self, noAnswer: {}),
    ])
  /// The handles: `\.recordInteger`, `\.recordFloatingPoint`.
  struct Handles: MessageHandles {
    var recordInteger: MessageHandle<any RecorderHandler, Int64, Void> {
      MessageHandle(index: 0) { d, a in d.record(a) }
    }
    var recordFloatingPoint: MessageHandle<any RecorderHandler, Double, Void> {
      MessageHandle(index: 1) { d, a in d.record(a) }
    }
  }
  func record(_ value: Int64) { __send(Handles().recordInteger, value) { $0.record(value) } }
  func record(_ value: Double) {
    __send(Handles().recordFloatingPoint, value) { $0.record(value) }
  }
}

/// A multicast of `MeterHandler`s, as `@Delegate(for: MeterHandler.self)` would make it.
final class MetersMulticast: DelegateMulticast<any MeterHandler, MetersMulticast.Handles>,
  MeterHandler, @unchecked Sendable
{
  // @unchecked Sendable: every stored property lives in DelegateMulticast, which synchronises it.
  override class var __delegateProtocol: ProtocolDescription<any MeterHandler> { described }
  private static let described = ProtocolDescription<any MeterHandler>(
    name: "MeterHandler",
    methods: [
      MethodDescription(
        selector: "setInteger:", swiftName: "set(_:)", isRequired: true,
        parameters: [DelegateParameter("value", Int64.self)], result: Void.self, noAnswer: {}),
      MethodDescription(
        selector: "setFloatingPoint:", swiftName: "set(_:)", isRequired: true,
        parameters: [DelegateParameter("value", Double.self)], result: Void.self, noAnswer: {}),
      MethodDescription(
        selector: "incrementBy:", swiftName: "increment(by:)", isRequired: true,
        parameters: [DelegateParameter("by", Double.self)], result: Void.self, noAnswer: {}),
      MethodDescription(
        selector: "decrementBy:", swiftName: "decrement(by:)", isRequired: true,
        parameters: [DelegateParameter("by", Double.self)], result: Void.self, noAnswer: {}),
    ])
  /// The handles: `\.setInteger`, `\.setFloatingPoint`, `\.incrementBy`, `\.decrementBy`.
  struct Handles: MessageHandles {
    var setInteger: MessageHandle<any MeterHandler, Int64, Void> {
      MessageHandle(index: 0) { d, a in d.set(a) }
    }
    var setFloatingPoint: MessageHandle<any MeterHandler, Double, Void> {
      MessageHandle(index: 1) { d, a in d.set(a) }
    }
    var incrementBy: MessageHandle<any MeterHandler, Double, Void> {
      MessageHandle(index: 2) { d, a in d.increment(by: a) }
    }
    var decrementBy: MessageHandle<any MeterHandler, Double, Void> {
      MessageHandle(index: 3) { d, a in d.decrement(by: a) }
    }
  }
  func set(_ value: Int64) { __send(Handles().setInteger, value) { $0.set(value) } }
  func set(_ value: Double) { __send(Handles().setFloatingPoint, value) { $0.set(value) } }
  func increment(by amount: Double) {
    __send(Handles().incrementBy, amount) { $0.increment(by: amount) }
  }
  func decrement(by amount: Double) {
    __send(Handles().decrementBy, amount) { $0.decrement(by: amount) }
  }
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
