// Every requirement of Tracing's Span, inherited ones included, restated
// for @Delegate by `swift package restate-delegate Tracing.Span --name Spans --semantics reference --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Tracing
import Instrumentation

@Delegate(for: Tracing.Span.self, semantics: .reference)
protocol Spans: Tracing.Span {
  @Default(InstrumentationContext.topLevel)
  var context: InstrumentationContext { get }
  var operationName: String { get nonmutating set }
  func setStatus(_ status: SpanStatus)
  func addEvent(_ event: SpanEvent)
  func recordError<Instant>(_ error: any Error, attributes: SpanAttributes,
      at instant: @autoclosure () -> Instant) where Instant : TracerInstant
  @Default([:])
  var attributes: SpanAttributes { get nonmutating set }
  var isRecording: Bool { get }
  func addLink(_ link: SpanLink)
  func end<Instant>(at instant: @autoclosure () -> Instant) where Instant : TracerInstant
}
