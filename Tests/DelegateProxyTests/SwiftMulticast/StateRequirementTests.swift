import DelegateProxy
import DelegateProxyTestSupport
import DelegateProxyTesting
import Dispatch
import Testing

// Properties, subscripts, per-call member selection and generic methods in `@Delegate`
// protocols: a read is a value-returning message under its own policy, a write a `void`
// message every member receives in order.

/// A log level, most verbose first.
enum Verbosity: Int, Comparable, Sendable {
  case trace, debug, info, warning, error
  static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

struct SinkFailure: Error, Equatable {
  let who: String
}

/// What an injector writes into (swift-distributed-tracing's `Injector`, reduced).
protocol Injecting: Sendable {
  associatedtype Carrier
  func inject(_ value: String, forKey key: String, into carrier: inout Carrier)
}

/// Writes into a dictionary.
struct DictionaryInjector: Injecting {
  func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
    carrier[key] = value
  }
}

@Delegate(cFace: true)
protocol LogSink: AnyObject {
  @Default(Verbosity.info) var level: Verbosity { get set }
  @Default("none") var label: String { get }
  subscript(metadataKey _: String) -> String? { get set }
  subscript(index: Int) -> Int { get }
  var checksum: Int { get throws }
  var remote: String { get async }
  func log(_ level: Verbosity, _ message: String)
  func inject<Carrier, Inject: Injecting>(
    _ context: String, into carrier: inout Carrier, using injector: Inject)
  where Inject.Carrier == Carrier
  func extract<Carrier>(_ carrier: Carrier, key: String) -> String? where Carrier: Sendable
}

/// A sink that logs each write and line, and answers as it was told.
class Sink: LogSink, @unchecked Sendable {
  // @unchecked Sendable: each test uses its sinks from one thread at a time.
  let name: String
  let calls: CallLog
  let factor: Int
  var failing = false
  var metadata: [String: String] = [:]
  var lines: [String] = []
  var level: Verbosity { didSet { calls.append("\(name).level=\(level)") } }
  var label: String { name }

  init(_ name: String, _ calls: CallLog, level: Verbosity = .info, factor: Int = 1) {
    self.name = name
    self.calls = calls
    self.level = level
    self.factor = factor
  }

  subscript(metadataKey key: String) -> String? {
    get { metadata[key] }
    set {
      calls.append("\(name)[\(key)]=\(newValue ?? "nil")")
      metadata[key] = newValue
    }
  }
  subscript(index: Int) -> Int { index * factor }
  var checksum: Int {
    get throws {
      calls.append("\(name).checksum")
      if failing { throw SinkFailure(who: name) }
      return factor
    }
  }
  var remote: String { get async { name } }
  func log(_ level: Verbosity, _ message: String) {
    lines.append(message)
    calls.append("\(name): \(message)")
  }
  func inject<Carrier, Inject: Injecting>(
    _ context: String, into carrier: inout Carrier, using injector: Inject
  ) where Inject.Carrier == Carrier {
    injector.inject("\(context)@\(name)", forKey: name, into: &carrier)
  }
  func extract<Carrier>(_ carrier: Carrier, key: String) -> String? where Carrier: Sendable {
    (carrier as? [String: String])?[key].map { "\(name):\($0)" }
  }
}

/// A delegator with one `weak var delegate`, for injection.
final class LoggerBox {
  weak var delegate: (any LogSink)?
}

@Suite struct StateRequirementTests {
  @Test func aReadAnswersTheLastResponderByDefault() {
    let calls = CallLog()
    let a = Sink("a", calls, level: .warning, factor: 2)
    let b = Sink("b", calls, level: .debug, factor: 3)
    let sinks = LogSinkMulticast()
    sinks.add(a)
    sinks.add(b)
    #expect(sinks.level == .debug)
    #expect(sinks.label == "b")
    #expect(sinks[10] == 30)
    sinks.setPolicy(.firstResponder, for: \.level)
    #expect(sinks.level == .warning)
    // The most verbose level, as swift-log's MultiplexLogHandler answers since PR #140.
    sinks.setPolicy(.reduce(.collect { $0.min() ?? .info }), for: \.level)
    #expect(sinks.level == .debug)
    sinks.setPolicy(.reduce(.fold(initial: 0, +)), for: \.subscript)
    #expect(sinks[10] == 50)
  }

  @Test func aReadNobodyAnswersIsItsDefaultOrTheEmptyValue() {
    let sinks = LogSinkMulticast()
    #expect(sinks.level == .info)
    #expect(sinks.label == "none")
    #expect(sinks[metadataKey: "k"] == nil)
    #expect(sinks[4] == 0)
  }

  @Test func aWriteReachesEveryMemberInOrderWhateverThePolicy() {
    let calls = CallLog()
    let a = Sink("a", calls)
    let b = Sink("b", calls)
    let sinks = LogSinkMulticast(policy: .firstResponder)
    sinks.add(a)
    sinks.add(b)
    sinks.level = .error
    #expect(calls.entries == ["a.level=error", "b.level=error"])
    #expect(a.level == .error && b.level == .error)
    sinks[metadataKey: "request"] = "42"
    #expect(calls.entries.suffix(2) == ["a[request]=42", "b[request]=42"])
    #expect(a.metadata == ["request": "42"] && b.metadata == ["request": "42"])
    b.metadata["request"] = "43"
    #expect(sinks[metadataKey: "request"] == "42")  // first responder
    sinks.setPolicy(nil, for: \.subscriptMetadataKey)
    sinks.defaultPolicy = .lastResponder
    #expect(sinks[metadataKey: "request"] == "43")
  }

  @Test func theHandlesFollowTheRule() {
    let methods = LogSinkMulticast.delegateProtocol.methods
    #expect(
      methods.map(\.selector.name) == [
        "level", "setLevel:", "label", "subscriptWithMetadataKey:",
        "setSubscriptWithMetadataKey:newValue:", "subscript:", "checksum", "remote", "log::",
      ])
    let messages = LogSinkMulticast.Handles()
    #expect(
      [
        messages.level.index, messages.setLevel.index, messages.label.index,
        messages.subscriptMetadataKey.index, messages.setSubscriptMetadataKey.index,
        messages.subscript.index, messages.checksum.index, messages.remote.index,
        messages.log.index,
      ] == Array(0..<9))
  }

  @Test func aThrowingGetterThrowsUnderTheErrorPolicy() throws {
    let calls = CallLog()
    let a = Sink("a", calls, factor: 2)
    let b = Sink("b", calls, factor: 3)
    let sinks = LogSinkMulticast()
    sinks.add(a)
    sinks.add(b)
    #expect(try sinks.checksum == 3)
    a.failing = true
    calls.clear()
    #expect(throws: SinkFailure(who: "a")) { try sinks.checksum }
    #expect(calls.entries == ["a.checksum"])
    sinks.setErrorPolicy(.runAll, for: \.checksum)
    calls.clear()
    #expect(throws: MemberErrors.self) { try sinks.checksum }
    #expect(calls.entries == ["a.checksum", "b.checksum"])
  }

  @Test func anAsyncGetterAwaitsItsMembers() async {
    let calls = CallLog()
    let a = Sink("a", calls)
    let b = Sink("b", calls)
    let sinks = LogSinkMulticast()
    #expect(await sinks.remote == "")
    sinks.add(a)
    sinks.add(b)
    #expect(await sinks.remote == "b")
    sinks.setPolicy(.firstResponder, for: \.remote)
    #expect(await sinks.remote == "a")
  }

  @Test func observersSeeReadsAndWrites() async {
    let calls = CallLog()
    let a = Sink("a", calls)
    let sinks = LogSinkMulticast()
    sinks.add(a)
    let seen = CallLog()
    let reads = sinks.observe(\.level) { _ in seen.append("read") }
    let writes = sinks.observe(\.setLevel) { level in seen.append("write \(level)") }
    let keyed = sinks.observe(\.setSubscriptMetadataKey) { call in
      let (key, value) = call
      seen.append("write [\(key)]=\(value ?? "nil")")
    }
    _ = sinks.level
    sinks.level = .trace
    sinks[metadataKey: "k"] = nil
    #expect(seen.entries == ["read", "write trace", "write [k]=nil"])
    #expect(a.level == .trace)
    _ = (reads, writes, keyed)
    var stream = sinks.messages(\.setLevel).makeAsyncIterator()
    sinks.level = .warning
    #expect(await stream.next() == .warning)
  }

  @Test func aggregateAndBroadcastTakeReadsAndWrites() async {
    let calls = CallLog()
    let a = Sink("a", calls, level: .error)
    let b = Sink("b", calls, level: .debug)
    let sinks = LogSinkMulticast()
    sinks.add(a)
    sinks.add(b)
    #expect(await sinks.aggregate(\.level, reducer: .collect { $0.min() ?? .info }) == .debug)
    await sinks.broadcast(\.setLevel, .warning)
    #expect(a.level == .warning && b.level == .warning)
  }

  @Test func aDoubleStubsAReadAndVerifiesAWrite() throws {
    let double = try SwiftDelegateDouble(LogSinkMulticast.self)
    double.stub(\.level, .returning(.error))
    double.stub(\.subscriptMetadataKey, where: { $0 == "trace-id" }, .returning("abc"))
    let sinks = LogSinkMulticast()
    sinks.add(double.delegate, retention: .strong)
    #expect(sinks.level == .error)
    #expect(sinks[metadataKey: "trace-id"] == "abc")
    sinks.level = .debug
    sinks[metadataKey: "user"] = "ann"
    double.verify(\.setLevel, called: .once) { $0 == .debug }
    double.verify(\.setSubscriptMetadataKey, called: .once) { $0 == "user" && $1 == "ann" }
    double.verify(\.level, called: .once)
  }

  @Test func aFilterChoosesTheMembersEachCallReaches() {
    let calls = CallLog()
    let chatty = Sink("chatty", calls, level: .trace)
    let quiet = Sink("quiet", calls, level: .error)
    let sinks = LogSinkMulticast()
    sinks.add(chatty)
    sinks.add(quiet)
    #expect(!sinks.hasFilter(for: \.log))
    // As MultiplexLogHandler: a line reaches the handlers whose own level admits it.
    sinks.setFilter(for: \.log) { sink, call in sink.level <= call.0 }
    #expect(sinks.hasFilter(for: \.log))
    sinks.log(.info, "started")
    sinks.log(.error, "failed")
    #expect(chatty.lines == ["started", "failed"])
    #expect(quiet.lines == ["failed"])
    // A read's filter: the members it refuses give no answer.
    sinks.setFilter(for: \.label) { sink, _ in sink.level > .trace }
    #expect(sinks.label == "quiet")
    sinks.setFilter(for: \.label) { _, _ in false }
    #expect(sinks.label == "none")
    #expect(sinks.description.contains("log(_:_:): filtered"))
    sinks.setFilter(for: \.log, nil)
    sinks.log(.trace, "all")
    #expect(quiet.lines == ["failed", "all"])
    #expect(!sinks.hasFilter(for: \.log))
  }

  @Test func aFilterAppliesToAggregationAndQueuedMembers() async {
    let calls = CallLog()
    let a = Sink("a", calls, level: .trace)
    let b = Sink("b", calls, level: .error)
    let queue = DispatchQueue(label: "sink.b")
    let sinks = LogSinkMulticast()
    sinks.add(a)
    sinks.add(b, queue: queue)
    sinks.setFilter(for: \.level) { sink, _ in sink.level < .error }
    #expect(await sinks.aggregate(\.level, reducer: .collect { $0.max() ?? .info }) == .trace)
    #expect(sinks.level == .trace)
    sinks.setFilter(for: \.log) { sink, call in sink.level <= call.0 }
    sinks.log(.error, "both")
    sinks.log(.debug, "only a")
    queue.sync {}
    #expect(a.lines == ["both", "only a"])
    #expect(b.lines == ["both"])
  }

  @Test func aFilterAppliesToThrowingAndAsyncReads() async throws {
    let calls = CallLog()
    let a = Sink("a", calls, factor: 2)
    let b = Sink("b", calls, factor: 3)
    b.failing = true
    let sinks = LogSinkMulticast()
    sinks.add(a)
    sinks.add(b)
    sinks.setFilter(for: \.checksum) { sink, _ in (sink as! Sink).factor == 2 }
    #expect(try sinks.checksum == 2)
    sinks.setFilter(for: \.remote) { sink, _ in (sink as! Sink).factor == 2 }
    #expect(await sinks.remote == "a")
  }

  @Test func aGenericMethodReachesEveryMemberWithTheSameGenericArguments() {
    let calls = CallLog()
    let a = Sink("a", calls)
    let b = Sink("b", calls)
    let sinks = LogSinkMulticast()
    var carrier: [String: String] = [:]
    sinks.inject("span-1", into: &carrier, using: DictionaryInjector())
    #expect(carrier.isEmpty)
    #expect(sinks.extract(carrier, key: "a") == nil)
    sinks.add(a)
    sinks.add(b)
    sinks.inject("span-1", into: &carrier, using: DictionaryInjector())
    #expect(carrier == ["a": "span-1@a", "b": "span-1@b"])
    // The last member's answer.
    #expect(sinks.extract(carrier, key: "a") == "b:span-1@a")
  }

  @Test func anInjectedListenerHearsWritesButThePrimaryAnswersReads() {
    let calls = CallLog()
    let primary = Sink("primary", calls, level: .warning)
    let plugin = Sink("plugin", calls, level: .trace)
    let box = LoggerBox()
    box.delegate = primary
    let injection = LogSinkMulticast.inject(plugin, into: box, at: \.delegate)
    #expect(box.delegate?.level == .warning)
    box.delegate?.level = .error
    #expect(primary.level == .error && plugin.level == .error)
    var carrier: [String: String] = [:]
    box.delegate?.inject("s", into: &carrier, using: DictionaryInjector())
    #expect(carrier.keys.sorted() == ["plugin", "primary"])
    #expect(box.delegate?.extract(carrier, key: "plugin") == "primary:s@plugin")
    _ = injection
  }
}

/// A property with a C form: its read and write reach C callers as `capacity` and
/// `setCapacity:`.
@Delegate(cFace: true)
protocol BufferDelegate: AnyObject {
  var capacity: Int { get set }
}

final class Buffer: BufferDelegate {
  var capacity: Int
  init(_ capacity: Int) { self.capacity = capacity }
}

@Suite struct StateRequirementCFaceTests {
  @Test func aCCallerReadsAndWritesAProperty() throws {
    let a = Buffer(4)
    let b = Buffer(8)
    let buffers = BufferDelegateMulticast()
    buffers.add(a)
    buffers.add(b)
    typealias Getter = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int
    typealias Setter = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Void
    let get = unsafeBitCast(try buffers.runtime.imp(for: \.capacity).rawValue, to: Getter.self)
    let set = unsafeBitCast(try buffers.runtime.imp(for: \.setCapacity).rawValue, to: Setter.self)
    let receiver = try buffers.runtime.rawValue()
    #expect(buffers.runtime.selector(for: \.setCapacity).name == "setCapacity:")
    #expect(get(receiver, buffers.runtime.selector(for: \.capacity).rawValue) == 8)
    set(receiver, buffers.runtime.selector(for: \.setCapacity).rawValue, 16)
    #expect(a.capacity == 16 && b.capacity == 16)
  }
}

/// A protocol refining one with properties, subscripts and generic methods: its multicast
/// inherits their forwarding.
@Delegate(cFace: true)
protocol TunedSink: LogSink {
  var gain: Double { get set }
}

final class Tuned: Sink, TunedSink, @unchecked Sendable {
  // @unchecked Sendable: as Sink.
  var gain = 1.0
}

/// A protocol declared elsewhere, restated for `@Delegate(for:)`.
protocol Meter: AnyObject {
  var reading: Double { get }
  var unit: String { get set }
}

@Delegate(for: Meter.self, cFace: true)
protocol Meters: Meter {
  var reading: Double { get }
  var unit: String { get set }
}

final class Thermometer: Meter {
  let reading: Double
  var unit = "C"
  init(_ reading: Double) { self.reading = reading }
}

/// An optional property: members that do not implement it are neither asked nor told.
@Delegate(cFace: true)
protocol HintSource: AnyObject {
  @Optional var hint: String { get set }
  func ping()
}

final class Hinting: HintSource {
  var hint = "h"
  func ping() {}
}

final class Silent: HintSource {
  func ping() {}
}

@Suite struct StateRequirementInheritanceTests {
  @Test func aRefiningProtocolsMulticastInheritsReadsWritesAndGenericMethods() {
    let calls = CallLog()
    let a = Tuned("a", calls, level: .warning)
    let b = Tuned("b", calls, level: .debug)
    let tuned = TunedSinkMulticast()
    tuned.add(a)
    tuned.add(b)
    #expect(tuned.level == .debug)
    tuned.level = .error
    tuned.gain = 2
    #expect(a.level == .error && b.level == .error && a.gain == 2 && b.gain == 2)
    tuned[metadataKey: "k"] = "v"
    #expect(tuned[metadataKey: "k"] == "v")
    var carrier: [String: String] = [:]
    tuned.inject("t", into: &carrier, using: DictionaryInjector())
    #expect(carrier == ["a": "t@a", "b": "t@b"])
    #expect(tuned.extract(carrier, key: "a") == "b:t@a")
    tuned.setPolicy(.firstResponder, for: \.level)
    #expect(tuned.level == .error)
  }

  @Test func aForeignProtocolsPropertiesAreRestated() {
    let meters = MetersMulticast()
    let a = Thermometer(20)
    let b = Thermometer(22)
    meters.add(a)
    meters.add(b)
    meters.setPolicy(.reduce(.fold(initial: 0, +)), for: \.reading)
    #expect(meters.reading == 42)
    meters.unit = "F"
    #expect(a.unit == "F" && b.unit == "F")
  }

  @Test func anOptionalPropertyReachesOnlyTheMembersThatImplementIt() {
    let hints = HintSourceMulticast()
    let hinting = Hinting()
    let silent = Silent()
    hints.add(hinting)
    hints.add(silent)
    #expect(hints.hint == "h")  // the silent member is not asked
    hints.hint = "x"
    #expect(hinting.hint == "x")
    #expect(hints.responds(to: \.hint))
    let empty = HintSourceMulticast()
    empty.add(silent)
    #expect(empty.hint == "")
    #expect(!empty.responds(to: \.setHint))
  }
}

/// A main-actor protocol's property: reads and writes run on the main actor.
@MainActor @Delegate
protocol Panel: AnyObject {
  var title: String { get set }
}

@MainActor final class TitledPanel: Panel {
  var title: String
  init(_ title: String) { self.title = title }
}

/// A protocol declared elsewhere whose conformers need a base class: the multicast's
/// `object` is the delegate, and forwards reads and writes.
protocol Gadget: AnyObject {
  var size: Int { get set }
}

class GadgetBase {}

@Delegate(for: Gadget.self, object: GadgetBase.self, cFace: true)
protocol Gadgets: Gadget {
  var size: Int { get set }
}

final class Widget: GadgetBase, Gadget {
  var size = 1
}

@Suite struct StateRequirementFacesTests {
  @Test @MainActor func aMainActorProtocolsPropertyIsReadAndWritten() {
    let panels = PanelMulticast()
    let a = TitledPanel("a")
    let b = TitledPanel("b")
    panels.add(a)
    panels.add(b)
    #expect(panels.title == "b")
    panels.title = "c"
    #expect(a.title == "c" && b.title == "c")
    #expect(PanelMulticast.Handles().setTitle.invoke(a, "d") == ())
    #expect(a.title == "d")
  }

  @Test func anObjectForwardsReadsAndWrites() {
    let gadgets = GadgetsMulticast()
    let a = Widget()
    let b = Widget()
    gadgets.add(a)
    gadgets.add(b)
    let object: any Gadget = gadgets.object
    object.size = 5
    #expect(a.size == 5 && b.size == 5)
    b.size = 7
    #expect(object.size == 7)
  }
}

/// Generic methods with effects (`async`, `throws`) and a generic result.
@Delegate(cFace: true)
protocol Exporter: AnyObject {
  func export<Value: Sendable>(_ value: Value) async -> Int
  func encode<Value: Encodable>(_ value: Value) throws -> String
  func first<Value>(of values: [Value]) -> Value?
}

final class CountingExporter: Exporter, @unchecked Sendable {
  // @unchecked Sendable: each test uses it from one task at a time.
  let weight: Int
  var exported: [String] = []
  let fails: Bool
  init(weight: Int, fails: Bool = false) {
    self.weight = weight
    self.fails = fails
  }
  func export<Value: Sendable>(_ value: Value) async -> Int {
    exported.append("\(value)")
    return weight
  }
  func encode<Value: Encodable>(_ value: Value) throws -> String {
    if fails { throw SinkFailure(who: "\(weight)") }
    return "\(weight):\(value)"
  }
  func first<Value>(of values: [Value]) -> Value? { values.dropFirst(weight - 2).first }
}

@Suite struct GenericMethodEffectsTests {
  @Test func asyncThrowingAndDefaultedGenericMethods() async {
    let exporters = ExporterMulticast()
    #expect(await exporters.export(1) == 0)
    #expect(exporters.first(of: ["alone"]) == nil)
    let a = CountingExporter(weight: 2)
    let b = CountingExporter(weight: 3, fails: true)
    exporters.add(a)
    exporters.add(b)
    #expect(await exporters.export("x") == 3)
    #expect(a.exported == ["x"] && b.exported == ["x"])
    #expect(throws: SinkFailure(who: "3")) { try exporters.encode(5) }
    #expect(exporters.first(of: [7, 8, 9]) == 8)  // the last member's answer
  }
}
