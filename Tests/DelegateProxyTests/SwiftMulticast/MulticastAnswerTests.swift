import DelegateProxy
import Synchronization
import Testing

// A method whose answer is itself an object to fan out — a metrics factory's counter —
// folded into a multicast of the answers (`Reducer.multicast`): what swift-metrics'
// MultiplexMetricsHandler writes by hand, without its bugs (factories handed the
// multiplexer's wrapper instead of their own instrument, swift-metrics PR #222; a
// factory's counter not found again once wrapped, swift-prometheus #86).

@Delegate
protocol Tally: AnyObject {
  func increment(by amount: Int)
  func reset()
}

@Delegate
protocol TallyFactory: AnyObject {
  @Default(noTally()) func makeTally(label: String) -> any Tally
  func destroyTally(_ tally: any Tally)
}

/// The answer when no factory answers: a multicast of no one. (A function, because a
/// macro's argument cannot name a type another macro generates.)
func noTally() -> any Tally { TallyMulticast() }

/// A backend's own counter: what each factory makes.
final class BackendTally: Tally, Sendable {
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
final class Backend: TallyFactory, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread.
  let name: String
  var made: [BackendTally] = []
  var destroyed: [String] = []
  init(_ name: String) { self.name = name }
  func makeTally(label: String) -> any Tally {
    let tally = BackendTally(backend: name, label: label)
    made.append(tally)
    return tally
  }
  func destroyTally(_ tally: any Tally) {
    // Each backend is handed its own counter back, never the multicast of them.
    if let own = tally as? BackendTally { destroyed.append("\(own.backend):\(own.label)") }
    if let many = tally as? TallyMulticast {
      for own in many.members(ofType: BackendTally.self) where own.backend == name {
        destroyed.append("\(own.backend):\(own.label)")
      }
    }
  }
}

@Suite("A multicast of answers: Reducer.multicast")
struct MulticastAnswerTests {
  @Test("every factory makes its own counter with the label; an increment reaches each")
  func fansOutTheAnswer() throws {
    let factories = TallyFactoryMulticast()
    let prometheus = Backend("prometheus")
    let statsd = Backend("statsd")
    factories.add(prometheus)
    factories.add(statsd)
    factories.setPolicy(.reduce(.multicast(TallyMulticast.self)), for: \.makeTallyLabel)

    let requests = factories.makeTally(label: "requests")
    requests.increment(by: 2)
    requests.increment(by: 3)
    #expect(prometheus.made.map(\.label) == ["requests"])
    #expect(statsd.made.map(\.label) == ["requests"])
    #expect(prometheus.made[0].value == 5 && statsd.made[0].value == 5)

    // The answer is a multicast of each factory's own counter, found again by type.
    let multicast = try #require(requests as? TallyMulticast)
    #expect(
      multicast.members(ofType: BackendTally.self).map(\.backend) == ["prometheus", "statsd"])
    #expect(multicast.first(ofType: BackendTally.self) === prometheus.made[0])
  }

  @Test("the answers are held by the multicast of them alone, strongly")
  func answersAreHeldStrongly() {
    let factories = TallyFactoryMulticast()
    let backend = Backend("memory")
    factories.add(backend)
    factories.setPolicy(.reduce(.multicast(TallyMulticast.self)), for: \.makeTallyLabel)
    let tally = factories.makeTally(label: "bytes")
    weak let own = backend.made.first
    backend.made.removeAll()
    #expect(own != nil)
    tally.increment(by: 7)
    #expect(own?.value == 7)
  }

  @Test("no factory: a multicast of no one (the @Default here), which ignores increments")
  func noFactory() {
    let factories = TallyFactoryMulticast()
    factories.setPolicy(.reduce(.multicast(TallyMulticast.self)), for: \.makeTallyLabel)
    let tally = factories.makeTally(label: "idle")
    tally.increment(by: 1)
    #expect((tally as? TallyMulticast)?.count == 0)
  }

  @Test("destroy hands each factory its own counter back, through the multicast of them")
  func destroyReachesEachFactorysOwnCounter() {
    let factories = TallyFactoryMulticast()
    let a = Backend("a")
    let b = Backend("b")
    factories.add(a)
    factories.add(b)
    factories.setPolicy(.reduce(.multicast(TallyMulticast.self)), for: \.makeTallyLabel)
    let tally = factories.makeTally(label: "jobs")
    factories.destroyTally(tally)
    #expect(a.destroyed == ["a:jobs"])
    #expect(b.destroyed == ["b:jobs"])
  }
}
