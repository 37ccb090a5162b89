import CoreMetrics
import DelegateProxy
import IntegrationSupport
import Testing

/// One live metric of a run, made through swift-metrics' API with an explicit factory.
enum Metric {
  case counter(Counter)
  case floatingPointCounter(FloatingPointCounter)
  case recorder(Recorder)
  case meter(Meter)
  case timer(CoreMetrics.Timer)
}

/// Three recording backends on one log: a class, a struct, and one that leans on
/// swift-metrics' defaults.
func backends(_ log: CallLog) -> [any MetricsFactory] {
  [
    RecordingFactory("f0", log: log), StructRecordingFactory(name: "f1", log: log),
    MinimalRecordingFactory("f2", log: log),
  ]
}

@Suite("swift-metrics: @Delegate multicasts against MultiplexMetricsHandler")
struct MultiplexMetricsHandlerDifferentialTests {
  static let seeds: [UInt64] = [1, 2, 3, 42, 2026]
  static let steps = 400

  /// Runs `steps` seeded operations — make, increment, reset, record, set, destroy — on
  /// metrics made by `factory`; returns how many operations it ran.
  @discardableResult
  static func run(seed: UInt64, steps: Int, factory: any MetricsFactory) -> Int {
    var random = SeededRandom(state: seed)
    var live: [Metric] = []
    let dimensionChoices: [[(String, String)]] = [[], [("route", "/a")], [("a", "1"), ("b", "2")]]
    for step in 0..<steps {
      let dimensions = dimensionChoices.randomElement(using: &random)!
      let label = "m\(step)"
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1:
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
          live.append(.counter(Counter(label: label, dimensions: dimensions, factory: factory)))
        case 1:
          live.append(
            .floatingPointCounter(
              FloatingPointCounter(label: label, dimensions: dimensions, factory: factory)))
        case 2:
          live.append(
            .recorder(
              Recorder(label: label, dimensions: dimensions, aggregate: true, factory: factory)))
        case 3:
          live.append(.recorder(Gauge(label: label, dimensions: dimensions, factory: factory)))
        case 4: live.append(.meter(Meter(label: label, dimensions: dimensions, factory: factory)))
        default:
          live.append(
            .timer(
              Bool.random(using: &random)
                ? CoreMetrics.Timer(label: label, dimensions: dimensions, factory: factory)
                : CoreMetrics.Timer(
                  label: label, dimensions: dimensions, preferredDisplayUnit: .milliseconds,
                  factory: factory)))
        }
      case 2 where !live.isEmpty:
        switch live.remove(at: Int.random(in: 0..<live.count, using: &random)) {
        case .counter(let c): c.destroy()
        case .floatingPointCounter(let c): c.destroy()
        case .recorder(let r): r.destroy()
        case .meter(let m): m.destroy()
        case .timer(let t): t.destroy()
        }
      default:
        guard !live.isEmpty else { continue }
        let amount = Int.random(in: -3...50, using: &random)
        let choice = Bool.random(using: &random)
        switch live[Int.random(in: 0..<live.count, using: &random)] {
        case .counter(let c): if choice { c.increment(by: max(amount, 0)) } else { c.reset() }
        case .floatingPointCounter(let c):
          if choice { c.increment(by: Double(max(amount, 0)) / 4) } else { c.reset() }
        case .recorder(let r): if choice { r.record(amount) } else { r.record(Double(amount) / 8) }
        case .meter(let m):
          switch amount % 4 {
          case 0: m.set(amount)
          case 1: m.set(Double(amount) / 2)
          case 2: m.increment(by: Double(amount))
          default: m.decrement(by: Double(amount) / 3)
          }
        case .timer(let t): t.recordNanoseconds(Int64(max(amount, 0)) * 1_000)
        }
      }
    }
    return steps
  }

  /// The same run through MultiplexMetricsHandler and through `multicast` (given the
  /// backends): both logs.
  static func compare(seed: UInt64, multicast: ([any MetricsFactory]) -> any MetricsFactory)
    -> (multiplex: [String], multicast: [String])
  {
    let multiplexLog = CallLog()
    run(
      seed: seed, steps: steps, factory: MultiplexMetricsHandler(factories: backends(multiplexLog)))
    let multicastLog = CallLog()
    run(seed: seed, steps: steps, factory: multicast(backends(multicastLog)))
    return (multiplexLog.lines, multicastLog.lines)
  }

  /// The checks every run must pass: the same calls in the same order, every handler's
  /// call on the handler its factory made, and every `destroy` handed the factory's own.
  static func check(_ logs: (multiplex: [String], multicast: [String]), seed: UInt64) {
    #expect(logs.multicast.count == logs.multiplex.count, "seed \(seed)")
    for (index, (theirs, ours)) in zip(logs.multiplex, logs.multicast).enumerated()
    where theirs != ours {
      Issue.record(
        "seed \(seed), call \(index): MultiplexMetricsHandler \(theirs), multicast \(ours)")
      break
    }
    let destroys = logs.multicast.filter { $0.contains(" destroy ") }
    #expect(!destroys.isEmpty, "seed \(seed): the run destroyed nothing")
    #expect(
      destroys.allSatisfy { $0.contains(" destroy ") && $0.contains(" own ") }, "seed \(seed)")
  }

  @Test(
    "seeded runs: the class multicast reaches each factory's handlers as MultiplexMetricsHandler does",
    arguments: seeds)
  func classMulticast(seed: UInt64) {
    let logs = Self.compare(seed: seed) { MetricsFactoriesMulticast.multiplexing($0) }
    Self.check(logs, seed: seed)
  }

  @Test("seeded runs: the value multicast (struct) does the same", arguments: seeds)
  func valueMulticast(seed: UInt64) {
    let logs = Self.compare(seed: seed) { ValueMetricsFactoriesMulticast.multiplexing($0) }
    Self.check(logs, seed: seed)
  }

  @Test("the figures: seeds × operations and calls compared")
  func figures() {
    var calls = 0
    var destroys = 0
    for seed in Self.seeds {
      let logs = Self.compare(seed: seed) { MetricsFactoriesMulticast.multiplexing($0) }
      #expect(logs.multiplex == logs.multicast)
      calls += logs.multicast.count
      destroys += logs.multicast.filter { $0.contains(" destroy ") }.count
    }
    print(
      "swift-metrics differential: \(Self.seeds.count) seeds × \(Self.steps) operations, \(calls) calls compared per multicast (\(destroys) destroy calls, each handed the factory's own handler)"
    )
    #expect(calls > Self.seeds.count * Self.steps)
  }

  @Test("destroy hands each factory its own handler — not a wrapper (swift-metrics PR #222)")
  func destroyHandsEachItsOwn() throws {
    let log = CallLog()
    let factories = MetricsFactoriesMulticast.multiplexing(backends(log))
    let counter = Counter(label: "requests", factory: factories)
    counter.increment(by: 2)
    counter.destroy()
    #expect(
      log.lines == [
        "f0 make counter requests [] -> f0.counter#1",
        "f1 make counter requests [] -> f1.counter#1",
        "f2 make counter requests [] -> f2.counter#1",
        "f0.counter#1 increment 2", "f1.counter#1 increment 2", "f2.counter#1 increment 2",
        "f0 destroy counter own f0.counter#1",
        "f1 destroy counter own f1.counter#1",
        "f2 destroy counter own f2.counter#1",
      ])
  }

  @Test("members(ofType:) finds a factory's own handler again (swift-prometheus #86)")
  func findsOwnHandlerAgain() throws {
    let log = CallLog()
    let handler = MetricsFactoriesMulticast.multiplexing(backends(log))
      .makeCounter(label: "bytes", dimensions: [])
    let multicast = try #require(handler as? CountersMulticast)
    let own = multicast.members(ofType: RecordingHandler.self)
    #expect(own.map(\.name) == ["f0.counter#1", "f1.counter#1", "f2.counter#1"])
    #expect(multicast.first(ofType: RecordingHandler.self)?.factory == "f0")

    // MultiplexMetricsHandler's counter is its private MuxCounter: neither a backend's
    // handler nor anything that lists them, so a backend's counter cannot be reached.
    let theirs = MultiplexMetricsHandler(factories: backends(CallLog()))
      .makeCounter(label: "bytes", dimensions: [])
    #expect(!(theirs is RecordingHandler))
    #expect(!(theirs is CountersMulticast))
    #expect(String(describing: type(of: theirs)).contains("MuxCounter"))
  }

  @Test(
    "a handler neither made: MultiplexMetricsHandler drops its destroy, the multicast passes it on")
  func foreignHandler() {
    // MultiplexMetricsHandler (2.13.0) destroys only its own MuxCounter (`guard let mux =
    // handler as? MuxCounter else { return }`): a handler it did not make reaches no
    // factory. The multicast passes any handler it did not gather unchanged to every
    // factory, which decides (here each logs it as another factory's).
    let stray = RecordingHandler(factory: "elsewhere", kind: "counter", number: 9, log: CallLog())
    let theirLog = CallLog()
    MultiplexMetricsHandler(factories: backends(theirLog)).destroyCounter(stray)
    #expect(theirLog.lines.isEmpty)
    let ourLog = CallLog()
    MetricsFactoriesMulticast.multiplexing(backends(ourLog)).destroyCounter(stray)
    #expect(
      ourLog.lines == [
        "f0 destroy counter elsewhere.counter#9 of elsewhere",
        "f1 destroy counter elsewhere.counter#9 of elsewhere",
        "f2 destroy counter elsewhere.counter#9 of elsewhere",
      ])
  }

  @Test("a factory added after a counter was made is not handed that counter's destroy")
  func lateFactory() {
    let log = CallLog()
    let factories = MetricsFactoriesMulticast.multiplexing(backends(log))
    let counter = Counter(label: "jobs", factory: factories)
    let late = RecordingFactory("late", log: log)
    factories.add(late)
    counter.destroy()
    #expect(!log.lines.contains { $0.hasPrefix("late ") })
    #expect(log.lines.filter { $0.contains(" destroy ") }.count == 3)
  }
}
