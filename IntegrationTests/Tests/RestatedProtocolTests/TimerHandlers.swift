// Every requirement of CoreMetrics's TimerHandler, inherited ones included, restated
// for @Delegate by `swift package restate-delegate TimerHandler --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import CoreMetrics

@Delegate(for: TimerHandler.self)
protocol TimerHandlers: TimerHandler {
  func recordNanoseconds(_ duration: Int64)
  func preferDisplayUnit(_ unit: TimeUnit)
}
