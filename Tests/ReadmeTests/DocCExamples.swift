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
    try delegates.add(display)                 // any class that conforms, held weakly
    try delegates.add(recorder, queue: io)     // called asynchronously on its queue
    try delegates.setPolicy(.reduce(.allTrue), for: \.sensorShouldStart)
    sensor.delegate = delegates
    return delegates
  }
}

// MARK: DelegateProxyTesting.docc

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

/// The overview block: compiled, not run.
func doccMessageRuntimeOverview(dataSourceClass: RuntimeClass, dataSource: RuntimeObject) throws
  -> Int
{
  let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
  try dataSourceClass.addMethod(rows) { receiver, table, section in 3 }
  let n = try rows.send(to: dataSource, nil, 0)
  return n
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — When no delegate answers

/// The `@Default` line, in a protocol of its own.
@Delegate
protocol DoccChatConnection: AnyObject {
  @Default(true) func chatShouldConnect(_ chat: ChatRoom) -> Bool
}

// MARK: DelegateProxy.docc/SwiftProtocols.md — Protocols you don't own

@Delegate(for: XMLParserDelegate.self)
protocol ParserOutline: XMLParserDelegate {
  func parser(_ parser: XMLParser, foundCharacters string: String)
}
