// Every requirement of CoreMetrics's FloatingPointCounterHandler, inherited ones included, restated
// for @Delegate by `swift package restate-delegate FloatingPointCounterHandler --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import CoreMetrics

@Delegate(for: FloatingPointCounterHandler.self)
protocol FloatingPointCounterHandlers: FloatingPointCounterHandler {
  func increment(by: Double)
  func reset()
}
