import DelegateProxy
import Synchronization
import Testing

// A method whose answer is itself an object to fan out — a metrics factory's counter —
// folded into a multicast of the answers (`Reducer.multicast`): what swift-metrics'
// MultiplexMetricsHandler writes by hand, without its bugs (factories handed the
// multiplexer's wrapper instead of their own instrument, swift-metrics PR #222; a
// factory's counter not found again once wrapped, swift-prometheus #86).

@Delegate
protocol Instrument: AnyObject {
  func increment(by amount: Int)
  func reset()
}

@Delegate
protocol InstrumentFactory: AnyObject {
  @Default(noInstrument()) func makeInstrument(label: String) -> any Instrument
  func destroyInstrument(_ tally: any Instrument)
}

/// The answer when no factory answers: a multicast of no one. (A function, because a
/// macro's argument cannot name a type another macro generates.)
func noInstrument() -> any Instrument { InstrumentMulticast() }

/// A backend's own counter: what each factory makes.
final class BackendInstrument: Instrument, Sendable {
  let backend: String
  let label: String
  private let count = Atomic(0)
  init(backend: String, label: String) {
    self.backend = backend
    self.label = label
  }
  var value: Int { count.load(ordering: .relaxed) }
  func increment(by amount: Int) { count.add(amount, ordering: .relaxed) }
  func reset() { count.store(0, ordering: .relaxed) }
}

/// A backend: makes its own counters, and hears them destroyed.
final class Backend: InstrumentFactory, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread.
  let name: String
  var made: [BackendInstrument] = []
  var destroyed: [String] = []
  init(_ name: String) { self.name = name }
  func makeInstrument(label: String) -> any Instrument {
    let tally = BackendInstrument(backend: name, label: label)
    made.append(tally)
    return tally
  }
  /// What `destroyInstrument` was handed, in order.
  var handed: [any Instrument] = []
  func destroyInstrument(_ tally: any Instrument) {
    // Each backend is handed its own counter back, never the multicast of them (no
    // unwrapping here: the multicast pairs the argument with its member).
    handed.append(tally)
    if let own = tally as? BackendInstrument { destroyed.append("\(own.backend):\(own.label)") }
  }
}

@Suite("A multicast of answers: Reducer.multicast")
struct MulticastAnswerTests {
  @Test("every factory makes its own counter with the label; an increment reaches each")
  func fansOutTheAnswer() throws {
    let factories = InstrumentFactoryMulticast()
    let prometheus = Backend("prometheus")
    let statsd = Backend("statsd")
    factories.add(prometheus)
    factories.add(statsd)
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)

    let requests = factories.makeInstrument(label: "requests")
    requests.increment(by: 2)
    requests.increment(by: 3)
    #expect(prometheus.made.map(\.label) == ["requests"])
    #expect(statsd.made.map(\.label) == ["requests"])
    #expect(prometheus.made[0].value == 5 && statsd.made[0].value == 5)

    // The answer is a multicast of each factory's own counter, found again by type.
    let multicast = try #require(requests as? InstrumentMulticast)
    #expect(
      multicast.members(ofType: BackendInstrument.self).map(\.backend) == ["prometheus", "statsd"])
    #expect(multicast.first(ofType: BackendInstrument.self) === prometheus.made[0])
  }

  @Test("the answers are held by the multicast of them alone, strongly")
  func answersAreHeldStrongly() {
    let factories = InstrumentFactoryMulticast()
    let backend = Backend("memory")
    factories.add(backend)
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)
    let tally = factories.makeInstrument(label: "bytes")
    weak let own = backend.made.first
    backend.made.removeAll()
    #expect(own != nil)
    tally.increment(by: 7)
    #expect(own?.value == 7)
  }

  @Test("no factory: a multicast of no one (the @Default here), which ignores increments")
  func noFactory() {
    let factories = InstrumentFactoryMulticast()
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)
    let tally = factories.makeInstrument(label: "idle")
    tally.increment(by: 1)
    #expect((tally as? InstrumentMulticast)?.count == 0)
  }

  @Test("destroy hands each factory its own counter back, through the multicast of them")
  func destroyReachesEachFactorysOwnCounter() {
    let factories = InstrumentFactoryMulticast()
    let a = Backend("a")
    let b = Backend("b")
    factories.add(a)
    factories.add(b)
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)
    let tally = factories.makeInstrument(label: "jobs")
    factories.destroyInstrument(tally)
    #expect(a.destroyed == ["a:jobs"])
    #expect(b.destroyed == ["b:jobs"])
    // Its own object, not a wrapper of it.
    #expect(a.handed.count == 1 && a.handed[0] === a.made[0])
    #expect(b.handed.count == 1 && b.handed[0] === b.made[0])
  }
}
