import DelegateProxy
import Synchronization
import Testing

// An answer gathered by Reducer.multicast, passed back as an argument to the multicast whose
// members answered, reaches each member as the part that member made (swift-metrics PR
// #222: MultiplexMetricsHandler handed factories its wrapper). Uses MulticastAnswerTests'
// Instrument, InstrumentFactory, Backend and BackendInstrument.

/// A registry of instruments whose methods take an instrument among other arguments, and
/// through every dispatch path: a tuple of arguments, two instruments, `throws`, `async`.
@Delegate
protocol InstrumentRegistry: AnyObject {
  @Default(noInstrument()) func register(label: String) -> any Instrument
  func note(_ text: String, on tally: any Instrument, weight: Double) -> String
  func compare(_ first: any Instrument, _ second: any Instrument)
  func retire(_ tally: any Instrument) throws
  func drain(_ tally: any Instrument) async
}

/// A registry backend: makes its own instruments and logs what each call handed it.
final class RegistryBackend: InstrumentRegistry, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one task at a time.
  let name: String
  var made: [BackendInstrument] = []
  var log: [String] = []
  init(_ name: String) { self.name = name }

  /// `name:label` of an instrument handed to it: its own, or `other` for anything else.
  func describe(_ tally: any Instrument) -> String {
    guard let own = tally as? BackendInstrument, made.contains(where: { $0 === own }) else {
      return "other"
    }
    return "\(own.backend):\(own.label)"
  }
  func register(label: String) -> any Instrument {
    let tally = BackendInstrument(backend: name, label: label)
    made.append(tally)
    return tally
  }
  func note(_ text: String, on tally: any Instrument, weight: Double) -> String {
    log.append("note \(text) \(describe(tally)) \(weight)")
    return name
  }
  func compare(_ first: any Instrument, _ second: any Instrument) {
    log.append("compare \(describe(first)) \(describe(second))")
  }
  func retire(_ tally: any Instrument) throws { log.append("retire \(describe(tally))") }
  func drain(_ tally: any Instrument) async { log.append("drain \(describe(tally))") }
}

/// A factory protocol that is not class-bound: its multicast is a value, its members structs.
@Delegate
protocol ValueInstrumentFactory {
  @Default(noInstrument()) func makeInstrument(label: String) -> any Instrument
  func destroyInstrument(_ tally: any Instrument)
}

/// What the struct factories made and were handed, shared by their copies.
final class FactoryLog: @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one thread.
  var made: [BackendInstrument] = []
  var handed: [(factory: String, tally: any Instrument)] = []
}

/// A struct factory.
struct StructFactory: ValueInstrumentFactory {
  let name: String
  let log: FactoryLog
  func makeInstrument(label: String) -> any Instrument {
    let tally = BackendInstrument(backend: name, label: label)
    log.made.append(tally)
    return tally
  }
  func destroyInstrument(_ tally: any Instrument) { log.handed.append((name, tally)) }
}

@Suite("Each member gets its own answer back: argument pairing")
struct MulticastAnswerPairingTests {
  /// Two registries under `Reducer.multicast`, and an instrument they made.
  func makeRegistries() -> (InstrumentRegistryMulticast, RegistryBackend, RegistryBackend) {
    let registries = InstrumentRegistryMulticast()
    let a = RegistryBackend("a")
    let b = RegistryBackend("b")
    registries.add(a)
    registries.add(b)
    registries.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.registerLabel)
    return (registries, a, b)
  }

  @Test("a paired argument among others: each member its own part, the rest as given")
  func pairedAmongOtherArguments() {
    let (registries, a, b) = makeRegistries()
    let jobs = registries.register(label: "jobs")
    #expect(registries.note("hello", on: jobs, weight: 2.5) == "b")
    #expect(a.log == ["note hello a:jobs 2.5"])
    #expect(b.log == ["note hello b:jobs 2.5"])
  }

  @Test("two paired arguments, from two answers")
  func twoPairedArguments() {
    let (registries, a, b) = makeRegistries()
    let jobs = registries.register(label: "jobs")
    let bytes = registries.register(label: "bytes")
    registries.compare(jobs, bytes)
    #expect(a.log == ["compare a:jobs a:bytes"])
    #expect(b.log == ["compare b:jobs b:bytes"])
  }

  @Test("throws and async methods pair as the others do")
  func throwingAndAsync() async throws {
    let (registries, a, b) = makeRegistries()
    let jobs = registries.register(label: "jobs")
    try registries.retire(jobs)
    await registries.drain(jobs)
    #expect(a.log == ["retire a:jobs", "drain a:jobs"])
    #expect(b.log == ["retire b:jobs", "drain b:jobs"])
    registries.setConcurrency(.concurrent, for: \.drain)
    await registries.drain(jobs)
    #expect(a.log.last == "drain a:jobs" && b.log.last == "drain b:jobs")
  }

  @Test("broadcast pairs as a call does")
  func broadcastPairs() async {
    let factories = InstrumentFactoryMulticast()
    let a = Backend("a")
    let b = Backend("b")
    factories.add(a)
    factories.add(b)
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)
    let tally = factories.makeInstrument(label: "jobs")
    await factories.broadcast(\.destroyInstrument, tally)
    #expect(a.handed.count == 1 && a.handed[0] === a.made[0])
    #expect(b.handed.count == 1 && b.handed[0] === b.made[0])
  }

  @Test("a member with no part (added later, or its part removed) is not called for it")
  func memberWithoutPartIsNotCalled() throws {
    let (registries, a, b) = makeRegistries()
    let jobs = registries.register(label: "jobs")
    let late = RegistryBackend("late")
    registries.add(late)
    _ = registries.note("x", on: jobs, weight: 1)
    #expect(a.log == ["note x a:jobs 1.0"] && b.log == ["note x b:jobs 1.0"])
    #expect(late.log.isEmpty)
    // An answer made after it joined has its part.
    let bytes = registries.register(label: "bytes")
    registries.compare(bytes, bytes)
    #expect(late.log == ["compare late:bytes late:bytes"])
    // The calls that pass no answer reach it as before.
    let own = late.made[0]
    registries.compare(own, own)
    #expect(late.log.last == "compare late:bytes late:bytes")
    #expect(a.log.last == "compare other other")

    // A's part removed from the answer: a is not called for it, b is.
    let multicast = try #require(jobs as? InstrumentMulticast)
    multicast.remove(a.made[0])
    try registries.retire(jobs)
    #expect(a.log.last != "retire a:jobs" && !a.log.contains { $0.hasPrefix("retire") })
    #expect(b.log.last == "retire b:jobs")
  }

  @Test("an answer another multicast gathered, or a multicast made by hand, passes as it is")
  func otherAnswersPassAsTheyAre() throws {
    let (registries, a, b) = makeRegistries()
    let (others, _, _) = makeRegistries()
    let theirs = others.register(label: "theirs")
    let byHand = InstrumentMulticast()
    registries.compare(theirs, byHand)
    #expect(a.log == ["compare other other"] && b.log == ["compare other other"])
    // A multicast that never gathered an answer hands its members the argument unchanged.
    let factories = InstrumentFactoryMulticast()
    let plain = Backend("plain")
    factories.add(plain)
    factories.destroyInstrument(theirs)
    #expect(plain.handed.count == 1 && plain.handed[0] === theirs)
  }

  @Test("a value multicast of struct factories, and its copies, hand each its own")
  func valueMulticast() {
    let log = FactoryLog()
    var factories = ValueInstrumentFactoryMulticast()
    factories.add(StructFactory(name: "a", log: log))
    factories.add(StructFactory(name: "b", log: log))
    factories.setPolicy(.reduce(.multicast(InstrumentMulticast.self)), for: \.makeInstrumentLabel)
    let tally = factories.makeInstrument(label: "jobs")
    #expect(log.made.map(\.backend) == ["a", "b"])
    factories.destroyInstrument(tally)
    #expect(log.handed.map(\.factory) == ["a", "b"])
    #expect(log.handed[0].tally === log.made[0] && log.handed[1].tally === log.made[1])

    // A copy changed afterwards (its own multicast now) pairs the same answer: its members
    // keep their numbers; the member only the copy has is not called for it.
    var copy = factories
    copy.add(StructFactory(name: "c", log: log))
    log.handed.removeAll()
    copy.destroyInstrument(tally)
    #expect(log.handed.map(\.factory) == ["a", "b"])
    #expect(log.handed[0].tally === log.made[0] && log.handed[1].tally === log.made[1])
  }
}
