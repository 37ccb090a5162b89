// Every requirement of CoreMetrics's MeterHandler, inherited ones included, restated
// for @Delegate by `swift package restate-delegate MeterHandler --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import CoreMetrics

@Delegate(for: MeterHandler.self)
protocol MeterHandlers: MeterHandler {
  func set(_ value: Int64)
  @Handle("setDouble") @Selector("setDouble:")
  func set(_ value: Double)
  func increment(by: Double)
  func decrement(by: Double)
}
