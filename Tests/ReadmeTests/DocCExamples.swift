// The DocC articles' Swift code blocks (Sources/*/*.docc/*.md), verbatim, so the build
// compiles every one of them: ReadmeTests checks that each block stands here (indentation
// aside). The values a block uses without declaring them are parameters of the function
// around it. Edit a block in its article, then here.

import DelegateProxy
import DelegateProxyCExpat
import DelegateProxyTesting
import Dispatch
import Foundation
#if canImport(FoundationXML)
  import FoundationXML
#endif
import MessageRuntime
import Synchronization
import Testing

// MARK: DelegateProxy.docc/DelegateProxy.md

/// The overview block: compiled, not run.
func doccDelegateProxyOverview(
  controller: RuntimeObject, analytics: RuntimeObject,
  startElement: Message<Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?>,
  parser: XML_Parser
) throws -> (IMP, CallbackAdapter) {
  let didScroll = Message<Void, RuntimeObject?>("scrollViewDidScroll:")
  let shouldScrollToTop = Message<Bool, RuntimeObject?>("scrollViewShouldScrollToTop:")

  let proxy = MulticastProxy()                       // last responder's value wins
  try proxy.add(controller)
  try proxy.add(analytics)
  proxy.setPolicy(.reduce(.allTrue), for: shouldScrollToTop.selector)

  try didScroll.send(to: proxy, nil)                 // controller, then analytics
  let imp = try proxy.imp(for: didScroll.selector)   // for C code shaped as messages: (self, _cmd, …)

  // A real C library's callback (context first, last, at k, or none): an adapter.
  let start = try CallbackAdapter(for: startElement, context: .first, receiver: proxy)
  XML_SetUserData(parser, start.context)
  XML_SetStartElementHandler(parser, try start.function(as: XML_StartElementHandler.self))
  return (imp, start)
}

// MARK: DelegateProxy.docc/DelegateProxy.md — Queues, folds and observation

/// A table view as the runtime-level block uses it: one weak data-source slot.
final class ReadmeTableView {
  weak var dataSource: RuntimeObject?
}

/// The runtime-level multicast block, run by a test (the README held it; the name stays).
func readmeOneSlotManyDelegates(
  viewController: RuntimeObject, dataSource: RuntimeObject, tableView: ReadmeTableView,
  logger: RuntimeObject, loggingQueue: DispatchQueue, didReceiveIQ: Message<Bool, RuntimeObject?, RuntimeObject?>,
  stream: RuntimeObject, iq: RuntimeObject, didScroll: Message<Void, RuntimeObject?>
) async throws -> (MulticastProxy, Bool, MessageObservation) {

  let proxy = MulticastProxy(policy: .lastResponder)      // AIMultiDelegate
  try proxy.add(viewController)                           // held weakly, in order
  try proxy.add(dataSource)
  tableView.dataSource = proxy                            // the delegator sees one object

  proxy.setPolicy(.reduce(.allTrue), for: "tableView:shouldHighlightRowAt:")  // per selector
  try proxy.add(logger, queue: loggingQueue)              // GCDMulticastDelegate: async on its queue
  let handled = try await proxy.aggregate(didReceiveIQ, stream, iq, reducer: .anyTrue)  // never blocks
  let watching = proxy.observe(didScroll) { scrollView in print("scrolled") }    // RxCocoa-style
  print(proxy.report(for: "tableView:numberOfRowsInSection:"))  // who answers, which policy
  return (proxy, handled, watching)
}

/// The reducers block: compiled, not run (its completions run on the main queue, which a
/// test process does not drain); QueueDispatch's own tests run both forms.
func readmeReducers(proxy: MulticastProxy) throws {
  let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
  let height = Message<Double, RuntimeObject?, Int>("tableView:heightForRowAt:")
  let total = Reducer.fold(Int.self, name: "sum", initial: 0, +)                 // 0 + a + b + …
  let tallest = Reducer.collect(Double.self, name: "tallest") { $0.max() ?? 44 }  // every answer, one result
  proxy.setPolicy(.reduce(tallest), for: height.selector)                        // for every send
  try proxy.aggregate(rows, nil, 0, reducer: total, completionQueue: .main) { result in
    if case .success(let n) = result { print("\(n) rows in all") }             // on .main, once all answered
  }
  try proxy.collect(height, nil, 0, completionQueue: .main) { result in print(result) }  // [Double], in order
}

// MARK: DelegateProxy.docc/SwiftProtocols.md

/// The article's own sensor types, apart from the README's (same names, its own protocol).
enum DocCSwiftProtocols {
  final class Sensor {
    weak var delegate: (any SensorDelegate)?
  }

  struct Reading {
    var celsius: Double
    var sensorID: Int32
  }

  @Delegate
  protocol SensorDelegate: AnyObject {
    func sensor(_ sensor: Sensor, didRead reading: Reading)
    func sensorShouldStart(_ sensor: Sensor) -> Bool
    @Optional func sensorDidStop(_ sensor: Sensor)
  }

  /// The overview block: compiled, not run.
  static func overview(
    display: any SensorDelegate, recorder: any SensorDelegate, io: DispatchQueue, sensor: Sensor
  ) throws -> SensorDelegateMulticast {
    let delegates = SensorDelegateMulticast()
    delegates.add(display)                 // any class that conforms, held weakly
    delegates.add(recorder, queue: io)     // called asynchronously on its queue
    delegates.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    sensor.delegate = delegates
    return delegates
  }
}

// MARK: DelegateProxy.docc/PropertiesAndSubscripts.md

/// The article's log level, most verbose first.
enum LogLevel: Int, Comparable, Sendable {
  case debug, info, error
  static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

@Delegate
protocol LogSinks: AnyObject {
  @Default(LogLevel.info) var logLevel: LogLevel { get set }
  subscript(metadataKey _: String) -> String? { get set }
  func log(level: LogLevel, message: String)
}

/// A sink that keeps its lines.
final class DocCLogSink: LogSinks, @unchecked Sendable {
  // @unchecked Sendable: used by one test, on one thread.
  var logLevel: LogLevel
  var metadata: [String: String] = [:]
  var lines: [String] = []
  init(_ level: LogLevel) { logLevel = level }
  subscript(metadataKey key: String) -> String? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }
  func log(level: LogLevel, message: String) { lines.append(message) }
}

/// The usage block, run by a test.
func doccPropertiesAndSubscripts(console: any LogSinks, file: any LogSinks) -> (LogSinksMulticast, LogLevel) {
  let sinks = LogSinksMulticast()
  sinks.add(console)
  sinks.add(file)
  sinks.logLevel = .debug                       // console, then file
  sinks[metadataKey: "request"] = "42"          // console, then file
  sinks.setPolicy(.reduce(.min), for: \.logLevel)  // the most verbose
  let level = sinks.logLevel                    // asks both, answers the minimum
  sinks.setFilter(for: \.logLevelMessage) { sink, call in sink.logLevel <= call.0 }
  sinks.log(level: .debug, message: "cache miss")  // only the sinks whose own level admits it
  return (sinks, level)
}

@Test func doccPropertiesAndSubscriptsRun() {
  let console = DocCLogSink(.error)
  let file = DocCLogSink(.error)
  let (sinks, level) = doccPropertiesAndSubscripts(console: console, file: file)
  #expect(level == .debug)
  #expect(console.lines == ["cache miss"] && file.lines == ["cache miss"])
  #expect(console.metadata == ["request": "42"] && file.metadata == ["request": "42"])
  _ = sinks
}

// MARK: DelegateProxyTesting.docc

/// The data source protocol the articles' doubles stand in for.
let tableDataSource = try! RuntimeProtocol(
  name: "TableDataSource",
  required: ["tableView:numberOfRowsInSection:": "q@:@q", "tableView:cellForRowAt:": "@@:@q"])

/// A table as the DelegateProxyTesting article's block drives it: asks its data source for
/// the rows of section 0.
final class DocCTable: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: `dataSource` is behind its mutex.
  private let source = Mutex<RuntimeObject?>(nil)
  var dataSource: RuntimeObject? {
    get { source.withLock { $0 } }
    set { source.withLock { $0 = newValue } }
  }
  func reloadData() throws {
    guard let dataSource else { return }
    _ = try Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
      .send(to: dataSource, self, 0)
  }
}

/// The table the article's test drives (only that test uses it).
let table = DocCTable()

/// The DelegateProxyTesting.md block, run as a test.
@Suite("DocC: DelegateProxyTesting") struct DocCDelegateProxyTesting {
  @Test func tableAsksForRows() throws {
    let dataSource = try DelegateDouble(tableDataSource, mode: .strict)
    try dataSource.stub("tableView:numberOfRowsInSection:", .returning(3))
    table.dataSource = dataSource
    try table.reloadData()
    dataSource.verify("tableView:numberOfRowsInSection:", called: .once, with: [.any, 0])
  }

  @Test func sensorReportsTheReading() throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, mode: .strict)
    double.stub(\.sensorShouldStart) { sensor in true }
    double.stub(\.sensorDidRead)
    let sensor = Sensor()
    sensor.delegate = double.delegate
    if sensor.start() { sensor.read(21.5) }
    double.verify(\.sensorDidRead, called: .once) { sensor, reading in reading.celsius == 21.5 }
  }
}

/// `CGPoint`'s shape, for the out-pointer stub of WritingTestsWithDoubles.md.
struct CGPoint: MessageArgument, BitwiseCopyable {
  var x: Double
  var y: Double
  static let typeEncoding: TypeEncoding = .structure(name: "CGPoint", fields: [.double, .double])
}

/// A delegator of README's `SensorDelegate` whose `start()` result may be ignored.
final class DocCSensor {
  weak var delegate: (any SensorDelegate)?
  @discardableResult func start() -> Bool { delegate?.sensorShouldStart(Sensor()) ?? true }
}

/// WritingTestsWithDoubles.md's blocks: compiled, not run.
enum DocCWritingTestsWithDoubles {
  static func choosingWhatItAnswers() throws {
    let all = try DelegateDouble(tableDataSource)
    let requiredOnly = try DelegateDouble(tableDataSource, responding: .required)
    let cells = try DelegateDouble(tableDataSource, responding: .only(["tableView:cellForRowAt:"]))
    _ = (all, requiredOnly, cells)
  }

  static func fromSignatures() throws -> DelegateDouble {
    let parser = try DelegateDouble(signatures: [
      "parserDidStartElement:attributes:": "v@:*^*",
      "parserDidEndElement:": "v@:*",
    ], mode: .strict)
    return parser
  }

  static func ofASwiftProtocol() throws -> SwiftDelegateDouble<SensorDelegateMulticast> {
    let sensor = try SwiftDelegateDouble(SensorDelegateMulticast.self)
    return sensor
  }

  static func standingIn(sensor: DocCSensor) throws {
    let double = try SwiftDelegateDouble(SensorDelegateMulticast.self, mode: .strict)
    double.stub(\.sensorShouldStart, .returning(true))
    sensor.delegate = double.delegate
    sensor.start()
    double.verify(\.sensorShouldStart, called: .once)
  }

  static func typedDoubles(double: SwiftDelegateDouble<SensorDelegateMulticast>) {
    double.stub(\.sensorShouldStart) { sensor in sensor.delegate != nil }
    double.stub(\.sensorShouldStart, .returning(true))
    double.stub(\.sensorShouldStart, .returning(inOrder: [true, false]))
    double.stub(\.sensorDidRead, where: { _, reading in reading.celsius > 40 }) { sensor, _ in
      sensor.stop()
    }
    double.stub(\.sensorDidRead)                        // expected, answers nothing (strict mode)

    let readings = double.calls(to: \.sensorDidRead).map { sensor, reading in reading.celsius }
    double.verify(\.sensorDidRead, called: .once) { sensor, reading in reading.celsius == 21.5 }
    double.verifyNever(\.sensorDidStop)
    _ = readings
  }

  static func typedOrderAndWaiting(
    double: SwiftDelegateDouble<SensorDelegateMulticast>,
    primary: SwiftDelegateDouble<SensorDelegateMulticast>,
    secondary: SwiftDelegateDouble<SensorDelegateMulticast>
  ) async throws -> Reading {
    DelegateDouble.verifyInOrder(
      primary.received(\.sensorDidRead), secondary.received(\.sensorDidRead))
    let (_, reading) = try #require(await double.waitForCall(to: \.sensorDidRead))
    return reading
  }

  static func stubs(double: DelegateDouble) throws {
    try double.stub("tableView:numberOfRowsInSection:", .returning(3))
    try double.stub("tableView:numberOfRowsInSection:", with: [.any, 0], .returning(1))
    try double.stub("nextValue", .returning(inOrder: [1, 2, 3]))
    try double.stub(
      "scrollViewWillEndDragging:withVelocity:targetContentOffset:",
      .writing(CGPoint(x: 0, y: 120), toArgument: 2))
  }

  static func verification(
    double: DelegateDouble, primary: DelegateDouble, secondary: DelegateDouble
  ) async -> RecordedCall? {
    double.verify("tableView:numberOfRowsInSection:", called: .exactly(2))
    double.verify("tableView:numberOfRowsInSection:", called: .once, with: [.any, 1])
    double.verifyNever("numberOfSectionsInTableView:")
    double.verifyInOrder(["tableView:numberOfRowsInSection:", "tableView:cellForRowAt:"])
    DelegateDouble.verifyInOrder([(primary, "scrollViewDidScroll:"), (secondary, "scrollViewDidScroll:")])
    let call = await double.waitForCall(to: "stream:didReceive:", timeLimit: .seconds(2))
    return call
  }
}

// MARK: MessageRuntime.docc/MessageRuntime.md

/// The overview block, run by a test (the function keeps the name it had when the README
/// held the block).
func readmeMessageDeclaredOnce() throws -> (Int, IMP) {

  // Declared once with Swift types: the encoding (q@:@q) is derived from them.
  let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")

  // Implement it on a class (or on a single object) with a closure the compiler checks.
  let dataSource = try RuntimeClass(name: "DataSource")
  try dataSource.addMethod(rows) { receiver, table, section in section == 0 ? 3 : 0 }

  // Send it: looked up at run time, called through a real C function pointer.
  let source = RuntimeObject(class: dataSource)
  let n = try rows.send(to: source, nil, 0)          // 3

  // Forward it: a proxy with no methods receives it as an Invocation.
  final class Relay: ForwardingProxy, @unchecked Sendable {
    let target: RuntimeObject
    init(target: RuntimeObject) { self.target = target; super.init() }
    override func methodSignature(for s: Selector) -> MethodSignature? { target.methodSignature(for: s) }
    override func forwardInvocation(_ invocation: Invocation) throws {
      try invocation.invoke(target: target)             // re-issue it, any signature
    }
  }
  let relay = Relay(target: source)
  let forwarded = try rows.send(to: relay, nil, 0)    // 3, via forwardInvocation
  let imp = try relay.imp(for: rows.selector)         // a C function pointer C code can call
  return (n + forwarded - 3, imp)
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Protocols you don't own

@Delegate(for: XMLParserDelegate.self)
protocol ParserOutline: XMLParserDelegate {
  func parser(_ parser: XMLParser, foundCharacters string: String)
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Associated types the multicast chooses

@Delegate
protocol TraceSpan: AnyObject {
  func record(_ event: String)
}

@Delegate
protocol Tracer: AnyObject {
  associatedtype Span: TraceSpan
  func startSpan(named name: String) -> Span
  func span(named name: String) -> Span?
}

/// The usage block, run by a test.
func doccAssociatedTypes(console: any Tracer, file: any Tracer) -> TraceSpanMulticast {
  let tracers = TracerMulticast()
  tracers.add(console)
  tracers.add(file)
  let span = tracers.startSpan(named: "checkout")  // a TraceSpanMulticast
  span.record("paid")                              // console's span, then file's
  return span
}

/// A recorder whose spans keep their events.
final class DocCTracer: Tracer, @unchecked Sendable {
  // @unchecked Sendable: used by one test, on one thread.
  final class Span: TraceSpan, @unchecked Sendable {
    // @unchecked Sendable: used by one test, on one thread.
    let name: String
    var events: [String] = []
    init(name: String) { self.name = name }
    func record(_ event: String) { events.append(event) }
  }
  var spans: [Span] = []
  func startSpan(named name: String) -> Span {
    spans.append(Span(name: name))
    return spans[spans.count - 1]
  }
  func span(named name: String) -> Span? { spans.first { $0.name == name } }
}

@Test func doccAssociatedTypesRun() {
  let console = DocCTracer()
  let file = DocCTracer()
  let span = doccAssociatedTypes(console: console, file: file)
  #expect(console.spans.map(\.events) == [["paid"]])
  #expect(file.spans.map(\.events) == [["paid"]])
  #expect(span.members(ofType: DocCTracer.Span.self).count == 2)
}

// MARK: MessageRuntime.docc/CCallbacks.md

/// The overview block (the README's C-callback block too): compiled, not run.
func doccCallbackAdapter(proxy: MulticastProxy, parser: XML_Parser) throws -> CallbackAdapter {
  let start = Message<Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?>(
    "parserDidStartElement:attributes:")
  let adapter = try CallbackAdapter(for: start, context: .first, receiver: proxy)  // v^v*^*
  XML_SetUserData(parser, adapter.context)
  XML_SetStartElementHandler(parser, try adapter.function(as: XML_StartElementHandler.self))
  return adapter
}

/// What Swift imports from the article's C shim (curl_shim.c) and curl.h, so that the Swift
/// line calling it compiles here without curl's headers.
typealias curl_write_callback =
  @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
@discardableResult
func curl_shim_set_writer(
  _ curl: UnsafeMutableRawPointer?, _ write: curl_write_callback?,
  _ userdata: UnsafeMutableRawPointer?
) -> Int32 { write == nil ? 43 : 0 }

/// The callback-signature block and the curl shim's Swift line, run by a test (the
/// function keeps the name it had when the README held the blocks).
func readmeCallbackSignatures(
  proxy: MulticastProxy, sink: RuntimeObject, curl: UnsafeMutableRawPointer?
) throws -> (CallbackAdapter, CallbackAdapter, curl_write_callback) {
  // SQLite's update hook: void (*)(void *, int, char const *, char const *, sqlite3_int64)
  let updateHook = try CallbackSignature(parsing: "v^vi**q")
  let didUpdate = Message<Void, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64>(
    "database:didUpdate:table:row:")
  let updates = try CallbackAdapter(updateHook, context: .first, receiver: proxy, message: didUpdate)
  // libcurl's write callback: size_t (*)(char *ptr, size_t size, size_t nmemb, void *userdata)
  let writeCallback = CallbackSignature(
    returning: UInt.self, UnsafeMutablePointer<CChar>?.self, UInt.self, UInt.self,
    UnsafeMutableRawPointer?.self)
  let writes = try CallbackAdapter(writeCallback, context: .last, receiver: sink, selector: "write:size:count:")
  typealias WriteFunction = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
  let write = try writes.function(as: WriteFunction.self)   // refused if provably not the callback's type

  curl_shim_set_writer(curl, try writes.function(as: curl_write_callback.self), writes.context)
  return (updates, writes, write)
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — When no delegate answers (the README held these
// blocks: their functions keep their names)

@Delegate
protocol ChatDelegate: AnyObject {
  func chat(_ chat: ChatRoom, didReceive message: String, from sender: String?)
  func chat(_ chat: ChatRoom, titleFor row: Int) -> String?                    // nil when nobody answers
  @Default(true) func chatShouldConnect(_ chat: ChatRoom) -> Bool              // what the delegator meant
  @Optional func chat(_ chat: ChatRoom, confirm upload: URL, completion: @escaping @Sendable (Bool) -> Void)
}

final class ChatRoom {
  weak var delegate: (any ChatDelegate)?
}

func readmeSwiftTypes(chatLog: any ChatDelegate) throws -> Bool {
  let listeners = ChatDelegateMulticast()
  let room = ChatRoom()
  room.delegate = listeners
  let connects = listeners.chatShouldConnect(room)                    // true: no delegates, the declared default
  listeners.add(chatLog)
  listeners.setPolicy(.reduce(.firstNonNil), for: \.chatTitleFor) // the first delegate with a title
  listeners.chat(room, didReceive: "hello", from: nil)
  let longest = Reducer.collect(String?.self) { titles in titles.compactMap { $0 }.max(by: { $0.count < $1.count }) }
  listeners.setPolicy(.reduce(longest), for: \.chatTitleFor)    // a fold over Swift values
  return connects
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Overloads by parameter type

@Delegate
protocol Recorders: AnyObject {
  func record(_ value: Int64)                                                     // \.record
  @Handle("recordDouble") @Selector("recordDouble:") func record(_ value: Double) // \.recordDouble
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Answers that are delegates themselves

@Delegate
protocol Counter: AnyObject {
  func increment(by amount: Int)
}

@Delegate
protocol CounterFactory: AnyObject {
  @Default(noCounter()) func makeCounter(label: String) -> any Counter
  func destroyCounter(_ counter: any Counter)
}

/// A multicast of no counter, for no factory. (A function: a macro's argument cannot name a
/// type another macro generates.)
func noCounter() -> any Counter { CounterMulticast() }

/// A backend's own counter.
final class PrometheusCounter: Counter {
  func increment(by amount: Int) {}
}

func doccAnswersThatAreDelegates(factories: CounterFactoryMulticast) -> [PrometheusCounter]? {
  factories.setPolicy(.reduce(.multicast(CounterMulticast.self)), for: \.makeCounterLabel)
  let counter = factories.makeCounter(label: "requests")  // a CounterMulticast of every factory's own counter
  counter.increment(by: 1)                                // each factory's counter
  factories.destroyCounter(counter)                       // each factory is handed its own counter
  let own = (counter as? CounterMulticast)?.members(ofType: PrometheusCounter.self)
  return own
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — inout and closure parameters

@Delegate
protocol ScrollViewDelegate: AnyObject {
  func scrollViewWillEndDragging(_ view: ScrollView, velocity: Double, targetOffset: inout Double)
}

final class ScrollView {
  weak var delegate: (any ScrollViewDelegate)?
}

func readmeInout(_ scrolling: ScrollViewDelegateMulticast, _ view: ScrollView) -> Double {
  var target = 120.0
  scrolling.scrollViewWillEndDragging(view, velocity: 2, targetOffset: &target)  // snapped, then clamped
  return target
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Queues, aggregation, observation, injection

/// The typed-form block: compiled, not run (its `for await` waits for messages forever).
func readmeTypedForm(
  delegates: SensorDelegateMulticast, sensor: Sensor, reading: Reading, recorder: Recorder,
  recordingQueue: DispatchQueue, analytics: any SensorDelegate
) async throws {
  delegates.remove(recorder)                                           // one membership per delegate:
  delegates.add(recorder, queue: recordingQueue)                   // now on its queue (GCDMulticastDelegate)
  await delegates.broadcast(\.sensorDidStop, sensor)                    // returns when every queue ran
  await delegates.broadcast(\.sensorDidRead, sensor, reading)          // arguments as in a call
  let ok = await delegates.aggregate(\.sensorShouldStart, sensor, reducer: .anyTrue)
  delegates.aggregate(\.sensorShouldStart, sensor, reducer: .anyTrue, completionQueue: .main) {
    ok in print("may start: \(ok)")                                     // no async: on your queue, once all answered
  }
  let watching = delegates.observe(\.sensorDidRead) { sensor, reading in print(reading.celsius) }
  for await (_, reading) in delegates.messages(\.sensorDidRead) { print(reading.sensorID) }
  let injection = SensorDelegateMulticast.inject(analytics, into: sensor, at: \.delegate)
  print(delegates.report(for: \.sensorShouldStart), delegates.generation)
  _ = (ok, watching, injection)
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Errors and async

@Delegate
protocol UploadDelegate: AnyObject {
  func uploadWillStart(_ name: String) throws
  func uploadShouldRetry(_ name: String, attempt: Int) async -> Bool
  func uploadDidFinish(_ name: String) async throws -> Int
}

struct QuotaExceeded: Error {}

final class Quota: UploadDelegate {
  func uploadWillStart(_ name: String) throws { throw QuotaExceeded() }
  func uploadShouldRetry(_ name: String, attempt: Int) async -> Bool { attempt < 3 }
  func uploadDidFinish(_ name: String) async throws -> Int { 1 }
}

final class Progress: UploadDelegate {
  func uploadWillStart(_ name: String) throws { print("starting \(name)") }
  func uploadShouldRetry(_ name: String, attempt: Int) async -> Bool { true }
  func uploadDidFinish(_ name: String) async throws -> Int { 2 }
}

/// The README's errors-and-async block; answers what it printed and computed.
func readmeErrorsAndAsync(quota: Quota, progress: Progress) async throws -> (Int, Bool, Int) {
  let uploads = UploadDelegateMulticast()
  uploads.add(quota)
  uploads.add(progress)
  uploads.setErrorPolicy(.runAll, for: \.uploadWillStart)          // every delegate runs, then all errors
  do { try uploads.uploadWillStart("a.txt") } catch let errors as MemberErrors { print(errors.errors) }
  uploads.setPolicy(.reduce(.allTrue), for: \.uploadShouldRetryAttempt)
  uploads.setConcurrency(.concurrent, for: \.uploadShouldRetryAttempt)     // awaited at once, folded in order
  let retry = await uploads.uploadShouldRetry("a.txt", attempt: 2)  // true
  let finished = try await uploads.uploadDidFinish("a.txt")         // 2: the last responder's
  var errorCount = 0
  do { try uploads.uploadWillStart("b.txt") } catch let errors as MemberErrors { errorCount = errors.errors.count }
  return (errorCount, retry, finished)
}

// MARK: DelegateProxyTesting.docc/WritingTestsWithDoubles.md — Recorded calls

/// Run as a test (the README held this block; the name stays).
@Test func theSensorsReadingsAreRecorded() throws {
  let delegate = try SwiftDelegateDouble(SensorDelegateMulticast.self, responding: .all)
  let sensor = Sensor()
  sensor.delegate = delegate.delegate
  sensor.read(21.5)
  #expect(delegate.calls(to: \.sensorDidRead).map { $0.1.celsius } == [21.5])  // typed
  let call = try #require(delegate.recordedCalls(to: \.sensorDidRead).first)
  #expect(call.arguments.map(\.name) == ["sensor", "reading"])        // the Swift parameter names
  #expect(call.arguments[1].text == "{21.5, 7}")                         // every argument as text
  #expect(try call.swiftArgument(1, as: Reading.self).celsius == 21.5)  // the Swift value itself
  #expect(call.context.thread != 0 && !call.wasStubbed)                 // where it ran; no stub answered
  #expect(delegate.calls.map(\.selector) == ["sensor:didRead:"])       // every call, in order
  delegate.resetCalls()
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Protocols that refine others

final class Transfer: Sendable {}

@Delegate
protocol TransferEvents: AnyObject {
  func transferDidStart(_ transfer: Transfer)
  func transferShouldStart(_ transfer: Transfer) -> Bool
}

@Delegate
protocol DownloadEvents: TransferEvents {
  func download(_ transfer: Transfer, didWrite bytes: Int)
}

/// A delegator of the parent protocol.
final class Transferring {
  weak var delegate: (any TransferEvents)?
}

/// The refining block: compiled, not run.
func doccRefiningProtocols(progressView: any DownloadEvents, transfer: Transferring) {
  let downloads = DownloadEventsMulticast()         // a DownloadEvents, so a TransferEvents
  downloads.add(progressView)
  downloads.setPolicy(.reduce(.allTrue), for: \.transferShouldStart)   // the parent's handle
  transfer.delegate = downloads                     // weak var delegate: TransferEvents?
}

/// A protocol that is not `@Delegate`.
protocol LegacyEvents: AnyObject {
  func legacyDidFinish(_ id: Int)
}

@Delegate(restating: LegacyEvents.self)
protocol ArchiveEvents: TransferEvents, LegacyEvents {
  func legacyDidFinish(_ id: Int)        // every LegacyEvents method, restated
  func archive(_ transfer: Transfer, didAdd name: String)
}

// MARK: DelegateProxy.docc/ValueMembers.md

@Delegate
protocol AuditSink {
  func record(_ event: String)
  mutating func setTag(_ tag: String)
}

struct MemorySink: AuditSink, Equatable {
  var tag = ""
  var name: String
  func record(_ event: String) { print("\(name) \(tag)\(event)") }
  mutating func setTag(_ tag: String) { self.tag = tag }
}

/// The value members block, run by a test: the multicast and its copy.
func doccValueMembers() -> (audit: AuditSinkMulticast, quiet: AuditSinkMulticast) {
  var audit = AuditSinkMulticast()                   // a struct that conforms to AuditSink
  let first = audit.add(MemorySink(name: "a"))       // held by value; add returns its MemberID
  audit.add(MemorySink(name: "b"))
  audit.setTag("[db] ")                              // each member's stored value changes
  audit.record("opened")                             // a [db] opened, b [db] opened

  var quiet = audit                                  // a copy is a multicast of its own
  quiet.remove(first)
  quiet.setTag("")
  audit.record("closed")                             // a [db] closed, b [db] closed
  quiet.record("closed")                             // b closed
  return (audit, quiet)
}

@Delegate
protocol LevelSink {
  var level: Int { get set }
}

struct FixedLevel: LevelSink {
  var level: Int
}

/// The remembered reads block, run by a test: the three reads.
func doccValueMembersRemembered() -> (least: Int, again: Int, now: Int) {
  var levels = LevelSinkMulticast()
  levels.add(FixedLevel(level: 3))
  levels.add(FixedLevel(level: 1))
  levels.setPolicy(.reduce(.min), for: \.level)
  levels.remember(\.level)              // kept until the multicast next changes
  let least = levels.level              // asks both: 1
  let again = levels.level              // asks nobody: 1
  levels.level = 2                      // a write changes the members: forgotten
  let now = levels.level                // asks both: 2
  return (least, again, now)
}

@Test func doccValueMembersRememberedRun() {
  let (least, again, now) = doccValueMembersRemembered()
  #expect(least == 1 && again == 1 && now == 2)
}
