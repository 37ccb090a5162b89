// Every requirement of CoreMetrics's RecorderHandler, inherited ones included, restated
// for @Delegate by `swift package restate-delegate RecorderHandler --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import CoreMetrics

@Delegate(for: RecorderHandler.self)
protocol RecorderHandlers: RecorderHandler {
  func record(_ value: Int64)
  @Handle("recordDouble") @Selector("recordDouble:")
  func record(_ value: Double)
}
