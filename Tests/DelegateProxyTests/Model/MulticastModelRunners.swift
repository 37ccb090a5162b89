@testable import DelegateProxy
import Dispatch
import MessageRuntime

// The real side of the model-based property tests: delegates that record what reaches
// them, and one runner per multicast face that applies a `ModelOp` to the library.

/// The model protocol's Swift face.
@Delegate(cFace: true)
protocol ModelProbeDelegate: AnyObject {
  func ping(_ value: Int)
  func ask(_ value: Int) -> Int
  func check(_ value: Int) -> Bool
  @Optional func note(_ value: Int)
  @Optional func measure(_ value: Int) -> Int
}

/// One serial queue per slot, marked so a delegate can tell it runs on one.
enum ModelQueues {
  static let key = DispatchSpecificKey<Int>()
  static let queues: [DispatchQueue] = (0..<ModelSlots.count).map { slot in
    let queue = DispatchQueue(label: "model.q\(slot)")
    queue.setSpecific(key: key, value: slot)
    return queue
  }
  /// Waits until every call queued so far has run (each queue is serial and FIFO).
  static func flush() { for q in queues { q.sync {} } }
}

/// What reached the delegates and observers of one run.
final class ModelRecorder: @unchecked Sendable {
  // @unchecked Sendable: every field is read and written under `lock`.
  private let lock = Lock<(events: [ModelEvent], async: [[ModelEvent]])>(
    ([], Array(repeating: [], count: ModelSlots.count)))
  let face: ModelFace
  init(face: ModelFace) { self.face = face }

  /// A delegate call. One running on a delegate's queue is asynchronous when the method
  /// is void, or on the runtime face (whose queued value calls are asynchronous too).
  func call(_ slot: Int, _ method: ModelMethod, _ arg: Int) {
    let onQueue = DispatchQueue.getSpecific(key: ModelQueues.key) != nil
    let event = ModelEvent.call(slot: slot, method: method, arg: arg)
    lock.withLock { s in
      if onQueue && (!method.returnsValue || face == .runtime) {
        s.async[slot].append(event)
      } else {
        s.events.append(event)
      }
    }
  }

  func observed(_ observer: Int, _ arg: Int) {
    lock.withLock { $0.events.append(.observed(observer: observer, arg: arg)) }
  }

  /// The calls on the sending thread since the last take.
  func takeEvents() -> [ModelEvent] {
    lock.withLock { s in
      defer { s.events = [] }
      return s.events
    }
  }

  var asyncCalls: [[ModelEvent]] { lock.withLock { $0.async } }
}

/// A Swift delegate that implements the optional methods (even slots).
final class ModelFullListener: ModelProbeDelegate, @unchecked Sendable {
  // @unchecked Sendable: immutable; the recorder is thread-safe.
  let slot: Int
  let recorder: ModelRecorder
  init(slot: Int, recorder: ModelRecorder) {
    self.slot = slot
    self.recorder = recorder
  }
  func ping(_ value: Int) { recorder.call(slot, .ping, value) }
  func ask(_ value: Int) -> Int {
    recorder.call(slot, .ask, value)
    return ModelSlots.answer(slot, .ask)
  }
  func check(_ value: Int) -> Bool {
    recorder.call(slot, .check, value)
    return ModelSlots.answer(slot, .check) != 0
  }
  func note(_ value: Int) { recorder.call(slot, .note, value) }
  func measure(_ value: Int) -> Int {
    recorder.call(slot, .measure, value)
    return ModelSlots.answer(slot, .measure)
  }
}

/// A Swift delegate without the optional methods (odd slots).
final class ModelPlainListener: ModelProbeDelegate, @unchecked Sendable {
  // @unchecked Sendable: immutable; the recorder is thread-safe.
  let slot: Int
  let recorder: ModelRecorder
  init(slot: Int, recorder: ModelRecorder) {
    self.slot = slot
    self.recorder = recorder
  }
  func ping(_ value: Int) { recorder.call(slot, .ping, value) }
  func ask(_ value: Int) -> Int {
    recorder.call(slot, .ask, value)
    return ModelSlots.answer(slot, .ask)
  }
  func check(_ value: Int) -> Bool {
    recorder.call(slot, .check, value)
    return ModelSlots.answer(slot, .check) != 0
  }
}

/// A delegator as Swift programmers write one.
final class ModelDevice {
  weak var delegate: (any ModelProbeDelegate)?
}

/// The slot a delegate object stands for (either face).
func modelSlot(of object: AnyObject) -> Int? {
  if let l = object as? ModelFullListener { return l.slot }
  if let l = object as? ModelPlainListener { return l.slot }
  if let d = object as? ModelRuntimeDelegate { return d.slot }
  return nil
}

/// The answer of one real step.
struct ModelObservedStep {
  var answer: ModelAnswer = .none
  var failure: String? = nil
}

/// What the tests ask of each face.
protocol ModelRunner: AnyObject {
  var recorder: ModelRecorder { get }
  /// Applies an operation the model did not skip.
  func apply(_ op: ModelOp) async -> ModelObservedStep
  /// `responds(to:)` for each method, in `ModelMethod` order.
  var responds: [Bool] { get }
  /// `count(respondingTo:)` for each method.
  var respondingCounts: [Int] { get }
  /// The multicast's `generation`.
  var generation: UInt64 { get }
  /// `contains(_:)` for each slot whose delegate the test holds (nil for the others).
  var contains: [Bool?] { get }
  /// The live members, in order, as slots.
  var memberSlots: [Int] { get }
  /// The live member count the multicast reports.
  var count: Int { get }
  /// Whether each slot's delegate object is still alive.
  var alive: [Bool] { get }
  /// Drops everything but the `messages(_:)` sequences and reads them out (at most
  /// `expected`'s count of each, so a missing element cannot hang the test); then the
  /// multicast must be gone and every sequence finished.
  func finishStreams(expected: [[Int]]) async -> Result<[[Int]], ModelRunnerError>
}

struct ModelRunnerError: Error, CustomStringConvertible {
  var description: String
}

/// A weak reference that can sit in an array.
struct ModelWeak {
  weak var object: AnyObject?
}

// MARK: - The Swift face

/// Drives a `ModelProbeDelegateMulticast` (and a delegator with an injection).
final class ModelSwiftRunner: ModelRunner {
  let recorder = ModelRecorder(face: .swiftProtocol)
  private var multicast: ModelProbeDelegateMulticast?
  private var listeners: [(any ModelProbeDelegate)?] = Array(
    repeating: nil, count: ModelSlots.count)
  private var weakListeners = Array(repeating: ModelWeak(), count: ModelSlots.count)
  private var observations: [MessageObservation] = []
  private var streams: [DelegateMessageSequence<Int>] = []
  private var adapters: [ModelMethod: CallbackAdapter] = [:]
  private let device = ModelDevice()
  private var injection: DelegateInjection<ModelDevice, ModelProbeDelegateMulticast>?

  init(policy: ModelPolicy, silentWhenEmpty: Bool, unique: Bool) {
    // silentWhenEmpty changes nothing for a Swift multicast (no call nobody answers traps).
    multicast = ModelProbeDelegateMulticast(
      policy: policy.returnPolicy.relabeled(), options: unique ? .unique : .allowsDuplicates)
  }

  private var m: ModelProbeDelegateMulticast { multicast! }

  private func listener(_ slot: Int) -> any ModelProbeDelegate {
    if let l = listeners[slot] { return l }
    let l: any ModelProbeDelegate =
      ModelSlots.implementsOptional(slot)
      ? ModelFullListener(slot: slot, recorder: recorder)
      : ModelPlainListener(slot: slot, recorder: recorder)
    listeners[slot] = l
    weakListeners[slot].object = l
    return l
  }

  func apply(_ op: ModelOp) async -> ModelObservedStep {
    var step = ModelObservedStep()
    do {
      switch op {
      case .add(let slot, let strong, let queued):
        m.add(
          listener(slot), queue: queued ? ModelQueues.queues[slot] : nil,
          retention: strong ? .strong : .weak)
      case .insertAt(let slot, let index, let strong, let queued):
        m.insert(
          listener(slot), at: index, queue: queued ? ModelQueues.queues[slot] : nil,
          retention: strong ? .strong : .weak)
      case .insertBefore(let slot, let other):
        m.insert(listener(slot), before: listeners[other])
      case .insertAfter(let slot, let other):
        m.insert(listener(slot), after: listeners[other])
      case .remove(let slot):
        m.remove(listeners[slot]!)
      case .removeOnQueue(let slot):
        m.remove(listeners[slot]!, queue: ModelQueues.queues[slot])
      case .removeAll:
        m.removeAll()
      case .drop(let slot):
        listeners[slot] = nil
      case .send(let method, let arg, let via):
        step.answer = try send(method, arg, via)
      case .setPolicy(let method, let policy):
        let p = policy?.returnPolicy
        switch method {
        // The model's rules act on every result type as the C rules do (nonzero is true).
        case .ask: m.setPolicy(p?.relabeled(as: Int.self), for: \.ask)
        case .check: m.setPolicy(p?.relabeled(as: Bool.self), for: \.check)
        case .measure: m.setPolicy(p?.relabeled(as: Int.self), for: \.measure)
        case .ping, .note: break
        }
      case .setDefaultPolicy(let policy):
        m.defaultPolicy = policy.returnPolicy.relabeled()
      case .observe(let method, let before):
        let index = observations.count
        let recorder = recorder
        let handler: @Sendable (Int) -> Void = { recorder.observed(index, $0) }
        let phase: ObservationPhase = before ? .before : .after
        let observation =
          switch method {
          case .ping: m.observe(\.ping, phase, handler)
          case .ask: m.observe(\.ask, phase, handler)
          case .check: m.observe(\.check, phase, handler)
          case .note: m.observe(\.note, phase, handler)
          case .measure: m.observe(\.measure, phase, handler)
          }
        observations.append(observation)
      case .cancelObserver(let index):
        observations[index].cancel()
      case .stream(let method, let before):
        let phase: ObservationPhase = before ? .before : .after
        let stream =
          switch method {
          case .ping: m.messages(\.ping, phase)
          case .ask: m.messages(\.ask, phase)
          case .check: m.messages(\.check, phase)
          case .note: m.messages(\.note, phase)
          case .measure: m.messages(\.measure, phase)
          }
        streams.append(stream)
      case .deviceSetDelegate(let slot):
        device.delegate = slot.map { listeners[$0]! }
      case .deviceSetMulticast:
        device.delegate = m
      case .inject(let slot):
        injection = ModelProbeDelegateMulticast.inject(
          listener(slot), into: device, at: \.delegate)
      case .injectionSetPrimary(let slot):
        injection!.setPrimary(slot.map { listeners[$0]! })
      case .injectionRemove:
        injection!.remove()
      case .injectionDrop:
        injection = nil
      case .deviceSend(let method, let arg):
        step.answer = deviceSend(method, arg)
      case .aggregate(let method, let arg, let reducer):
        let r = reducer?.reducer
        switch method {
        case .ask:
          step.answer = .value(await m.aggregate(\.ask, arg, reducer: r?.relabeled(as: Int.self)))
        case .check:
          step.answer = .value(
            await m.aggregate(\.check, arg, reducer: r?.relabeled(as: Bool.self)) ? 1 : 0)
        case .measure:
          step.answer = .value(
            await m.aggregate(\.measure, arg, reducer: r?.relabeled(as: Int.self)))
        case .ping, .note: break
        }
      case .broadcast(let method, let arg):
        switch method {
        case .ping: await m.broadcast(\.ping, arg)
        case .note: await m.broadcast(\.note, arg)
        case .ask, .check, .measure: break
        }
      case .nestedAdd, .nestedRemove, .nest, .unnest, .nestMainIntoNested:
        step.failure = "\(op) is not an operation of the Swift face"
      }
    } catch {
      step.failure = "\(op) threw \(error)"
    }
    return step
  }

  private func deviceSend(_ method: ModelMethod, _ arg: Int) -> ModelAnswer {
    let d = device.delegate
    switch method {
    case .ping:
      d?.ping(arg)
      return .none
    case .note:
      d?.note(arg)
      return .none
    case .ask: return .value(d?.ask(arg) ?? 0)
    case .check: return .value((d?.check(arg) ?? false) ? 1 : 0)
    case .measure: return .value(d?.measure(arg) ?? 0)
    }
  }

  private typealias VoidIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
  private typealias IntIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
  private typealias BoolIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Bool
  private typealias VoidCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
  private typealias IntCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int
  private typealias BoolCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Bool

  private func send(_ method: ModelMethod, _ arg: Int, _ via: ModelVia) throws -> ModelAnswer {
    switch via {
    case .swift:
      switch method {
      case .ping:
        m.ping(arg)
        return .none
      case .note:
        m.note(arg)
        return .none
      case .ask: return .value(m.ask(arg))
      case .check: return .value(m.check(arg) ? 1 : 0)
      case .measure: return .value(m.measure(arg))
      }
    case .cIMP:
      let me = try m.runtime.rawValue()
      switch method {
      case .ping:
        try m.runtime.imp(for: \.ping).unsafeCast(to: VoidIMP.self)(
          me, m.runtime.selector(for: \.ping).rawValue, arg)
        return .none
      case .note:
        try m.runtime.imp(for: \.note).unsafeCast(to: VoidIMP.self)(
          me, m.runtime.selector(for: \.note).rawValue, arg)
        return .none
      case .ask:
        return .value(
          try m.runtime.imp(for: \.ask).unsafeCast(to: IntIMP.self)(
            me, m.runtime.selector(for: \.ask).rawValue, arg))
      case .check:
        let f = try m.runtime.imp(for: \.check).unsafeCast(to: BoolIMP.self)
        return .value(f(me, m.runtime.selector(for: \.check).rawValue, arg) ? 1 : 0)
      case .measure:
        let f = try m.runtime.imp(for: \.measure).unsafeCast(to: IntIMP.self)
        return .value(f(me, m.runtime.selector(for: \.measure).rawValue, arg))
      }
    case .cAdapter:
      let adapter = try callbackAdapter(method)
      switch method {
      case .ping, .note:
        try adapter.function(as: VoidCallback.self)(adapter.context, arg)
        return .none
      case .ask, .measure:
        return .value(try adapter.function(as: IntCallback.self)(adapter.context, arg))
      case .check:
        return .value(try adapter.function(as: BoolCallback.self)(adapter.context, arg) ? 1 : 0)
      }
    }
  }

  private func callbackAdapter(_ method: ModelMethod) throws -> CallbackAdapter {
    if let a = adapters[method] { return a }
    let a =
      switch method {
      case .ping: try m.runtime.callbackAdapter(for: \.ping, context: .first)
      case .ask: try m.runtime.callbackAdapter(for: \.ask, context: .first)
      case .check: try m.runtime.callbackAdapter(for: \.check, context: .first)
      case .note: try m.runtime.callbackAdapter(for: \.note, context: .first)
      case .measure: try m.runtime.callbackAdapter(for: \.measure, context: .first)
      }
    adapters[method] = a
    return a
  }

  var responds: [Bool] {
    [
      m.responds(to: \.ping), m.responds(to: \.ask), m.responds(to: \.check),
      m.responds(to: \.note), m.responds(to: \.measure),
    ]
  }
  var respondingCounts: [Int] {
    [
      m.count(respondingTo: \.ping), m.count(respondingTo: \.ask),
      m.count(respondingTo: \.check), m.count(respondingTo: \.note),
      m.count(respondingTo: \.measure),
    ]
  }
  var generation: UInt64 { m.generation }
  var contains: [Bool?] { listeners.map { $0.map { m.contains($0) } } }
  var memberSlots: [Int] { m.delegates.compactMap { modelSlot(of: $0 as AnyObject) } }
  var count: Int { m.count }
  var alive: [Bool] { weakListeners.map { $0.object != nil } }

  func finishStreams(expected: [[Int]]) async -> Result<[[Int]], ModelRunnerError> {
    injection = nil
    adapters = [:]
    observations = []
    weak let gone = multicast
    multicast = nil
    var iterators = streams.map { $0.makeAsyncIterator() }
    streams = []
    var out: [[Int]] = []
    for i in iterators.indices {
      var values: [Int] = []
      while values.count < expected[i].count, let v = await iterators[i].next() { values.append(v) }
      out.append(values)
    }
    if gone != nil {
      return .failure(ModelRunnerError(description: "the multicast outlived its last reference"))
    }
    for i in iterators.indices {
      if let extra = await iterators[i].next() {
        return .failure(
          ModelRunnerError(description: "messages(_:) #\(i) yielded \(out[i]) and then \(extra)"))
      }
    }
    return .success(out)
  }
}

// MARK: - The runtime face

/// A runtime delegate of the model: a `RuntimeObject` of one of two classes.
final class ModelRuntimeDelegate: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: immutable; the recorder is thread-safe.
  let slot: Int
  let recorder: ModelRecorder
  init(_ cls: RuntimeClass, slot: Int, recorder: ModelRecorder) {
    self.slot = slot
    self.recorder = recorder
    super.init(class: cls)
  }
  /// The receiver of a model method (every model class makes these).
  static func of(_ receiver: RuntimeObject) -> ModelRuntimeDelegate {
    receiver as! ModelRuntimeDelegate
  }
}

/// The model protocol's runtime face: messages, two delegate classes, a protocol.
struct ModelRuntimeKit: Sendable {
  static let ping = Message<Void, Int>("modelPing:")
  static let ask = Message<Int, Int>("modelAsk:")
  static let check = Message<Bool, Int>("modelCheck:")
  static let note = Message<Void, Int>("modelNote:")
  static let measure = Message<Int, Int>("modelMeasure:")

  let full: RuntimeClass
  let plain: RuntimeClass
  let proto: RuntimeProtocol

  static func selector(_ method: ModelMethod) -> Selector {
    switch method {
    case .ping: ping.selector
    case .ask: ask.selector
    case .check: check.selector
    case .note: note.selector
    case .measure: measure.selector
    }
  }

  init() throws {
    func make(_ name: String, optional: Bool) throws -> RuntimeClass {
      let cls = try RuntimeClass(name: uniqueClassName(name))
      try cls.addMethod(Self.ping) { r, v in
        ModelRuntimeDelegate.of(r).recorder.call(ModelRuntimeDelegate.of(r).slot, .ping, v)
      }
      try cls.addMethod(Self.ask) { r, v in
        ModelRuntimeDelegate.of(r).recorder.call(ModelRuntimeDelegate.of(r).slot, .ask, v)
        return ModelSlots.answer(ModelRuntimeDelegate.of(r).slot, .ask)
      }
      try cls.addMethod(Self.check) { r, v in
        ModelRuntimeDelegate.of(r).recorder.call(ModelRuntimeDelegate.of(r).slot, .check, v)
        return ModelSlots.answer(ModelRuntimeDelegate.of(r).slot, .check) != 0
      }
      if optional {
        try cls.addMethod(Self.note) { r, v in
          ModelRuntimeDelegate.of(r).recorder.call(ModelRuntimeDelegate.of(r).slot, .note, v)
        }
        try cls.addMethod(Self.measure) { r, v in
          ModelRuntimeDelegate.of(r).recorder.call(ModelRuntimeDelegate.of(r).slot, .measure, v)
          return ModelSlots.answer(ModelRuntimeDelegate.of(r).slot, .measure)
        }
      }
      return cls
    }
    full = try make("ModelFull", optional: true)
    plain = try make("ModelPlain", optional: false)
    proto = RuntimeProtocol(
      name: uniqueClassName("ModelProbe"),
      requirements: [
        .init(Self.ping.selector, Self.ping.signature, required: true),
        .init(Self.ask.selector, Self.ask.signature, required: true),
        .init(Self.check.selector, Self.check.signature, required: true),
        .init(Self.note.selector, Self.note.signature, required: false),
        .init(Self.measure.selector, Self.measure.signature, required: false),
      ])
  }
}

/// Drives a `MulticastProxy` with runtime objects as delegates.
final class ModelRuntimeRunner: ModelRunner {
  let recorder = ModelRecorder(face: .runtime)
  private let kit: ModelRuntimeKit
  private var proxy: MulticastProxy?
  private var delegates: [ModelRuntimeDelegate?] = Array(repeating: nil, count: ModelSlots.count)
  private var weakDelegates = Array(repeating: ModelWeak(), count: ModelSlots.count)
  private var observations: [MessageObservation] = []
  private var streams: [AsyncStream<MessageSnapshot>] = []
  private var adapters: [ModelMethod: CallbackAdapter] = [:]

  /// The nested proxy (LBDelegateMatrioska), held by the test for the whole run.
  private let nested: MulticastProxy

  init(
    kit: ModelRuntimeKit, policy: ModelPolicy, silentWhenEmpty: Bool, unique: Bool,
    nestedPolicy: ModelPolicy
  ) {
    self.kit = kit
    nested = MulticastProxy(policy: nestedPolicy.returnPolicy, protocol: kit.proto)
    var options: MulticastOptions = []
    if silentWhenEmpty { options.insert(.silentWhenEmpty) }
    if unique { options.insert(.unique) }
    proxy = MulticastProxy(policy: policy.returnPolicy, options: options, protocol: kit.proto)
  }

  private var p: MulticastProxy { proxy! }

  private func delegate(_ slot: Int) -> ModelRuntimeDelegate {
    if let d = delegates[slot] { return d }
    let d = ModelRuntimeDelegate(
      ModelSlots.implementsOptional(slot) ? kit.full : kit.plain, slot: slot, recorder: recorder)
    delegates[slot] = d
    weakDelegates[slot].object = d
    return d
  }

  func apply(_ op: ModelOp) async -> ModelObservedStep {
    var step = ModelObservedStep()
    do {
      switch op {
      case .add(let slot, let strong, let queued):
        try p.add(
          delegate(slot), queue: queued ? ModelQueues.queues[slot] : nil,
          retention: strong ? .strong : .weak)
      case .insertAt(let slot, let index, let strong, let queued):
        try p.insert(
          delegate(slot), at: index, queue: queued ? ModelQueues.queues[slot] : nil,
          retention: strong ? .strong : .weak)
      case .insertBefore(let slot, let other):
        try p.insert(delegate(slot), before: delegates[other])
      case .insertAfter(let slot, let other):
        try p.insert(delegate(slot), after: delegates[other])
      case .remove(let slot):
        p.remove(delegates[slot]!)
      case .removeOnQueue(let slot):
        p.remove(delegates[slot]!, queue: ModelQueues.queues[slot])
      case .removeAll:
        p.removeAll()
      case .drop(let slot):
        delegates[slot] = nil
      case .send(let method, let arg, let via):
        step.answer = try send(method, arg, via)
      case .setPolicy(let method, let policy):
        p.setPolicy(policy?.returnPolicy, for: ModelRuntimeKit.selector(method))
      case .setDefaultPolicy(let policy):
        p.defaultPolicy = policy.returnPolicy
      case .observe(let method, let before):
        let index = observations.count
        let recorder = recorder
        let handler: @Sendable (Int) -> Void = { recorder.observed(index, $0) }
        let phase: ObservationPhase = before ? .before : .after
        let observation =
          switch method {
          case .ping: p.observe(ModelRuntimeKit.ping, phase, handler)
          case .ask: p.observe(ModelRuntimeKit.ask, phase, handler)
          case .check: p.observe(ModelRuntimeKit.check, phase, handler)
          case .note: p.observe(ModelRuntimeKit.note, phase, handler)
          case .measure: p.observe(ModelRuntimeKit.measure, phase, handler)
          }
        observations.append(observation)
      case .cancelObserver(let index):
        observations[index].cancel()
      case .stream(let method, let before):
        streams.append(p.messages(ModelRuntimeKit.selector(method), before ? .before : .after))
      case .aggregate(let method, let arg, let reducer):
        guard let r = reducer?.reducer else { break }
        switch method {
        case .ask:
          step.answer = .value(
            try await p.aggregate(ModelRuntimeKit.ask, arg, reducer: r.relabeled(as: Int.self)))
        case .check:
          step.answer = .value(
            try await p.aggregate(ModelRuntimeKit.check, arg, reducer: r.relabeled(as: Bool.self))
              ? 1 : 0)
        case .measure:
          step.answer = .value(
            try await p.aggregate(
              ModelRuntimeKit.measure, arg, reducer: r.relabeled(as: Int.self)))
        case .ping, .note: break
        }
      case .nestedAdd(let slot, let strong):
        try nested.add(delegate(slot), retention: strong ? .strong : .weak)
      case .nestedRemove(let slot):
        nested.remove(delegates[slot]!)
      case .nest:
        try p.add(nested)
      case .unnest:
        p.remove(nested)
      case .nestMainIntoNested:
        try nested.add(p)
      case .deviceSetDelegate, .deviceSetMulticast, .inject, .injectionSetPrimary,
        .injectionRemove, .injectionDrop, .deviceSend, .broadcast:
        step.failure = "\(op) is not an operation of the runtime face"
      }
    } catch RuntimeError.unrecognizedSelector {
      step.answer = .unrecognized
    } catch DelegateProxyError.cycle {
      step.answer = .refusedCycle
    } catch {
      step.failure = "\(op) threw \(error)"
    }
    return step
  }

  private typealias VoidIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
  private typealias IntIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
  private typealias BoolIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Bool
  private typealias VoidCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
  private typealias IntCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int
  private typealias BoolCallback = @convention(c) (UnsafeMutableRawPointer?, Int) -> Bool

  private func send(_ method: ModelMethod, _ arg: Int, _ via: ModelVia) throws -> ModelAnswer {
    switch via {
    case .swift:
      switch method {
      case .ping:
        try ModelRuntimeKit.ping.send(to: p, arg)
        return .none
      case .note:
        try ModelRuntimeKit.note.send(to: p, arg)
        return .none
      case .ask: return .value(try ModelRuntimeKit.ask.send(to: p, arg))
      case .check: return .value(try ModelRuntimeKit.check.send(to: p, arg) ? 1 : 0)
      case .measure: return .value(try ModelRuntimeKit.measure.send(to: p, arg))
      }
    case .cIMP:
      let sel = ModelRuntimeKit.selector(method)
      let imp = try p.imp(for: sel)
      switch method {
      case .ping, .note:
        imp.unsafeCast(to: VoidIMP.self)(p.rawValue, sel.rawValue, arg)
        return .none
      case .ask, .measure:
        return .value(imp.unsafeCast(to: IntIMP.self)(p.rawValue, sel.rawValue, arg))
      case .check:
        return .value(imp.unsafeCast(to: BoolIMP.self)(p.rawValue, sel.rawValue, arg) ? 1 : 0)
      }
    case .cAdapter:
      let adapter = try callbackAdapter(method)
      switch method {
      case .ping, .note:
        try adapter.function(as: VoidCallback.self)(adapter.context, arg)
        return .none
      case .ask, .measure:
        return .value(try adapter.function(as: IntCallback.self)(adapter.context, arg))
      case .check:
        return .value(try adapter.function(as: BoolCallback.self)(adapter.context, arg) ? 1 : 0)
      }
    }
  }

  private func callbackAdapter(_ method: ModelMethod) throws -> CallbackAdapter {
    if let a = adapters[method] { return a }
    let a =
      switch method {
      case .ping: try CallbackAdapter(for: ModelRuntimeKit.ping, context: .first, receiver: p)
      case .ask: try CallbackAdapter(for: ModelRuntimeKit.ask, context: .first, receiver: p)
      case .check: try CallbackAdapter(for: ModelRuntimeKit.check, context: .first, receiver: p)
      case .note: try CallbackAdapter(for: ModelRuntimeKit.note, context: .first, receiver: p)
      case .measure:
        try CallbackAdapter(for: ModelRuntimeKit.measure, context: .first, receiver: p)
      }
    adapters[method] = a
    return a
  }

  var responds: [Bool] { ModelMethod.allCases.map { p.responds(to: ModelRuntimeKit.selector($0)) } }
  var respondingCounts: [Int] {
    ModelMethod.allCases.map { p.count(respondingTo: ModelRuntimeKit.selector($0)) }
  }
  var generation: UInt64 { p.generation }
  var contains: [Bool?] { delegates.map { $0.map { p.contains($0) } } }
  var memberSlots: [Int] {
    p.delegates.compactMap { $0 === nested ? ModelMember.nestedSlot : modelSlot(of: $0) }
  }
  var count: Int { p.count }
  var alive: [Bool] { weakDelegates.map { $0.object != nil } }

  func finishStreams(expected: [[Int]]) async -> Result<[[Int]], ModelRunnerError> {
    adapters = [:]  // an adapter keeps its receiver alive
    observations = []
    weak let gone = proxy
    proxy = nil
    // A buffered snapshot keeps the proxy alive (it retains its invocation's target, as
    // documented: "objects are retained"), so the proxy goes once they are read.
    var iterators = streams.map { $0.makeAsyncIterator() }
    streams = []
    var out: [[Int]] = []
    for i in iterators.indices {
      var values: [Int] = []
      while values.count < expected[i].count, let snapshot = await iterators[i].next() {
        values.append((try? snapshot.argument(at: 0, as: Int.self)) ?? Int.min)
      }
      out.append(values)
    }
    if gone != nil {
      return .failure(
        ModelRunnerError(description: "the proxy outlived its last reference and its snapshots"))
    }
    for i in iterators.indices {
      if let extra = await iterators[i].next() {
        return .failure(
          ModelRunnerError(
            description: "messages(_:) #\(i) yielded \(out[i]) and then \(extra)"))
      }
    }
    return .success(out)
  }
}

extension ModelPolicy {
  /// The library's reducer for this model policy (nil for last and first responder).
  var reducer: Reducer<ReturnValue>? {
    if case .reduce(let r) = returnPolicy { return r }
    return nil
  }

  /// The library's policy for this model policy.
  var returnPolicy: ReturnPolicy<ReturnValue> {
    switch self {
    case .last: .lastResponder
    case .first: .firstResponder
    case .allTrue: .reduce(.allTrue)
    case .anyTrue: .reduce(.anyTrue)
    case .sum: .reduce(.fold(Int.self, name: "sum", initial: 0, +))
    case .firstNonZero: .reduce(.firstNonNil)
    }
  }
}
