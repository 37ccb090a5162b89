import DelegateProxy
import InMemoryTracing
import Instrumentation
import IntegrationSupport
import Synchronization
import Testing

/// What one side's instruments did, in order.
final class CallLog: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ entry: String) { storage.withLock { $0.append(entry) } }
  var all: [String] { storage.withLock { $0 } }
}

/// The context keys of the three header instruments.
enum KeyA: InstrumentationContextKey { typealias Value = String }
enum KeyB: InstrumentationContextKey { typealias Value = String }
enum KeyC: InstrumentationContextKey { typealias Value = String }

/// Every instrument context value the test sets, as one line (contexts are not Equatable).
func summary(_ context: InstrumentationContext) -> String {
  let memory = context.inMemorySpanContext.map { "\($0.traceID)/\($0.spanID)" } ?? "-"
  return
    "A=\(context[KeyA.self] ?? "-") B=\(context[KeyB.self] ?? "-") C=\(context[KeyC.self] ?? "-") mem=\(memory)"
}

/// An instrument that propagates its key's value in its own header, and writes `x-last`
/// (so the members' order shows in the carrier); extracting, it records what the context
/// held before it — what the members before it extracted — so the `inout` threading shows.
struct HeaderInstrument<Key: InstrumentationContextKey>: Instrument where Key.Value == String {
  let name: String
  let log: CallLog

  func inject<Carrier, Inject>(
    _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
  ) where Inject: Injector, Carrier == Inject.Carrier {
    log.append("\(name) inject \(summary(context))")
    guard let value = context[Key.self] else { return }
    injector.inject(value, forKey: "x-\(name)", into: &carrier)
    injector.inject(name, forKey: "x-last", into: &carrier)
  }

  func extract<Carrier, Extract>(
    _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
  ) where Extract: Extractor, Carrier == Extract.Carrier {
    log.append("\(name) extract before \(summary(context))")
    guard let value = extractor.extract(key: "x-\(name)", from: carrier) else { return }
    let last = extractor.extract(key: "x-last", from: carrier) ?? "-"
    context[Key.self] = "\(value)|last=\(last)|seen=\(summary(context).count)"
  }
}

/// One side of the comparison: its instruments (fresh, with their own log and in-memory
/// tracers) and what they recorded.
struct Side {
  let log = CallLog()
  var instruments: [any Instrument] = []
  var memory: [InMemoryTracer] = []

  init(kinds: [Int]) {
    for kind in kinds {
      switch kind {
      case 0: instruments.append(HeaderInstrument<KeyA>(name: "a", log: log))
      case 1: instruments.append(HeaderInstrument<KeyB>(name: "b", log: log))
      case 2: instruments.append(HeaderInstrument<KeyC>(name: "c", log: log))
      default:
        let tracer = InMemoryTracer()
        memory.append(tracer)
        instruments.append(tracer)
      }
    }
  }

  /// What the in-memory tracers recorded.
  var recorded: [String] {
    memory.flatMap { tracer in
      tracer.performedContextInjections.map { "inject \($0.values.sorted { $0.key < $1.key })" }
        + tracer.performedContextExtractions.map { "extract \(summary($0.context))" }
    }
  }
}

@Suite("swift-distributed-tracing: Instrument against MultiplexInstrument")
struct InstrumentDifferentialTests {
  /// A seeded sequence of injections and extractions through 2 or 3 instruments (header
  /// instruments and in-memory tracers, in a random order): the multicast and
  /// `MultiplexInstrument` leave the same carriers and contexts, and their members see
  /// the same calls in the same order.
  @Test(arguments: [1, 2, 3, 26, 232])
  func sameCarriersAndContexts(seed: UInt64) {
    var random = SeededRandom(state: seed)
    var operations = 0
    for _ in 0..<40 {
      let kinds = Array(
        [0, 1, 2, 3].shuffled(using: &random).prefix(Int.random(in: 2...3, using: &random)))
      let hand = Side(kinds: kinds)
      let ours = Side(kinds: kinds)
      let multiplex = MultiplexInstrument(hand.instruments)
      let multicast = InstrumentsMulticast()
      for instrument in ours.instruments { multicast.add(instrument) }

      for _ in 0..<10 {
        operations += 1
        if Bool.random(using: &random) {
          var context = InstrumentationContext.topLevel
          if Bool.random(using: &random) { context[KeyA.self] = "va\(random.next() % 100)" }
          if Bool.random(using: &random) { context[KeyB.self] = "vb\(random.next() % 100)" }
          if Bool.random(using: &random) { context[KeyC.self] = "vc\(random.next() % 100)" }
          if Bool.random(using: &random) {
            context.inMemorySpanContext = InMemorySpanContext(
              traceID: "t\(random.next() % 100)", spanID: "s\(random.next() % 100)",
              parentSpanID: nil)
          }
          var handCarrier = ["x-prior": "\(random.next() % 10)"]
          var ourCarrier = handCarrier
          multiplex.inject(context, into: &handCarrier, using: DictionaryInjector())
          multicast.inject(context, into: &ourCarrier, using: DictionaryInjector())
          #expect(ourCarrier == handCarrier)
        } else {
          var carrier: [String: String] = [:]
          for name in ["a", "b", "c"] where Bool.random(using: &random) {
            carrier["x-\(name)"] = "h\(name)\(random.next() % 100)"
          }
          if Bool.random(using: &random) {
            carrier["x-last"] = ["a", "b", "c"].randomElement(using: &random)!
          }
          if Bool.random(using: &random) {
            carrier[InMemoryTracer.traceIDKey] = "T\(random.next() % 100)"
            carrier[InMemoryTracer.spanIDKey] = "S\(random.next() % 100)"
          }
          var handContext = InstrumentationContext.topLevel
          if Bool.random(using: &random) { handContext[KeyB.self] = "before" }
          var ourContext = handContext
          multiplex.extract(carrier, into: &handContext, using: DictionaryExtractor())
          multicast.extract(carrier, into: &ourContext, using: DictionaryExtractor())
          #expect(summary(ourContext) == summary(handContext))
        }
      }
      #expect(ours.log.all == hand.log.all)
      #expect(ours.recorded == hand.recorded)
      #expect(!hand.log.all.isEmpty || !hand.recorded.isEmpty)
    }
    #expect(operations == 400)
  }
}
