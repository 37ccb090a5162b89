import DelegateProxy
import InMemoryTracing
import Instrumentation
import Synchronization
import Testing
import Tracing

/// An error an operation throws.
struct CheckoutFailed: Error, Equatable {}

/// What a finished in-memory span recorded, as one comparable line.
func recorded(_ span: FinishedInMemorySpan) -> String {
  var pairs: [String] = []
  span.attributes.forEach { name, value in pairs.append("\(name)=\(value)") }
  let attributes = pairs.sorted()
  let events = span.events.map { "\($0.name)\($0.attributes)" }
  let errors = span.errors.map { "\($0.error)" }
  let status = span.status.map { "\($0.code)" } ?? "-"
  return
    "\(span.operationName) kind=\(span.kind) attributes=\(attributes) events=\(events) errors=\(errors) status=\(status)"
}

/// An in-memory tracer whose ids are its own (`first-trace-1`, `first-span-1`, …).
func tracer(named name: String) -> InMemoryTracer {
  let counter = Counter()
  return InMemoryTracer(
    idGenerator: .init(
      nextTraceID: { "\(name)-trace-\(counter.next())" },
      nextSpanID: { "\(name)-span-\(counter.next())" }))
}

/// A shared counter for a tracer's ids.
final class Counter: Sendable {
  private let value = Mutex(0)
  func next() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }
}

@Suite("swift-distributed-tracing: a multicast Tracer")
struct MulticastTracerTests {
  /// Two in-memory tracers behind one multicast: `withSpan` starts a span on each, and
  /// every attribute, event and status reaches both, each finishing its own span.
  @Test func withSpanReachesEveryTracer() {
    let first = InMemoryTracer()
    let second = InMemoryTracer()
    let tracers = TracersMulticast()
    tracers.add(first)
    tracers.add(second)

    let answer = tracers.withSpan("checkout", context: .topLevel, ofKind: .server) { span in
      // The span the operation sees is the multicast of the tracers' own spans.
      #expect(span.members(ofType: InMemorySpan.self).count == 2)
      span.attributes["user"] = "ada"
      span.addEvent(SpanEvent(name: "paid", attributes: ["amount": 42]))
      span.setStatus(SpanStatus(code: .ok))
      return 7
    }

    #expect(answer == 7)
    #expect(first.finishedSpans.count == 1)
    #expect(second.finishedSpans.count == 1)
    let lines = (first.finishedSpans + second.finishedSpans).map(recorded)
    #expect(lines[0] == lines[1])
    #expect(first.finishedSpans[0].operationName == "checkout")
    #expect(first.finishedSpans[0].attributes["user"]?.toSpanAttribute() == "ada")
    #expect(second.finishedSpans[0].events.map(\.name) == ["paid"])
    #expect(second.finishedSpans[0].status?.code == .ok)
  }

  /// An error thrown by the operation is recorded, with an error status, by every
  /// tracer's span (`withSpan` records it on the multicast span, which sends it on).
  @Test func errorsReachEveryTracer() {
    let first = InMemoryTracer()
    let second = InMemoryTracer()
    let tracers = TracersMulticast()
    tracers.add(first)
    tracers.add(second)

    #expect(throws: CheckoutFailed.self) {
      try tracers.withSpan("checkout", context: .topLevel) { _ in throw CheckoutFailed() }
    }
    for tracer in [first, second] {
      #expect(tracer.finishedSpans.count == 1)
      #expect(tracer.finishedSpans[0].errors.count == 1)
      #expect(tracer.finishedSpans[0].errors[0].error as? CheckoutFailed == CheckoutFailed())
      #expect(tracer.finishedSpans[0].status?.code == .error)
    }
  }

  /// `startSpan` and `end` by hand, with a rename, a link and a recorded error: each
  /// tracer's span is active until the multicast span ends, then finished with the same
  /// name, attributes, events and errors.
  @Test func startSpanAndEnd() {
    let first = tracer(named: "first")
    let second = tracer(named: "second")
    let tracers = TracersMulticast()
    tracers.add(first)
    tracers.add(second)

    let span = tracers.startSpan("draft", context: .topLevel)
    #expect(first.activeSpans.count == 1)
    #expect(second.activeSpans.count == 1)
    span.operationName = "payment"
    span.attributes = ["card": "visa", "attempt": 2]
    span.addEvent("authorised")
    span.recordError(CheckoutFailed(), attributes: ["retry": true])
    span.addLink(SpanLink(context: .topLevel, attributes: [:]))
    #expect(span.isRecording)
    // Each tracer finds its own active span from its span's context; the multicast
    // gathers those that answer.
    let context = first.activeSpans[0].context
    let active = tracers.activeSpan(identifiedBy: context)
    #expect(
      active?.members(ofType: InMemorySpan.self).map(\.spanID) == [first.activeSpans[0].spanID])
    #expect(tracers.activeSpan(identifiedBy: .topLevel) == nil)
    span.end()

    #expect(first.activeSpans.isEmpty && second.activeSpans.isEmpty)
    for tracer in [first, second] {
      let finished = tracer.finishedSpans
      #expect(finished.count == 1)
      #expect(finished[0].operationName == "payment")
      #expect(finished[0].attributes["card"]?.toSpanAttribute() == "visa")
      #expect(finished[0].events.map(\.name) == ["authorised"])
      #expect(finished[0].errors.count == 1)
      #expect(finished[0].links.count == 1)
    }
    #expect(recorded(first.finishedSpans[0]) == recorded(second.finishedSpans[0]))
  }

  /// Nested spans: the inner span, started from the outer one's context, is a child in
  /// each tracer (the two in-memory tracers share one context key, so the multicast
  /// span's context — the last member's — names the last tracer's span as parent; the
  /// first tracer, whose ids come from an identical generator, sees the same ids).
  @Test func nestedSpansReachEveryTracer() {
    let first = InMemoryTracer()
    let second = InMemoryTracer()
    let tracers = TracersMulticast()
    tracers.add(first)
    tracers.add(second)

    tracers.withSpan("outer", context: .topLevel) { outer in
      tracers.withSpan("inner", context: outer.context) { _ in }
    }
    for tracer in [first, second] {
      #expect(tracer.finishedSpans.map(\.operationName) == ["inner", "outer"])
      #expect(tracer.finishedSpans[0].parentSpanID == tracer.finishedSpans[1].spanID)
    }
  }

  /// swift-distributed-tracing #232: `MultiplexInstrument` fans injection out to every
  /// member, but it is not a `Tracer`; `InstrumentationSystem.tracer` picks its first
  /// member that is one, so spans reach that tracer only. The multicast is a `Tracer`
  /// whose spans reach every member.
  @Test func differenceFromMultiplexInstrument() {
    let hand = (InMemoryTracer(), InMemoryTracer())
    let ours = (InMemoryTracer(), InMemoryTracer())
    let multiplex = MultiplexInstrument([hand.0, hand.1])
    #expect(!((multiplex as Any) is any Tracer))
    // What InstrumentationSystem.tracer answers for a bootstrapped MultiplexInstrument: its
    // first member that is a tracer (not bootstrapped here: the system is process-wide).
    let picked = [hand.0, hand.1].first { ($0 as Any) is any Tracer }!
    picked.withSpan("checkout", context: .topLevel) { _ in }
    #expect(hand.0.finishedSpans.count == 1)
    #expect(hand.1.finishedSpans.isEmpty)

    let tracers = TracersMulticast()
    tracers.add(ours.0)
    tracers.add(ours.1)
    tracers.withSpan("checkout", context: .topLevel) { _ in }
    #expect(ours.0.finishedSpans.count == 1)
    #expect(ours.1.finishedSpans.count == 1)

    // Injection reaches every member on both sides.
    var context = InstrumentationContext.topLevel
    context.inMemorySpanContext = InMemorySpanContext(traceID: "t", spanID: "s", parentSpanID: nil)
    var handCarrier: [String: String] = [:]
    var ourCarrier: [String: String] = [:]
    multiplex.inject(context, into: &handCarrier, using: DictionaryInjector())
    tracers.inject(context, into: &ourCarrier, using: DictionaryInjector())
    #expect(ourCarrier == handCarrier)
    #expect(hand.1.performedContextInjections.count == 1)
    #expect(ours.1.performedContextInjections.count == 1)
  }

  /// A multicast of no tracers starts a multicast span of no spans, which records nothing.
  @Test func noTracers() {
    let tracers = TracersMulticast()
    let span = tracers.startSpan("nothing", context: .topLevel)
    #expect(span.members(ofType: InMemorySpan.self).isEmpty)
    #expect(!span.isRecording)
    span.end()
  }
}
