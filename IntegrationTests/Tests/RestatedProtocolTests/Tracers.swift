// Every requirement of Tracing's Tracer, inherited ones included, restated
// for @Delegate by `swift package restate-delegate Tracer --bind Span=Spans --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Tracing
import Instrumentation

@Delegate(for: Tracer.self)
protocol Tracers: Tracer where Span: Spans {
  @available(macOS, introduced: 10.15)
  @available(watchOS, introduced: 6)
  @available(iOS, introduced: 13)
  @available(tvOS, introduced: 13)
  func startSpan<Instant>(_ operationName: String,
      context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
      at instant: @autoclosure () -> Instant, function: String, file fileID: String,
      line: UInt) -> Span where Instant : TracerInstant
  @available(macOS, introduced: 10.15)
  @available(watchOS, introduced: 6)
  @available(iOS, introduced: 13)
  @available(tvOS, introduced: 13)
  func activeSpan(identifiedBy context: InstrumentationContext) -> Span?
  @available(macOS, introduced: 10.15)
  @available(watchOS, introduced: 6)
  @available(iOS, introduced: 13)
  @available(*, deprecated, message: "prefer withSpan")
  @available(tvOS, introduced: 13)
  @Default(noSpan())
  func startAnySpan<Instant>(_ operationName: String,
      context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
      at instant: @autoclosure () -> Instant, function: String, file fileID: String,
      line: UInt) -> any Tracing.Span where Instant : TracerInstant
  @available(macOS, introduced: 10.15)
  @available(watchOS, introduced: 6)
  @available(iOS, introduced: 13)
  @available(*, deprecated)
  @available(tvOS, introduced: 13)
  func forceFlush()
  func extract<Carrier, Extract>(_ carrier: Carrier, into context: inout InstrumentationContext,
      using extractor: Extract) where Carrier == Extract.Carrier, Extract : Extractor
  func inject<Carrier, Inject>(_ context: InstrumentationContext, into carrier: inout Carrier,
      using injector: Inject) where Carrier == Inject.Carrier, Inject : Injector
}
