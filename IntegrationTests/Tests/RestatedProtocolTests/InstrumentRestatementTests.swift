import DelegateProxy
import Instrumentation
import Testing

// Instruments.swift is `swift package restate-delegate Instrument --target
// RestatedProtocolTests`'s output, unedited: generic requirements with `where` clauses and
// an `inout` parameter, each member called with the same generic arguments.

/// Writes its own header into a `[String: String]` carrier.
struct HeaderInstrument: Instrument {
  let key: String

  func inject<Carrier, Inject>(
    _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
  ) where Inject: Injector, Carrier == Inject.Carrier {
    injector.inject("on", forKey: key, into: &carrier)
  }

  func extract<Carrier, Extract>(
    _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
  ) where Extract: Extractor, Carrier == Extract.Carrier {}
}

/// A `[String: String]` carrier, written by key.
struct HeaderInjector: Injector {
  func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
    carrier[key] = value
  }
}

@Suite("Instrument restated by the command")
struct InstrumentRestatementTests {
  @Test("inject reaches both instruments, each writing into the same carrier")
  func inject() {
    var instruments = InstrumentsMulticast()
    instruments.add(HeaderInstrument(key: "trace"))
    instruments.add(HeaderInstrument(key: "baggage"))
    var headers: [String: String] = [:]
    instruments.inject(.topLevel, into: &headers, using: HeaderInjector())
    #expect(headers == ["trace": "on", "baggage": "on"])
  }
}
