import DelegateProxy
import InMemoryTracing
import Instrumentation
import Tracing

/// swift-distributed-tracing's `Instrument`, restated: two generic requirements with
/// `where` clauses and an `inout` parameter, each member called with the same generic
/// arguments — what `MultiplexInstrument` writes by hand.
@Delegate(for: Instrument.self)
protocol Instruments: Instrument {
  func extract<Carrier, Extract>(
    _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
  where Extract: Extractor, Extract.Carrier == Carrier

  func inject<Carrier, Inject>(
    _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
  where Inject: Injector, Inject.Carrier == Carrier
}

/// swift-distributed-tracing's `Span`, restated: every write, event, error, status and end
/// reaches every member's own span.
@Delegate(for: Tracing.Span.self)
protocol Spans: Tracing.Span {
  /// The context the caller runs its operation in: the last member's (each member's span
  /// context sits under its own key in it, so a context holds one tracer's of each kind).
  @Default(InstrumentationContext.topLevel) var context: InstrumentationContext { get }
  var operationName: String { get nonmutating set }
  func setStatus(_ status: SpanStatus)
  func addEvent(_ event: SpanEvent)
  func recordError<Instant: TracerInstant>(
    _ error: Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant)
  @Default([:]) var attributes: SpanAttributes { get nonmutating set }
  var isRecording: Bool { get }
  func addLink(_ link: SpanLink)
  func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant)
}

/// swift-distributed-tracing's `Tracer`, restated. `where Span: Spans` binds the
/// associated type: the multicast's `Span` is `SpansMulticast`, and `startSpan` answers
/// one holding every member's own span (swift-distributed-tracing #232).
@Delegate(for: Tracer.self)
protocol Tracers: Tracer where Span: Spans {
  func startSpan<Instant: TracerInstant>(
    _ operationName: String, context: @autoclosure () -> InstrumentationContext,
    ofKind kind: SpanKind, at instant: @autoclosure () -> Instant, function: String,
    file fileID: String, line: UInt
  ) -> Span

  func activeSpan(identifiedBy context: InstrumentationContext) -> Span?

  func extract<Carrier, Extract>(
    _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
  where Extract: Extractor, Extract.Carrier == Carrier

  func inject<Carrier, Inject>(
    _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
  where Inject: Injector, Inject.Carrier == Carrier

  /// `LegacyTracer`'s, deprecated: forwarded from witnesses deprecated too.
  @available(*, deprecated)
  func forceFlush()
}

/// A `[String: String]` carrier, written and read by key.
struct DictionaryInjector: Injector {
  func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
    carrier[key] = value
  }
}

/// Reads a `[String: String]` carrier.
struct DictionaryExtractor: Extractor {
  func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
