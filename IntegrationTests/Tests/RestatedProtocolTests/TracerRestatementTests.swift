import DelegateProxy
import InMemoryTracing
import Instrumentation
import Testing
import Tracing

// Spans.swift is `swift package restate-delegate Tracing.Span --name Spans --semantics
// reference --target RestatedProtocolTests`'s output with the two `@Default`s the macro
// asked for (`context`, `attributes`: structs of another module); Tracers.swift is
// `restate-delegate Tracer --bind Span=Spans`'s, with the `@Default(noSpan())` the command
// asked for on the deprecated `startAnySpan`. Running the command again keeps them.

/// The answer of `startAnySpan` when no tracer answers: a multicast of no spans.
func noSpan() -> any Tracing.Span { SpansMulticast() }

@Suite("Tracer and Span restated by the command")
struct TracerRestatementTests {
  @Test("withSpan through the multicast starts and ends a span in both tracers")
  func withSpan() {
    let first = InMemoryTracer()
    let second = InMemoryTracer()
    let tracers = TracersMulticast()
    tracers.add(first)
    tracers.add(second)
    tracers.withSpan("checkout", context: .topLevel, ofKind: .server) { span in
      #expect(span.members(ofType: InMemorySpan.self).count == 2)
      span.attributes["user"] = "ada"
    }
    for tracer in [first, second] {
      #expect(tracer.finishedSpans.map(\.operationName) == ["checkout"])
    }
  }
}
