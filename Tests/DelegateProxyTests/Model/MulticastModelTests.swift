@testable import DelegateProxy
import Foundation
import MessageRuntime
import DelegateProxyTestSupport
import Testing

/// Model-based property tests of both multicast faces: random sequences of operations
/// (add, insert, remove, deallocate, send from Swift and from C, policies, observers,
/// message sequences, injection) run against the library and against `ModelWorld`, a
/// reference model in plain Swift; every answer, every delivery (who, in what order, with
/// what argument), every observation, the membership order, the count and each
/// delegate's lifetime are compared after each step. A failing sequence is shrunk to a
/// minimal one and reported with its seed.
///
/// `DP_MODEL_SEED` (decimal or 0x hex) replaces the fixed base seed;
/// `DP_MODEL_SEQUENCES` the number of sequences per test.
@Suite("Multicast model", .tags(.model), .enabled(if: TestSelection.runs("model"))) struct MulticastModelTests {
  /// The fixed base seed: each CI run checks the same sequences.
  static let baseSeed: UInt64 = 0x19_5EED_2026

  static var seed: UInt64 {
    guard let text = ProcessInfo.processInfo.environment["DP_MODEL_SEED"] else { return baseSeed }
    let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    return parsed ?? baseSeed
  }

  static func sequences(_ standard: Int) -> Int {
    ProcessInfo.processInfo.environment["DP_MODEL_SEQUENCES"].flatMap { Int($0) } ?? standard
  }

  /// `DelegateMulticast` (`@Delegate`): membership, lifetimes, Swift and C sends, policies,
  /// observers, message sequences, a delegator's weak slot and secondary injection.
  @Test func swiftProtocolMulticastFollowsTheModel() async throws {
    ModelOptionalMethods.learnPlainListener()
    let report = await ModelCheck(face: .swiftProtocol, rules: ModelRules()).run(
      seed: Self.seed, sequences: Self.sequences(5_000))
    #expect(report.failure == nil, "\(report.failure ?? "")")
    #expect(report.stepsRun > report.sequences * 5)  // the sequences did something
    if report.sequences >= 500 {
      #expect(report.missing(Self.everyKind + Self.swiftFaceKinds) == [], "\(report.kinds)")
    }
  }

  /// Every operation kind both faces must have run in a full run.
  static let everyKind = [
    "add", "insert", "remove", "removeAll", "drop", "setPolicy", "defaultPolicy", "observe",
    "cancel", "messages", "aggregate", "send void via swift", "send value via swift",
    "send void via C imp",
    "send value via C imp", "send void via C adapter", "send value via C adapter",
  ]
  /// The runtime face's own: a nested proxy, and the cycle check.
  static let runtimeFaceKinds = [
    "nested.add", "nested.remove", "add(nested)", "remove(nested)", "nested.add(multicast)",
  ]
  /// The Swift face's own: a delegator's weak slot and injection.
  static let swiftFaceKinds = [
    "device.delegate", "inject", "injection.setPrimary", "injection.remove", "dropInjection",
    "device sends", "broadcast",
  ]

  /// `MulticastProxy` with runtime objects as delegates.
  @Test func runtimeMulticastProxyFollowsTheModel() async throws {
    let kit = try ModelRuntimeKit()
    let report = await ModelCheck(face: .runtime, rules: ModelRules(), kit: kit).run(
      seed: Self.seed, sequences: Self.sequences(5_000))
    #expect(report.failure == nil, "\(report.failure ?? "")")
    #expect(report.stepsRun > report.sequences * 5)
    if report.sequences >= 500 {
      #expect(report.missing(Self.everyKind + Self.runtimeFaceKinds) == [], "\(report.kinds)")
    }
  }

  /// A C caller meeting a member deallocated since the last change gets the live
  /// responders' answer (the C face reads the multicast's own members; it once mirrored
  /// them into a hidden proxy and answered that member's zero once).
  @Test func cSendAfterDeallocation() async throws {
    ModelOptionalMethods.learnPlainListener()
    let report = await ModelCheck(
      face: .swiftProtocol, rules: ModelRules(cSendAfterUnsyncedDeath: true),
      generator: .cSendsAfterDeaths
    ).run(seed: Self.seed, sequences: Self.sequences(1_000))
    #expect(report.failure == nil, "\(report.failure ?? "")")
  }

  /// A C caller of a value-returning method whose responders include a queued member gets
  /// the Swift multicast's rule: the queued member is called on its queue and waited for,
  /// its value counted.
  @Test func cValueSendToQueuedMember() async throws {
    ModelOptionalMethods.learnPlainListener()
    let report = await ModelCheck(
      face: .swiftProtocol, rules: ModelRules(cValueSendToQueuedMember: true),
      generator: .cValueSendsToQueues
    ).run(seed: Self.seed, sequences: Self.sequences(1_000))
    #expect(report.failure == nil, "\(report.failure ?? "")")
  }

  /// Found by the sequences (it shows only the first time in a process a class is found to
  /// lack an optional method, which is why the sequences learn `ModelPlainListener`'s
  /// missing methods before they start, see `ModelOptionalMethods`): a C caller's first
  /// call of an optional value method that reaches a delegate whose class lacks it must not
  /// count the generated default's zero, as from Swift. Fresh classes, one per path, so each
  /// is the first in the process.
  @Test func anOptionalMethodsDefaultIsNeverCountedOnFirstContact() throws {
    let recorder = ModelRecorder(face: .swiftProtocol)
    // From Swift: the first call finds the class lacking `measure` and does not count it.
    let swiftLacking = ModelFreshSwiftPathListener()
    let answering = ModelFullListener(slot: 4, recorder: recorder)  // measures 4
    let swiftSide = ModelProbeDelegateMulticast()
    swiftSide.setPolicy(.reduce(ReducerSupport.allTrue.relabeled()), for: \.measure)
    swiftSide.add(swiftLacking)
    swiftSide.add(answering)
    #expect(swiftSide.measure(1) == 1)  // all true: only the delegate that measures
    // From C: the same, through imp(for:).
    let cLacking = ModelFreshCPathListener()
    let cSide = ModelProbeDelegateMulticast()
    cSide.setPolicy(.reduce(ReducerSupport.allTrue.relabeled()), for: \.measure)
    cSide.add(cLacking)
    cSide.add(answering)
    typealias IntIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
    let measure = try cSide.runtime.imp(for: \.measure).unsafeCast(to: IntIMP.self)
    let first = measure(try cSide.runtime.rawValue(), cSide.runtime.selector(for: \.measure).rawValue, 1)
    #expect(first == 1)
    // Once learned, the class is out of the C routes too.
    let measureAgain = try cSide.runtime.imp(for: \.measure).unsafeCast(to: IntIMP.self)
    #expect(measureAgain(try cSide.runtime.rawValue(), cSide.runtime.selector(for: \.measure).rawValue, 1) == 1)
    withExtendedLifetime((swiftLacking, cLacking, answering)) {}
  }

  /// Found by the sequences: `generation` is documented to change "whenever the answers to
  /// responds(to:) may have changed", and it must do so for changes the multicast does not
  /// make itself too: a weakly held member deallocated (both faces: `add(d, weak)`,
  /// `drop(d)`), and a nested proxy gaining or losing a delegate (`MulticastProxy`:
  /// `add(nested)`, `nested.add(d)`). Both are looked at when the generation is read.
  @Test func theGenerationFollowsChangesOutsideTheProxy() throws {
    let recorder = ModelRecorder(face: .swiftProtocol)
    let multicast = ModelProbeDelegateMulticast()
    var listener: ModelFullListener? = ModelFullListener(slot: 0, recorder: recorder)
    multicast.add(listener!)
    #expect(multicast.responds(to: \.ping))
    let swiftBefore = multicast.generation
    listener = nil
    #expect(!multicast.responds(to: \.ping))
    let swiftAfter = multicast.generation

    let kit = try ModelRuntimeKit()
    let proxy = MulticastProxy(protocol: kit.proto)
    var delegate: ModelRuntimeDelegate? = ModelRuntimeDelegate(
      kit.full, slot: 0, recorder: ModelRecorder(face: .runtime))
    try proxy.add(delegate!)
    #expect(proxy.responds(to: ModelRuntimeKit.ping.selector))
    let runtimeBefore = proxy.generation
    delegate = nil
    #expect(!proxy.responds(to: ModelRuntimeKit.ping.selector))
    let runtimeAfter = proxy.generation

    let nested = MulticastProxy(protocol: kit.proto)
    try proxy.add(nested)
    let nestedBefore = proxy.generation
    let member = ModelRuntimeDelegate(kit.full, slot: 1, recorder: ModelRecorder(face: .runtime))
    try nested.add(member)
    #expect(proxy.responds(to: ModelRuntimeKit.ping.selector))
    let nestedAfter = proxy.generation
    #expect(swiftAfter != swiftBefore)
    #expect(runtimeAfter != runtimeBefore)
    #expect(nestedAfter != nestedBefore)
  }

  /// Found by the sequences: a C caller of a void method of a multicast with no
  /// responder (empty, or every delegate gone) under last responder aborted the process
  /// (`-[MulticastProxy ping:]: unrecognized selector`), where a Swift caller's call is
  /// silent as documented. The C face now gives its void methods a policy that calls
  /// every responder and raises for none.
  @Test func aVoidMessageFromCToAMulticastWithNoResponderIsSilent() throws {
    // Last responder, not silent when empty; the listener below is added twice.
    let multicast = ModelProbeDelegateMulticast(options: .allowsDuplicates)
    let recorder = ModelRecorder(face: .swiftProtocol)
    let seen = multicast.observe(\.note) { recorder.observed(0, $0) }
    typealias VoidIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
    let ping = try multicast.runtime.imp(for: \.ping).unsafeCast(to: VoidIMP.self)
    ping(try multicast.runtime.rawValue(), multicast.runtime.selector(for: \.ping).rawValue, 1)
    let note = try multicast.runtime.imp(for: \.note).unsafeCast(to: VoidIMP.self)
    note(try multicast.runtime.rawValue(), multicast.runtime.selector(for: \.note).rawValue, 2)
    #expect(recorder.takeEvents() == [.observed(observer: 0, arg: 2)])
    // With a delegate, still every responder.
    let listener = ModelFullListener(slot: 0, recorder: recorder)
    multicast.add(listener)
    multicast.add(listener, retention: .strong)
    let pingAgain = try multicast.runtime.imp(for: \.ping).unsafeCast(to: VoidIMP.self)
    pingAgain(try multicast.runtime.rawValue(), multicast.runtime.selector(for: \.ping).rawValue, 3)
    #expect(
      recorder.takeEvents() == [
        .call(slot: 0, method: .ping, arg: 3), .call(slot: 0, method: .ping, arg: 3),
      ])
    withExtendedLifetime(seen) {}
  }

  /// Found by the sequences (`add(d2)`, `add(d1)`, `device.delegate = d2`,
  /// `inject(d1, into: device)`, `drop(d2)`): the injection kept its primary alive,
  /// though both delegates are documented as held weakly.
  @Test func anInjectionHoldsItsPrimaryWeakly() throws {
    let recorder = ModelRecorder(face: .swiftProtocol)
    let device = ModelDevice()
    var primary: ModelFullListener? = ModelFullListener(slot: 0, recorder: recorder)
    weak let weakPrimary = primary
    let secondary = ModelFullListener(slot: 2, recorder: recorder)
    device.delegate = primary
    let injection = ModelProbeDelegateMulticast.inject(secondary, into: device, at: \.delegate)
    #expect(device.delegate?.ask(1) == 3)  // both asked, the primary answers
    #expect(
      recorder.takeEvents() == [
        .call(slot: 0, method: .ask, arg: 1), .call(slot: 2, method: .ask, arg: 1),
      ])
    primary = nil
    #expect(weakPrimary == nil)
    #expect(injection.primary == nil)
    #expect(device.delegate?.ask(2) == 0)  // no primary: the method's empty answer
    #expect(recorder.takeEvents() == [.call(slot: 2, method: .ask, arg: 2)])
    injection.remove()
    #expect(device.delegate == nil)  // the primary it would put back is gone
  }

  /// Found by the sequences (`add(d3)`, `add(d0)`, `drop(d3)`, `insert(d4, at: 1)`):
  /// `insert(_:at:)` counted a deallocated member not yet compacted, so the delegate
  /// landed before d0 instead of after it.
  @Test func insertAtCountsLiveMembersOnly() throws {
    let recorder = ModelRecorder(face: .swiftProtocol)
    let multicast = ModelProbeDelegateMulticast()
    var gone: ModelPlainListener? = ModelPlainListener(slot: 3, recorder: recorder)
    let first = ModelFullListener(slot: 0, recorder: recorder)
    let inserted = ModelFullListener(slot: 4, recorder: recorder)
    multicast.add(gone!)
    multicast.add(first)
    gone = nil
    multicast.insert(inserted, at: 1)
    #expect(multicast.delegates.compactMap { modelSlot(of: $0 as AnyObject) } == [0, 4])
  }

  /// The shrinker finds the minimal sequence of a planted divergence: a model that
  /// forgets to drop deallocated delegates, so one `drop` between an `add` and a send is
  /// the whole story.
  @Test func theShrinkerReducesAFailureToItsCore() async throws {
    var ops: [ModelOp] = []
    var random = ModelRandom(seed: 7)
    for _ in 0..<30 { ops.append(ModelGenerator.standard.op(&random, face: .swiftProtocol)) }
    ops.insert(.add(slot: 2, strong: false, queued: false), at: 5)
    ops.insert(.send(.ask, arg: 4, via: .swift), at: 20)
    let planted: (([ModelOp]) -> Bool) = { ops in
      // "fails" when d2 is added, later dropped, then asked — with anything in between.
      guard let a = ops.firstIndex(of: .add(slot: 2, strong: false, queued: false)),
        let d = ops[a...].firstIndex(of: .drop(slot: 2)),
        ops[d...].contains(where: { if case .send(.ask, _, _) = $0 { true } else { false } })
      else { return false }
      return true
    }
    ops.insert(.drop(slot: 2), at: 10)
    #expect(planted(ops))
    let minimal = await ModelShrinker.shrink(ops) { planted($0) ? "fails" : nil }
    #expect(
      minimal == [
        .add(slot: 2, strong: false, queued: false), .drop(slot: 2),
        .send(.ask, arg: 0, via: .swift),
      ])
  }
}

// MARK: - Random sequences

/// SplitMix64 (the package's seeded style): runs replay exactly from their seed.
struct ModelRandom {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  mutating func chance(_ n: Int, in d: Int) -> Bool { below(d) < n }
  mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
  /// Sequence `index` of a run: independent of the others, so one replays alone.
  static func stream(seed: UInt64, index: Int) -> ModelRandom {
    var mixer = ModelRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return ModelRandom(seed: mixer.next())
  }
}

/// One generated sequence: the multicast's configuration and its operations.
struct ModelCase: CustomStringConvertible {
  var policy: ModelPolicy
  var silentWhenEmpty: Bool
  var unique: Bool
  var ops: [ModelOp]
  /// The nested proxy's policy (runtime face).
  var nestedPolicy = ModelPolicy.last

  var description: String {
    var lines = [
      "multicast(policy: \(policy), silentWhenEmpty: \(silentWhenEmpty), unique: \(unique)), nested(policy: \(nestedPolicy))"
    ]
    for (i, op) in ops.enumerated() { lines.append("  \(i + 1). \(op)") }
    return lines.joined(separator: "\n")
  }
}

/// How operations are drawn.
enum ModelGenerator {
  case standard
  /// Weighted towards deallocations followed by C sends (the C face's known gap).
  case cSendsAfterDeaths
  /// Weighted towards queued members and C sends of value-returning methods.
  case cValueSendsToQueues

  func makeCase(_ random: inout ModelRandom, face: ModelFace) -> ModelCase {
    let policy = random.pick([ModelPolicy.last, .last, .first, .allTrue, .anyTrue, .firstNonZero])
    let length = 10 + random.below(31)
    var ops: [ModelOp] = []
    for _ in 0..<length { ops.append(op(&random, face: face)) }
    return ModelCase(
      policy: policy, silentWhenEmpty: random.chance(1, in: 2), unique: random.chance(1, in: 4),
      ops: ops, nestedPolicy: random.pick([.last, .first, .allTrue, .anyTrue, .firstNonZero]))
  }

  func op(_ r: inout ModelRandom, face: ModelFace) -> ModelOp {
    let slot = r.below(ModelSlots.count)
    let method = r.pick(ModelMethod.allCases)
    let arg = r.below(10)
    let via: ModelVia = r.pick([.swift, .swift, .cIMP, .cAdapter])
    if self == .cSendsAfterDeaths {
      switch r.below(10) {
      case 0...3: return .add(slot: slot, strong: r.chance(1, in: 4), queued: false)
      case 4...5: return .drop(slot: slot)
      case 6: return .setPolicy(r.pick([.ask, .measure, .check]), r.pick([.last, .first]))
      default: return .send(method, arg: arg, via: r.pick([.cIMP, .cAdapter]))
      }
    }
    if self == .cValueSendsToQueues {
      switch r.below(10) {
      case 0...3: return .add(slot: slot, strong: false, queued: r.chance(1, in: 2))
      case 4:
        return .setPolicy(
          r.pick([.ask, .measure, .check]), r.pick([.last, .first, .allTrue, .anyTrue]))
      default:
        return .send(r.pick([.ask, .check, .measure]), arg: arg, via: r.pick([.cIMP, .cAdapter]))
      }
    }
    let w = r.below(face == .swiftProtocol ? 100 : 96)
    if face == .runtime && w >= 86 {
      switch w {
      case 86..<90: return .nestedAdd(slot: slot, strong: r.chance(1, in: 3))
      case 90..<91: return .nestedRemove(slot: slot)
      case 91..<94: return .nest
      case 94: return .unnest
      default: return .nestMainIntoNested
      }
    }
    switch w {
    case 0..<16: return .add(slot: slot, strong: r.chance(1, in: 3), queued: r.chance(1, in: 4))
    case 16..<20:
      return .insertAt(
        slot: slot, index: r.below(5) - 1, strong: r.chance(1, in: 3), queued: r.chance(1, in: 5))
    case 20..<22: return .insertBefore(slot: slot, other: r.below(ModelSlots.count))
    case 22..<24: return .insertAfter(slot: slot, other: r.below(ModelSlots.count))
    case 24..<29: return .remove(slot: slot)
    case 29..<31: return .removeOnQueue(slot: slot)
    case 31..<32: return .removeAll
    case 32..<40: return .drop(slot: slot)
    case 40..<66: return .send(method, arg: arg, via: via)
    case 66..<72:
      let m = r.pick([ModelMethod.ask, .check, .measure])
      let policies: [ModelPolicy?] = [.last, .first, .allTrue, .anyTrue, .sum, .firstNonZero, nil]
      return .setPolicy(m, r.pick(policies))
    case 72..<74:
      return .setDefaultPolicy(r.pick([.last, .first, .allTrue, .anyTrue, .firstNonZero]))
    case 74..<79: return .observe(method, before: r.chance(1, in: 2))
    case 79..<82: return .cancelObserver(index: r.below(4))
    case 82..<84: return .stream(method, before: r.chance(1, in: 2))
    case 84..<86:
      if face == .swiftProtocol && r.chance(1, in: 3) {
        return .broadcast(r.pick([.ping, .note]), arg: arg)
      }
      let m = r.pick([ModelMethod.ask, .check, .measure])
      var reducers: [ModelPolicy?] = [.allTrue, .anyTrue, .firstNonZero, .sum]
      if face == .swiftProtocol { reducers.append(nil) }
      return .aggregate(m, arg: arg, reducer: r.pick(reducers))
    // The Swift face only: a delegator's weak slot and injection.
    case 86..<88: return .deviceSetDelegate(slot: r.chance(1, in: 5) ? nil : slot)
    case 88..<89: return .deviceSetMulticast
    case 89..<92: return .inject(slot: slot)
    case 92..<93: return .injectionSetPrimary(slot: r.chance(1, in: 4) ? nil : slot)
    case 93..<94: return .injectionRemove
    case 94..<95: return .injectionDrop
    default: return .deviceSend(method, arg: arg)
    }
  }
}

// MARK: - Running and comparing

/// What a run of many sequences found.
struct ModelReport {
  var sequences = 0
  var stepsRun = 0
  /// How many operations of each kind ran (not skipped by the model).
  var kinds: [String: Int] = [:]
  var failure: String?

  /// The kinds in `wanted` that never ran: a generator or model that skips everything
  /// would otherwise pass.
  func missing(_ wanted: [String]) -> [String] { wanted.filter { (kinds[$0] ?? 0) == 0 } }
}

/// Runs sequences against the model and the library.
struct ModelCheck {
  let face: ModelFace
  let rules: ModelRules
  var generator = ModelGenerator.standard
  var kit: ModelRuntimeKit? = nil

  init(
    face: ModelFace, rules: ModelRules, generator: ModelGenerator = .standard,
    kit: ModelRuntimeKit? = nil
  ) {
    self.face = face
    self.rules = rules
    self.generator = generator
    self.kit = kit
  }

  func run(seed: UInt64, sequences: Int) async -> ModelReport {
    var report = ModelReport()
    for index in 0..<sequences {
      var random = ModelRandom.stream(seed: seed, index: index)
      let c = generator.makeCase(&random, face: face)
      report.sequences += 1
      let outcome = await check(c)
      report.stepsRun += outcome.steps
      for (kind, n) in outcome.kinds { report.kinds[kind, default: 0] += n }
      guard let mismatch = outcome.mismatch else { continue }
      // Shrink: fewer operations, then simpler ones, while it still fails.
      var minimal = c
      minimal.ops = await ModelShrinker.shrink(c.ops) { ops in
        var candidate = c
        candidate.ops = ops
        return await check(candidate).mismatch
      }
      minimal =
        await ModelShrinker.simplifyConfiguration(minimal) { await check($0).mismatch != nil }
        ?? minimal
      // A failure that does not come back on replay depends on something outside the
      // sequence (process-wide state, timing): say so rather than pretend it shrank.
      let replayed = await check(minimal).mismatch
      let final =
        replayed
        ?? "\(mismatch)\n(It did not fail again on replay: it depends on state outside the sequence.)"

      report.failure = """
        \(face) diverges from the model.
        Seed \(String(seed, radix: 16)) (DP_MODEL_SEED=0x\(String(seed, radix: 16))), sequence #\(index) (\(c.ops.count) operations).
        Minimal sequence (\(minimal.ops.count) operations):
        \(minimal)
        \(final)
        """
      return report
    }
    return report
  }

  /// Runs one sequence; the first step where the library and the model disagree.
  func check(_ c: ModelCase) async -> (steps: Int, mismatch: String?, kinds: [String: Int]) {
    var world = ModelWorld(
      face: face, rules: rules, policy: c.policy, silentWhenEmpty: c.silentWhenEmpty,
      unique: c.unique, nestedPolicy: c.nestedPolicy)
    let runner: any ModelRunner =
      switch face {
      case .swiftProtocol:
        ModelSwiftRunner(policy: c.policy, silentWhenEmpty: c.silentWhenEmpty, unique: c.unique)
      case .runtime:
        ModelRuntimeRunner(
          kit: kit!, policy: c.policy, silentWhenEmpty: c.silentWhenEmpty, unique: c.unique,
          nestedPolicy: c.nestedPolicy)
      }
    var steps = 0
    var kinds: [String: Int] = [:]
    var lastResponds = ModelMethod.allCases.map { world.responds(to: $0) }
    var lastGeneration = runner.generation
    for (i, op) in c.ops.enumerated() {
      let expected = world.apply(op)
      guard expected.runs else { continue }
      steps += 1
      kinds[op.kind, default: 0] += 1
      let actual = await runner.apply(op)
      ModelQueues.flush()
      let events = runner.recorder.takeEvents()
      var problems: [String] = []
      if let failure = actual.failure { problems.append(failure) }
      if actual.answer != expected.answer {
        problems.append("answer: library \(actual.answer), model \(expected.answer)")
      }
      if events != expected.events {
        problems.append("deliveries: library \(events), model \(expected.events)")
      }
      let asyncCalls = runner.recorder.asyncCalls
      if asyncCalls != world.asyncCalls {
        problems.append("calls on queues: library \(asyncCalls), model \(world.asyncCalls)")
      }
      if runner.memberSlots != world.memberSlots {
        problems.append("members: library \(runner.memberSlots), model \(world.memberSlots)")
      }
      if runner.count != world.memberSlots.count {
        problems.append("count: library \(runner.count), model \(world.memberSlots.count)")
      }
      let alive = (0..<ModelSlots.count).map { world.isAlive($0) }
      if runner.alive != alive {
        problems.append("alive: library \(runner.alive), model \(alive)")
      }
      let contains = (0..<ModelSlots.count).map { slot in
        world.isHeld(slot) ? world.memberSlots.contains(slot) : nil
      }
      if runner.contains != contains {
        problems.append("contains: library \(runner.contains), model \(contains)")
      }
      let responds = ModelMethod.allCases.map { world.responds(to: $0) }
      if runner.responds != responds {
        problems.append("responds(to:): library \(runner.responds), model \(responds)")
      }
      let counts = ModelMethod.allCases.map { world.responders(of: world.main, for: $0).count }
      if runner.respondingCounts != counts {
        problems.append(
          "count(respondingTo:): library \(runner.respondingCounts), model \(counts)")
      }
      // "A number that changes whenever the answers to responds(to:) may have changed" —
      // also at a change the proxy does not make itself (a deallocation, a nested proxy's
      // membership): see `theGenerationFollowsChangesOutsideTheProxy`.
      let generation = runner.generation
      if responds != lastResponds && generation == lastGeneration {
        problems.append(
          "generation stayed \(generation) while responds(to:) went \(lastResponds) → \(responds)")
      }
      lastResponds = responds
      lastGeneration = generation
      if !problems.isEmpty {
        return (
          steps, "At step \(i + 1), \(op):\n  " + problems.joined(separator: "\n  "), kinds
        )
      }
    }
    let expected = world.streams.map(\.expected)
    switch await runner.finishStreams(expected: expected) {
    case .failure(let error):
      return (steps, "At the end: \(error)", kinds)
    case .success(let streams):
      if streams != expected {
        return (steps, "At the end, messages(_:) yielded \(streams), model \(expected)", kinds)
      }
    }
    return (steps, nil, kinds)
  }
}

// MARK: - Shrinking

/// Reduces a failing sequence: removes runs of operations (halves, quarters, … single
/// ones), then simplifies each remaining operation, and repeats while anything changed
/// and the sequence still fails.
enum ModelShrinker {
  static let maximumAttempts = 3_000

  static func shrink(_ ops: [ModelOp], fails: ([ModelOp]) async -> String?) async -> [ModelOp] {
    var current = ops
    var attempts = 0
    var changed = true
    while changed && attempts < maximumAttempts {
      changed = false
      var chunk = max(current.count / 2, 1)
      while chunk >= 1 {
        var start = 0
        while start < current.count && attempts < maximumAttempts {
          var candidate = current
          candidate.removeSubrange(start..<min(start + chunk, current.count))
          attempts += 1
          if await fails(candidate) != nil {
            current = candidate
            changed = true
          } else {
            start += chunk
          }
        }
        chunk /= 2
      }
      for i in current.indices {
        for simpler in simplifications(of: current[i]) where attempts < maximumAttempts {
          var candidate = current
          candidate[i] = simpler
          attempts += 1
          if await fails(candidate) != nil {
            current = candidate
            changed = true
            break
          }
        }
      }
    }
    return current
  }

  /// A simpler configuration that still fails, if any: default policy last, no options.
  static func simplifyConfiguration(_ c: ModelCase, fails: (ModelCase) async -> Bool) async
    -> ModelCase?
  {
    var current = c
    var found = false
    for change in [
      { (c: inout ModelCase) in c.unique = false },
      { (c: inout ModelCase) in c.silentWhenEmpty = true },
      { (c: inout ModelCase) in c.silentWhenEmpty = false },
      { (c: inout ModelCase) in c.policy = .last },
    ] {
      var candidate = current
      change(&candidate)
      if candidate.policy == current.policy && candidate.unique == current.unique
        && candidate.silentWhenEmpty == current.silentWhenEmpty
      {
        continue
      }
      if await fails(candidate) {
        current = candidate
        found = true
      }
    }
    return found ? current : nil
  }

  /// Simpler forms of one operation, simplest first.
  static func simplifications(of op: ModelOp) -> [ModelOp] {
    var out: [ModelOp] = []
    switch op {
    case .add(let s, let strong, let queued):
      if strong || queued { out.append(.add(slot: s, strong: false, queued: false)) }
      if strong && queued { out.append(.add(slot: s, strong: true, queued: false)) }
      if strong && queued { out.append(.add(slot: s, strong: false, queued: true)) }
      if s > 1 { out.append(.add(slot: s - 2, strong: strong, queued: queued)) }
    case .insertAt(let s, let i, let strong, let queued):
      out.append(.add(slot: s, strong: strong, queued: queued))
      if i != 0 { out.append(.insertAt(slot: s, index: 0, strong: strong, queued: queued)) }
      if strong || queued { out.append(.insertAt(slot: s, index: i, strong: false, queued: false)) }
    case .insertBefore(let s, _), .insertAfter(let s, _):
      out.append(.add(slot: s, strong: false, queued: false))
    case .removeOnQueue(let s):
      out.append(.remove(slot: s))
    case .nestedAdd(let s, let strong):
      if strong { out.append(.nestedAdd(slot: s, strong: false)) }
    case .send(let m, let a, let via):
      if via != .swift { out.append(.send(m, arg: a, via: .swift)) }
      if via == .cAdapter { out.append(.send(m, arg: a, via: .cIMP)) }
      if a != 0 { out.append(.send(m, arg: 0, via: via)) }
    case .setPolicy(let m, let p):
      if p != .last { out.append(.setPolicy(m, .last)) }
      if p != nil { out.append(.setPolicy(m, nil)) }
    case .setDefaultPolicy(let p):
      if p != .last { out.append(.setDefaultPolicy(.last)) }
    case .observe(let m, let before):
      if before { out.append(.observe(m, before: false)) }
    case .stream(let m, let before):
      if before { out.append(.stream(m, before: false)) }
    case .deviceSend(let m, let a):
      if a != 0 { out.append(.deviceSend(m, arg: 0)) }
    case .aggregate(let m, let a, let r):
      out.append(.send(m, arg: a, via: .swift))
      if r != .allTrue { out.append(.aggregate(m, arg: a, reducer: .allTrue)) }
      if a != 0 { out.append(.aggregate(m, arg: 0, reducer: r)) }
    case .broadcast(let m, let a):
      out.append(.send(m, arg: a, via: .swift))
      if a != 0 { out.append(.broadcast(m, arg: 0)) }
    default:
      break
    }
    return out
  }
}

// MARK: - Optional methods learned once per process

/// `DelegateOptional` learns per class, once per process, that a class lacks an optional
/// method (the first call runs the generated default). The sequences must not depend on
/// which test met `ModelPlainListener` first, so each learns it up front.
enum ModelOptionalMethods {
  static func learnPlainListener() {
    let listener = ModelPlainListener(slot: 1, recorder: ModelRecorder(face: .swiftProtocol))
    listener.note(0)
    _ = listener.measure(0)
    precondition(
      DelegateOptional.isKnownMissing("measure:", in: ModelPlainListener.self)
        && DelegateOptional.isKnownMissing("note:", in: ModelPlainListener.self),
      "the generated defaults did not record the missing optional methods")
  }
}

/// A class that lacks the optional methods, used only by the first-contact test of the
/// Swift path (so that test's call is the process's first for it).
final class ModelFreshSwiftPathListener: ModelProbeDelegate {
  func ping(_ value: Int) {}
  func ask(_ value: Int) -> Int { 0 }
  func check(_ value: Int) -> Bool { false }
}

/// The same, for the C path.
final class ModelFreshCPathListener: ModelProbeDelegate {
  func ping(_ value: Int) {}
  func ask(_ value: Int) -> Int { 0 }
  func check(_ value: Int) -> Bool { false }
}
