// The reference model of a multicast delegate, in plain Swift (arrays and simple rules),
// for the model-based property tests (MulticastModelTests.swift). Each rule is derived
// from the documented semantics — /work/shared/DESIGN.md's proxy-semantics table, the doc
// comments of `MulticastProxy`, `DelegateMulticast`, `ReturnPolicy`, `Reducer`,
// `DelegateInjection` and the observers — not from the implementation.

/// The methods of the model protocol (`ModelProbeDelegate` for the Swift face, the
/// `model…:` messages for the runtime face): every shape a policy treats differently.
enum ModelMethod: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case ping  // void, required
  case ask  // Int, required
  case check  // Bool, required
  case note  // void, optional
  case measure  // Int, optional

  var returnsValue: Bool { self == .ask || self == .check || self == .measure }
  var isOptional: Bool { self == .note || self == .measure }
  var returnsBool: Bool { self == .check }
  var description: String {
    "\(self == .ping ? "ping" : self == .ask ? "ask" : self == .check ? "check" : self == .note ? "note" : "measure")"
  }
}

/// A return policy, as the model folds it.
enum ModelPolicy: Hashable, Sendable, CustomStringConvertible {
  case last, first, allTrue, anyTrue, sum, firstNonZero

  /// Whether the policy can be set for `method` (a typed `Int` fold cannot make a Bool).
  func accepts(_ method: ModelMethod) -> Bool { self != .sum || !method.returnsBool }

  /// The sender's answer from the values of the responders whose values count, in order.
  func fold(_ values: [Int]) -> Int {
    switch self {
    case .last: values.last ?? 0
    case .first: values.first ?? 0
    case .allTrue: values.allSatisfy { $0 != 0 } ? 1 : 0  // true for no values
    case .anyTrue: values.contains { $0 != 0 } ? 1 : 0  // false for no values
    case .sum: values.reduce(0, +)
    case .firstNonZero: values.first { $0 != 0 } ?? 0
    }
  }

  var description: String {
    switch self {
    case .last: "last"
    case .first: "first"
    case .allTrue: "allTrue"
    case .anyTrue: "anyTrue"
    case .sum: "sum"
    case .firstNonZero: "firstNonNil"
    }
  }
}

/// Which multicast the sequence drives.
enum ModelFace: Sendable, CustomStringConvertible {
  /// `@Delegate`'s `DelegateMulticast` (plain Swift classes as delegates).
  case swiftProtocol
  /// `MulticastProxy` (runtime objects as delegates).
  case runtime
  var description: String { self == .swiftProtocol ? "DelegateMulticast" : "MulticastProxy" }
}

/// How a message is sent.
enum ModelVia: Hashable, Sendable, CustomStringConvertible {
  /// From Swift: the multicast's conformance, or a typed `Message.send`.
  case swift
  /// From C, through the function pointer `imp(for:)` returns.
  case cIMP
  /// From C, through a `CallbackAdapter` whose context comes first.
  case cAdapter
  var description: String { self == .swift ? "swift" : self == .cIMP ? "C imp" : "C adapter" }
}

/// The delegates a sequence can use. Even slots are of a class that implements the
/// optional methods, odd slots of one that does not; each answers fixed values.
enum ModelSlots {
  static let count = 5
  static func implementsOptional(_ slot: Int) -> Bool { slot % 2 == 0 }
  /// A delegate's answer; some are zero, so `firstNonNil` and the truth rules matter.
  static func answer(_ slot: Int, _ method: ModelMethod) -> Int {
    switch method {
    case .ask: [3, 0, 5, 8, 0][slot]
    case .check: [1, 0, 1, 1, 0][slot]
    case .measure: [0, 0, 9, 0, 4][slot]
    case .ping, .note: 0
    }
  }
  static func answers(_ slot: Int, _ method: ModelMethod) -> Bool {
    !method.isOptional || implementsOptional(slot)
  }
}

/// One operation of a sequence. Delegates are named by slot; an operation on a delegate
/// the test no longer holds (or one that would trap) is skipped by the model and the
/// runner alike, so any subsequence is a valid sequence (the shrinker relies on it).
enum ModelOp: Hashable, Sendable, CustomStringConvertible {
  case add(slot: Int, strong: Bool, queued: Bool)
  case insertAt(slot: Int, index: Int, strong: Bool, queued: Bool)
  case insertBefore(slot: Int, other: Int)
  case insertAfter(slot: Int, other: Int)
  case remove(slot: Int)
  case removeOnQueue(slot: Int)
  case removeAll
  /// The test drops its strong reference to the delegate (deallocating it unless a
  /// strong membership keeps it).
  case drop(slot: Int)
  case send(ModelMethod, arg: Int, via: ModelVia)
  case setPolicy(ModelMethod, ModelPolicy?)
  case setDefaultPolicy(ModelPolicy)
  case observe(ModelMethod, before: Bool)
  /// Cancels the observer registered by the `index`th `observe`.
  case cancelObserver(index: Int)
  /// Opens a `messages(_:)` sequence; its elements are compared at the end of the run.
  case stream(ModelMethod, before: Bool)
  /// `await aggregate(_:_:reducer:)` of a value-returning method (nil: the method's
  /// policy, Swift face only).
  case aggregate(ModelMethod, arg: Int, reducer: ModelPolicy?)
  /// `await broadcast(_:_:)` of a void method (Swift face).
  case broadcast(ModelMethod, arg: Int)
  // A nested multicast proxy (runtime face, LBDelegateMatrioska): `nested` is a second
  // proxy the test holds, with its own policy.
  case nestedAdd(slot: Int, strong: Bool)
  case nestedRemove(slot: Int)
  /// Adds the nested proxy to the main one (refused as a cycle when the nested one
  /// contains the main one).
  case nest
  case unnest
  /// Adds the main proxy to the nested one (refused as a cycle when the main one
  /// contains the nested one).
  case nestMainIntoNested
  // A delegator with a weak delegate slot, and secondary-delegate injection (Swift face).
  case deviceSetDelegate(slot: Int?)
  case deviceSetMulticast
  case inject(slot: Int)
  case injectionSetPrimary(slot: Int?)
  case injectionRemove
  case injectionDrop
  case deviceSend(ModelMethod, arg: Int)

  /// The operation's kind, for coverage counts ("send via C imp", "drop", …).
  var kind: String {
    switch self {
    case .send(let m, _, let via): return "send \(m.returnsValue ? "value" : "void") via \(via)"
    case .deviceSend: return "device sends"
    case .aggregate: return "aggregate"
    case .broadcast: return "broadcast"
    case .injectionDrop: return "dropInjection"
    case .nestedAdd: return "nested.add"
    case .nestedRemove: return "nested.remove"
    case .nest: return "add(nested)"
    case .unnest: return "remove(nested)"
    case .nestMainIntoNested: return "nested.add(multicast)"
    default: return String(description.prefix { $0 != "(" && $0 != " " })
    }
  }

  var description: String {
    func mode(_ strong: Bool, _ queued: Bool) -> String {
      (strong ? "strong" : "weak") + (queued ? ", queued" : "")
    }
    switch self {
    case .add(let s, let strong, let queued): return "add(d\(s), \(mode(strong, queued)))"
    case .insertAt(let s, let i, let strong, let queued):
      return "insert(d\(s), at: \(i), \(mode(strong, queued)))"
    case .insertBefore(let s, let o): return "insert(d\(s), before: d\(o))"
    case .insertAfter(let s, let o): return "insert(d\(s), after: d\(o))"
    case .remove(let s): return "remove(d\(s))"
    case .removeOnQueue(let s): return "remove(d\(s), queue: q\(s))"
    case .removeAll: return "removeAll()"
    case .drop(let s): return "drop(d\(s))"
    case .send(let m, let a, let via): return "send \(m)(\(a)) via \(via)"
    case .setPolicy(let m, let p): return "setPolicy(\(p.map(\.description) ?? "nil"), for: \(m))"
    case .setDefaultPolicy(let p): return "defaultPolicy = \(p)"
    case .observe(let m, let before): return "observe(\(m), \(before ? ".before" : ".after"))"
    case .cancelObserver(let i): return "cancel(observer #\(i))"
    case .stream(let m, let before): return "messages(\(m), \(before ? ".before" : ".after"))"
    case .aggregate(let m, let a, let r):
      return "await aggregate(\(m)(\(a)), reducer: \(r.map(\.description) ?? "nil"))"
    case .broadcast(let m, let a): return "await broadcast(\(m)(\(a)))"
    case .nestedAdd(let s, let strong): return "nested.add(d\(s), \(strong ? "strong" : "weak"))"
    case .nestedRemove(let s): return "nested.remove(d\(s))"
    case .nest: return "add(nested)"
    case .unnest: return "remove(nested)"
    case .nestMainIntoNested: return "nested.add(multicast)"
    case .deviceSetDelegate(let s): return "device.delegate = \(s.map { "d\($0)" } ?? "nil")"
    case .deviceSetMulticast: return "device.delegate = multicast"
    case .inject(let s): return "inject(d\(s), into: device)"
    case .injectionSetPrimary(let s): return "injection.setPrimary(\(s.map { "d\($0)" } ?? "nil"))"
    case .injectionRemove: return "injection.remove()"
    case .injectionDrop: return "drop(injection)"
    case .deviceSend(let m, let a): return "device sends \(m)(\(a))"
    }
  }
}

/// What a delegate or an observer saw.
enum ModelEvent: Hashable, Sendable, CustomStringConvertible {
  case call(slot: Int, method: ModelMethod, arg: Int)
  /// The `observer`th registered observer heard the message with `arg`.
  case observed(observer: Int, arg: Int)
  var description: String {
    switch self {
    case .call(let s, let m, let a): "d\(s).\(m)(\(a))"
    case .observed(let o, let a): "observer#\(o)(\(a))"
    }
  }
}

/// What a send answers.
enum ModelAnswer: Hashable, Sendable, CustomStringConvertible {
  /// Nothing to compare: a `void` message.
  case none
  case value(Int)
  /// `RuntimeError.unrecognizedSelector` (a Swift sender of a `MulticastProxy` message
  /// nobody answers under last responder, without `silentWhenEmpty`).
  case unrecognized
  /// `DelegateProxyError.cycle`: the insertion would close a cycle of proxies.
  case refusedCycle
  var description: String {
    switch self {
    case .none: "void"
    case .value(let v): "\(v)"
    case .unrecognized: "unrecognized selector"
    case .refusedCycle: "refused: cycle"
    }
  }
}

/// A membership record.
struct ModelMember: Hashable {
  var slot: Int
  var strong: Bool
  var queued: Bool
  /// False for a plugin injected beside the delegator's own delegate: it hears every call,
  /// but its answers do not count (the primary answers).
  var answers = true
  /// The nested proxy (runtime face); `slot` is `ModelMember.nestedSlot`.
  static let nestedSlot = -1
  var isNested: Bool { slot == Self.nestedSlot }
}

/// One multicast: its live members in order (a deallocated delegate's records leave at
/// once: every query answers for live members only), policies and options.
struct ModelMulticast {
  var members: [ModelMember] = []
  var defaultPolicy: ModelPolicy
  var overrides: [ModelMethod: ModelPolicy] = [:]
  var silentWhenEmpty: Bool
  var unique: Bool

  func policy(for method: ModelMethod) -> ModelPolicy { overrides[method] ?? defaultPolicy }
}

/// Where a test's delegate object is in its life.
enum ModelSlotState: Hashable {
  case unborn
  /// The test holds it.
  case held
  /// The test dropped it; only a strong membership keeps it alive.
  case released
  case dead
}

/// A delegator's weak `delegate` slot.
enum ModelDeviceSlot: Hashable {
  case empty
  case delegate(Int)
  case multicast
  case injection
}

/// The secondary-delegate injection: its own multicast (last responder, both delegates
/// weak, the secondary's answers not counted) and the primary it puts back.
struct ModelInjection {
  var multicast: ModelMulticast
  var primary: Int?
  /// Whether `remove()` ran (the injection leaves the slot alone from then on).
  var removed = false
}

/// The knobs of one run that change what the model may send.
struct ModelRules: Sendable {
  /// The known gap of the Swift multicast's C face: a member found deallocated by a C
  /// caller before the face re-synced answers zero once under last / first responder.
  /// When false, a C send is skipped while a delegate died since the last change that
  /// certainly re-synced the face, so the main suites stay on the documented semantics
  /// elsewhere; `MulticastModelTests.cSendAfterDeallocation` turns it on.
  var cSendAfterUnsyncedDeath = false
  /// A second gap of the same mirror: it holds a queued member's adapter *with* the
  /// member's queue, so a C caller of a value-returning method gets the runtime proxy's
  /// queue rule (called asynchronously, its value lost) instead of the Swift
  /// multicast's (called on its queue and waited for, its value counted). When false, a
  /// C send of a value-returning method is skipped while a responder is queued;
  /// `MulticastModelTests.cValueSendToQueuedMember` turns it on.
  var cValueSendToQueuedMember = false
}

/// The prediction for one step.
struct ModelStep {
  /// False when the operation is skipped (both sides do nothing).
  var runs = true
  var answer: ModelAnswer = .none
  /// Calls and observations on the sending thread, in order.
  var events: [ModelEvent] = []
}

/// The whole reference world of one sequence.
struct ModelWorld {
  let face: ModelFace
  let rules: ModelRules
  var slots = Array(repeating: ModelSlotState.unborn, count: ModelSlots.count)
  var main: ModelMulticast
  /// Every observer registered, by registration order: method, phase, still active.
  var observers: [(method: ModelMethod, before: Bool, active: Bool)] = []
  /// Every `messages(_:)` sequence opened: what it must have yielded by the end.
  var streams: [(method: ModelMethod, before: Bool, expected: [Int])] = []
  /// Calls made asynchronously on a delegate's queue, per slot, in order (a queue is
  /// serial and FIFO, so each delegate's order is fixed; across delegates it is not).
  var asyncCalls = Array(repeating: [ModelEvent](), count: ModelSlots.count)
  var device = ModelDeviceSlot.empty
  var injection: ModelInjection?
  /// The nested proxy (runtime face): its members (delegates only) and policy.
  var nested: ModelMulticast
  /// Whether the nested proxy holds the main one as a member.
  var nestedHoldsMain = false
  /// A member of the main multicast died and no change has re-synced the C face since
  /// (see ``ModelRules/cSendAfterUnsyncedDeath``).
  var unsyncedDeath = false

  init(
    face: ModelFace, rules: ModelRules, policy: ModelPolicy, silentWhenEmpty: Bool, unique: Bool,
    nestedPolicy: ModelPolicy = .last
  ) {
    self.face = face
    self.rules = rules
    main = ModelMulticast(defaultPolicy: policy, silentWhenEmpty: silentWhenEmpty, unique: unique)
    nested = ModelMulticast(defaultPolicy: nestedPolicy, silentWhenEmpty: false, unique: false)
  }

  /// The members of `multicast` that implement `method`, in order. A nested proxy is a
  /// forwarder: it is asked `responds(to:)` at each message, and answers true while one
  /// of its live delegates implements the method.
  func responders(of multicast: ModelMulticast, for method: ModelMethod) -> [ModelMember] {
    multicast.members.filter { m in
      m.isNested
        ? nested.members.contains { ModelSlots.answers($0.slot, method) }
        : ModelSlots.answers(m.slot, method)
    }
  }

  func isAlive(_ slot: Int) -> Bool { slots[slot] == .held || slots[slot] == .released }
  /// Whether the test holds the delegate (so it can name it to the multicast).
  func isHeld(_ slot: Int) -> Bool { slots[slot] == .held }

  // MARK: Steps

  /// Applies `op` to the model and predicts what the real multicast must do.
  mutating func apply(_ op: ModelOp) -> ModelStep {
    var step = ModelStep()
    switch op {
    case .add(let slot, let strong, let queued):
      step.runs = insert(ModelMember(slot: slot, strong: strong, queued: queued)) { $0.count }
    case .insertAt(let slot, let index, let strong, let queued):
      // "at `index` among the members (clamped to 0...count)": the live members.
      step.runs = insert(ModelMember(slot: slot, strong: strong, queued: queued)) {
        min(max(index, 0), $0.count)
      }
    case .insertBefore(let slot, let other):
      // Before `other`; at the end when it is nil or not a member (AIMultiDelegate).
      let target = isHeld(other) ? other : nil
      step.runs = insert(ModelMember(slot: slot, strong: false, queued: false)) { members in
        target.flatMap { t in members.firstIndex { $0.slot == t } } ?? members.count
      }
    case .insertAfter(let slot, let other):
      // After `other`; at the beginning when it is nil or not a member.
      let target = isHeld(other) ? other : nil
      step.runs = insert(ModelMember(slot: slot, strong: false, queued: false)) { members in
        target.flatMap { t in members.firstIndex { $0.slot == t }.map { $0 + 1 } } ?? 0
      }
    case .remove(let slot):
      guard isHeld(slot) else { return ModelStep(runs: false) }
      if main.members.contains(where: { $0.slot == slot }) { unsyncedDeath = false }
      main.members.removeAll { $0.slot == slot }
    case .removeOnQueue(let slot):
      guard isHeld(slot) else { return ModelStep(runs: false) }
      if main.members.contains(where: { $0.slot == slot && $0.queued }) { unsyncedDeath = false }
      main.members.removeAll { $0.slot == slot && $0.queued }
    case .removeAll:
      if !main.members.isEmpty { unsyncedDeath = false }
      main.members.removeAll()
    case .drop(let slot):
      guard isHeld(slot) else { return ModelStep(runs: false) }
      slots[slot] = .released
    case .send(let method, let arg, let via):
      if via != .swift && face == .swiftProtocol && unsyncedDeath
        && !rules.cSendAfterUnsyncedDeath
      {
        return ModelStep(runs: false)
      }
      if via != .swift && face == .swiftProtocol && method.returnsValue
        && responders(of: main, for: method).contains(where: \.queued)
        && !rules.cValueSendToQueuedMember
      {
        return ModelStep(runs: false)
      }
      guard let predicted = send(method, arg, via: via) else { return ModelStep(runs: false) }
      step = predicted
    case .setPolicy(let method, let policy):
      guard method.returnsValue, policy?.accepts(method) ?? true else {
        return ModelStep(runs: false)
      }
      main.overrides[method] = policy
      unsyncedDeath = false
    case .setDefaultPolicy(let policy):
      guard policy != .sum else { return ModelStep(runs: false) }  // Bool methods use it too
      main.defaultPolicy = policy
      unsyncedDeath = false
    case .observe(let method, let before):
      observers.append((method, before, true))
    case .cancelObserver(let index):
      guard index < observers.count else { return ModelStep(runs: false) }
      observers[index].active = false
    case .stream(let method, let before):
      streams.append((method, before, []))
    case .nestedAdd(let slot, let strong):
      guard face == .runtime else { return ModelStep(runs: false) }
      switch slots[slot] {
      case .unborn: slots[slot] = .held
      case .held: break
      case .released, .dead: return ModelStep(runs: false)
      }
      nested.members.append(ModelMember(slot: slot, strong: strong, queued: false))
    case .nestedRemove(let slot):
      guard face == .runtime, isHeld(slot) else { return ModelStep(runs: false) }
      nested.members.removeAll { $0.slot == slot }
    case .nest:
      guard face == .runtime else { return ModelStep(runs: false) }
      if nestedHoldsMain { return ModelStep(answer: .refusedCycle) }
      if main.unique && main.members.contains(where: \.isNested) { break }
      main.members.append(ModelMember(slot: ModelMember.nestedSlot, strong: false, queued: false))
    case .unnest:
      guard face == .runtime else { return ModelStep(runs: false) }
      main.members.removeAll(where: \.isNested)
    case .nestMainIntoNested:
      guard face == .runtime else { return ModelStep(runs: false) }
      if main.members.contains(where: \.isNested) { return ModelStep(answer: .refusedCycle) }
      nestedHoldsMain = true
    case .deviceSetDelegate(let slot):
      guard face == .swiftProtocol else { return ModelStep(runs: false) }
      if let slot, !isHeld(slot) { return ModelStep(runs: false) }
      device = slot.map { .delegate($0) } ?? .empty
    case .deviceSetMulticast:
      guard face == .swiftProtocol else { return ModelStep(runs: false) }
      device = .multicast
    case .inject(let slot):
      // One injection at a time, over a plain delegate (or none) in the slot.
      guard face == .swiftProtocol, injection == nil, isHeld(slot) else {
        return ModelStep(runs: false)
      }
      var primary: Int? = nil
      switch device {
      case .empty: break
      case .delegate(let p): primary = isAlive(p) ? p : nil
      case .multicast, .injection: return ModelStep(runs: false)
      }
      var multicast = ModelMulticast(defaultPolicy: .last, silentWhenEmpty: true, unique: false)
      if let primary {
        multicast.members.append(ModelMember(slot: primary, strong: false, queued: false))
      }
      // The secondary hears every call; the primary answers (inject's default).
      multicast.members.append(ModelMember(slot: slot, strong: false, queued: false, answers: false))
      injection = ModelInjection(multicast: multicast, primary: primary)
      device = .injection
    case .injectionSetPrimary(let slot):
      guard var inj = injection else { return ModelStep(runs: false) }
      if let slot, !isHeld(slot) { return ModelStep(runs: false) }
      if let old = inj.primary { inj.multicast.members.removeAll { $0.slot == old } }
      if let slot {
        inj.multicast.members.insert(ModelMember(slot: slot, strong: false, queued: false), at: 0)
      }
      inj.primary = slot
      injection = inj
    case .injectionRemove:
      guard injection != nil else { return ModelStep(runs: false) }
      removeInjection()
    case .injectionDrop:
      guard injection != nil else { return ModelStep(runs: false) }
      removeInjection()  // dropping the injection puts the primary back
      injection = nil
    case .aggregate(let method, let arg, let reducer):
      guard method.returnsValue, reducer?.accepts(method) ?? (face == .swiftProtocol) else {
        return ModelStep(runs: false)
      }
      step = aggregate(method, arg, reducer: reducer)
    case .broadcast(let method, let arg):
      guard face == .swiftProtocol, !method.returnsValue else { return ModelStep(runs: false) }
      step = aggregate(method, arg, reducer: nil)
    case .deviceSend(let method, let arg):
      guard face == .swiftProtocol, let predicted = deviceSend(method, arg) else {
        return ModelStep(runs: false)
      }
      step = predicted
    }
    settleLifetimes()
    return step
  }

  /// Inserts into the main multicast; false (skipped) when the test cannot name the
  /// delegate. With `unique`, a member already there is not added again.
  private mutating func insert(_ member: ModelMember, at position: ([ModelMember]) -> Int) -> Bool {
    switch slots[member.slot] {
    case .unborn: slots[member.slot] = .held
    case .held: break
    case .released, .dead: return false
    }
    if main.unique && main.members.contains(where: { $0.slot == member.slot }) { return true }
    main.members.insert(member, at: position(main.members))
    unsyncedDeath = false
    return true
  }

  private mutating func removeInjection() {
    guard var inj = injection, !inj.removed else { return }
    inj.removed = true
    injection = inj
    // The primary goes back only if the slot still holds the injection's multicast.
    if device == .injection { device = inj.primary.map { .delegate($0) } ?? .empty }
  }

  /// Deallocates every released delegate that no strong membership keeps, and takes its
  /// records out of every multicast.
  private mutating func settleLifetimes() {
    for slot in 0..<ModelSlots.count where slots[slot] == .released {
      if main.members.contains(where: { $0.slot == slot && $0.strong })
        || nested.members.contains(where: { $0.slot == slot && $0.strong })
      {
        continue
      }
      slots[slot] = .dead
      nested.members.removeAll { $0.slot == slot }
      if main.members.contains(where: { $0.slot == slot }) { unsyncedDeath = true }
      main.members.removeAll { $0.slot == slot }
      injection?.multicast.members.removeAll { $0.slot == slot }
      if injection?.primary == slot { injection?.primary = nil }
      if device == .delegate(slot) { device = .empty }  // a weak slot
    }
  }

  // MARK: Delivery

  /// The main multicast's delivery of one message; nil when the send would trap (a
  /// process-ending outcome the test cannot observe) or is from C where the runtime
  /// would raise (no C caller can receive an error).
  private mutating func send(_ method: ModelMethod, _ arg: Int, via: ModelVia) -> ModelStep? {
    let responders = responders(of: main, for: method)
    // The selector's policy decides what "no responder" means for a void message too:
    // only last responder raises (ReturnPolicy.lastResponder's doc); a void message under
    // first responder or a reducer has simply nothing to call. (The model first used
    // last responder for every void message: a misreading of "void messages always go to
    // every responder, whatever the policy", which is about who is called.)
    let policy = main.policy(for: method)
    let silent = main.silentWhenEmpty
    let watched =
      observers.contains { $0.method == method && $0.active }
      || streams.contains { $0.method == method }
    if responders.isEmpty && policy == .last && !silent {
      switch (face, via) {
      case (.swiftProtocol, _):
        // `void` methods are always silent, from Swift and from C ("Void messages are
        // always silent"; "a multicast never traps in a state programs reach normally");
        // a value under last responder traps.
        if method.returnsValue { return nil }
      case (.runtime, .swift):
        // AIMultiDelegate: an unrecognized selector, unless something observes it.
        if !watched {
          return ModelStep(answer: .unrecognized, events: [])
        }
      default:
        return nil
      }
    }
    var step = ModelStep()
    for (index, o) in observers.enumerated() where o.active && o.method == method && o.before {
      step.events.append(.observed(observer: index, arg: arg))
    }
    let (answer, events) = deliver(main, method, arg, runtimeQueues: face == .runtime)
    step.events += events
    step.answer = answer
    for (index, o) in observers.enumerated() where o.active && o.method == method && !o.before {
      step.events.append(.observed(observer: index, arg: arg))
    }
    for i in streams.indices where streams[i].method == method {
      streams[i].expected.append(arg)
    }
    return step
  }

  /// Calls the responders of `multicast` under its policy. `runtimeQueues`: the
  /// runtime proxy's queue rule (a queued delegate is called asynchronously and its value
  /// is lost, as in GCDMulticastDelegate); otherwise the Swift multicast's (a queued
  /// delegate of a value-returning method is called on its queue and waited for).
  private mutating func deliver(
    _ multicast: ModelMulticast, _ method: ModelMethod, _ arg: Int, runtimeQueues: Bool
  ) -> (ModelAnswer, [ModelEvent]) {
    var events: [ModelEvent] = []
    let responders = responders(of: multicast, for: method)
    guard method.returnsValue else {
      for r in responders {
        if r.isNested {
          events += deliver(nested, method, arg, runtimeQueues: true).1
          continue
        }
        let call = ModelEvent.call(slot: r.slot, method: method, arg: arg)
        if r.queued { asyncCalls[r.slot].append(call) } else { events.append(call) }
      }
      return (.none, events)
    }
    let policy = multicast.policy(for: method)
    var values: [Int] = []
    for r in responders {
      if r.isNested {
        // The nested proxy delivers under its own policy; its answer is its value.
        let (answer, nestedEvents) = deliver(nested, method, arg, runtimeQueues: true)
        events += nestedEvents
        if case .value(let v) = answer { values.append(v) }
        if policy == .first { break }
        continue
      }
      let call = ModelEvent.call(slot: r.slot, method: method, arg: arg)
      if r.queued && runtimeQueues {
        asyncCalls[r.slot].append(call)
      } else {
        events.append(call)
        if r.answers { values.append(ModelSlots.answer(r.slot, method)) }
      }
      if policy == .first && r.answers { break }  // only the first responder is called
    }
    return (.value(policy.fold(values)), events)
  }

  /// Asynchronous aggregation (GCDMulticastDelegate): every responder is called —
  /// whatever the policy, so first responder folds to the first value — unqueued ones
  /// on the caller's thread with the observers around them, queued ones on their queues;
  /// every value counts, folded by `reducer` or the method's policy. The Swift multicast
  /// awaits its queued responders one by one in order after the unqueued calls; the
  /// runtime proxy enqueues them (their order across queues is not fixed).
  private mutating func aggregate(_ method: ModelMethod, _ arg: Int, reducer: ModelPolicy?)
    -> ModelStep
  {
    var step = ModelStep()
    for (index, o) in observers.enumerated() where o.active && o.method == method && o.before {
      step.events.append(.observed(observer: index, arg: arg))
    }
    var queued: [ModelEvent] = []
    var values: [Int] = []
    for r in responders(of: main, for: method) {
      if r.isNested {
        let (answer, nestedEvents) = deliver(nested, method, arg, runtimeQueues: true)
        step.events += nestedEvents
        if case .value(let v) = answer { values.append(v) }
        continue
      }
      let call = ModelEvent.call(slot: r.slot, method: method, arg: arg)
      if !r.queued {
        step.events.append(call)
      } else if face == .runtime || !method.returnsValue {
        asyncCalls[r.slot].append(call)
      } else {
        queued.append(call)
      }
      values.append(ModelSlots.answer(r.slot, method))
    }
    for (index, o) in observers.enumerated() where o.active && o.method == method && !o.before {
      step.events.append(.observed(observer: index, arg: arg))
    }
    step.events += queued
    for i in streams.indices where streams[i].method == method {
      streams[i].expected.append(arg)
    }
    if method.returnsValue {
      step.answer = .value((reducer ?? main.policy(for: method)).fold(values))
    }
    return step
  }

  /// Whether the multicast answers `responds(to:)` for `method`: a live delegate
  /// implements it, or (a void method) something observes it.
  func responds(to method: ModelMethod) -> Bool {
    if !method.returnsValue
      && (observers.contains { $0.method == method && $0.active }
        || streams.contains { $0.method == method })
    {
      return true
    }
    return !responders(of: main, for: method).isEmpty
  }

  /// A call the delegator makes through its weak slot: `delegate?.m(arg) ?? zero`.
  private mutating func deviceSend(_ method: ModelMethod, _ arg: Int) -> ModelStep? {
    let zero: ModelAnswer = method.returnsValue ? .value(0) : .none
    switch device {
    case .empty:
      return ModelStep(answer: zero)
    case .delegate(let slot):
      guard isAlive(slot) else { return ModelStep(answer: zero) }
      // A plain call. A class without an optional method runs the protocol's default
      // (nothing observable; zero).
      guard ModelSlots.answers(slot, method) else { return ModelStep(answer: zero) }
      let value = ModelSlots.answer(slot, method)
      return ModelStep(
        answer: method.returnsValue ? .value(value) : .none,
        events: [.call(slot: slot, method: method, arg: arg)])
    case .multicast:
      return send(method, arg, via: .swift)
    case .injection:
      guard let inj = injection else { return ModelStep(answer: zero) }
      let (answer, events) = deliver(inj.multicast, method, arg, runtimeQueues: false)
      return ModelStep(answer: answer, events: events)
    }
  }

  /// The live members of the main multicast, in order, as slots (the nested proxy as
  /// `ModelMember.nestedSlot`).
  var memberSlots: [Int] { main.members.map(\.slot) }
}
