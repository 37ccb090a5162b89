// Every requirement of Instrumentation's Instrument, inherited ones included, restated
// for @Delegate by `swift package restate-delegate Instrument --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import Instrumentation

@Delegate(for: Instrument.self, semantics: .value)
protocol Instruments: Instrument {
  func extract<Carrier, Extract>(_ carrier: Carrier, into context: inout InstrumentationContext,
      using extractor: Extract) where Carrier == Extract.Carrier, Extract : Extractor
  func inject<Carrier, Inject>(_ context: InstrumentationContext, into carrier: inout Carrier,
      using injector: Inject) where Carrier == Inject.Carrier, Inject : Injector
}
