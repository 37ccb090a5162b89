// Every requirement of CoreMetrics's MetricsFactory, inherited ones included, restated
// for @Delegate by `swift package restate-delegate MetricsFactory --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import CoreMetrics

@Delegate(for: MetricsFactory.self, semantics: .value)
protocol MetricsFactories: MetricsFactory {
  @Default(noCounter())
  func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler
  @Default(noFloatingPointCounter())
  func makeFloatingPointCounter(label: String,
      dimensions: [(String, String)]) -> any FloatingPointCounterHandler
  @Default(noMeter())
  func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler
  @Default(noRecorder())
  func makeRecorder(label: String, dimensions: [(String, String)],
      aggregate: Bool) -> any RecorderHandler
  @Default(noTimer())
  func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler
  func destroyCounter(_ handler: any CounterHandler)
  func destroyMeter(_ handler: any MeterHandler)
  func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler)
  func destroyRecorder(_ handler: any RecorderHandler)
  func destroyTimer(_ handler: any TimerHandler)
}
