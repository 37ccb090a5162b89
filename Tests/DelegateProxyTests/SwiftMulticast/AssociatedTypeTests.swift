import DelegateProxy
import DelegateProxyTestSupport
import Testing

// An associated type the multicast chooses: a recorder's `Session` is, in the multicast of
// recorders, the multicast of their own sessions (`TraceSessionMulticast`), so every
// recorder sees every session — what swift-distributed-tracing's MultiplexInstrument
// lacks for spans (swift-distributed-tracing #232).

@Delegate
protocol TraceSession: AnyObject {
  func record(_ event: String)
  func close()
}

@Delegate
protocol TraceRecorder: AnyObject {
  associatedtype Session: TraceSession
  func startSession(named name: String) -> Session
  func session(named name: String) -> Session?
  func startTagged<Tag>(_ tag: Tag, named name: String) -> Session
  func startRemotely(named name: String) async throws -> Session
}

/// A recorder's own session type: what each member answers.
final class ListSession: TraceSession, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one task at a time.
  let recorder: String
  let name: String
  var events: [String] = []
  var isClosed = false
  init(recorder: String, name: String) {
    self.recorder = recorder
    self.name = name
  }
  func record(_ event: String) { events.append(event) }
  func close() { isClosed = true }
}

/// A recorder whose `Session` is its own `ListSession`.
final class ListRecorder: TraceRecorder, @unchecked Sendable {
  // @unchecked Sendable: the tests call it from one task at a time.
  let name: String
  var sessions: [ListSession] = []
  init(_ name: String) { self.name = name }
  func startSession(named name: String) -> ListSession {
    let session = ListSession(recorder: self.name, name: name)
    sessions.append(session)
    return session
  }
  func session(named name: String) -> ListSession? { sessions.first { $0.name == name } }
  func startTagged<Tag>(_ tag: Tag, named name: String) -> ListSession {
    startSession(named: "\(name)#\(tag)")
  }
  func startRemotely(named name: String) async throws -> ListSession { startSession(named: name) }
}

@Suite("Associated types the multicast binds")
struct AssociatedTypeTests {
  @Test func aSessionIsTheMulticastOfEveryRecordersOwn() {
    let a = ListRecorder("a")
    let b = ListRecorder("b")
    let recorders = TraceRecorderMulticast()
    recorders.add(a)
    recorders.add(b)

    let session: TraceSessionMulticast = recorders.startSession(named: "checkout")
    session.record("paid")
    session.close()

    for recorder in [a, b] {
      #expect(recorder.sessions.map(\.name) == ["checkout"])
      #expect(recorder.sessions[0].events == ["paid"])
      #expect(recorder.sessions[0].isClosed)
    }
    // The answer holds each recorder's own session, in member order, strongly.
    #expect(session.members(ofType: ListSession.self).map(\.recorder) == ["a", "b"])
  }

  @Test func anOptionalAnswerGathersThoseThatAnswer() {
    let a = ListRecorder("a")
    let b = ListRecorder("b")
    let recorders = TraceRecorderMulticast()
    recorders.add(a)
    recorders.add(b)
    _ = b.startSession(named: "only-b")

    let found = recorders.session(named: "only-b")
    #expect(found?.members(ofType: ListSession.self).map(\.recorder) == ["b"])
    #expect(recorders.session(named: "nobody") == nil)
  }

  @Test func aGenericAndAnAsyncRequirementGatherToo() async throws {
    let a = ListRecorder("a")
    let b = ListRecorder("b")
    let recorders = TraceRecorderMulticast()
    recorders.add(a)
    recorders.add(b)

    let tagged = recorders.startTagged(7, named: "job")
    #expect(tagged.members(ofType: ListSession.self).map(\.name) == ["job#7", "job#7"])
    let remote = try await recorders.startRemotely(named: "upload")
    remote.record("sent")
    #expect(a.sessions.last?.events == ["sent"])
    #expect(b.sessions.last?.events == ["sent"])
  }

  @Test func noMembersAnswerAnEmptyMulticast() {
    let recorders = TraceRecorderMulticast()
    let session = recorders.startSession(named: "alone")
    #expect(session.members(ofType: ListSession.self).isEmpty)
    session.record("nobody hears this")
    #expect(recorders.session(named: "alone") == nil)
  }

  @Test func theMulticastIsARecorderWhoseSessionIsAMulticast() {
    // Through the protocol, generically: `Session` is `TraceSessionMulticast`.
    func start<R: TraceRecorder>(_ recorder: R) -> R.Session { recorder.startSession(named: "g") }
    let a = ListRecorder("a")
    let recorders = TraceRecorderMulticast()
    recorders.add(a)
    let session = start(recorders)
    #expect(type(of: session) == TraceSessionMulticast.self)
    #expect(a.sessions.map(\.name) == ["g"])
  }
}

// Protocols that are not class-bound: value multicasts on both sides.

@Delegate
protocol TallySheet: Sendable {
  func mark(_ label: String)
}

@Delegate
protocol TallyBook: Sendable {
  associatedtype Sheet: TallySheet
  func openSheet(named name: String) -> Sheet
}

/// A sheet that is a value, sharing its marks with its copies through a log.
struct LoggedSheet: TallySheet {
  let book: String
  let log: CallLog
  func mark(_ label: String) { log.append("\(book):\(label)") }
}

/// A book that is a value, answering its own sheets.
struct LoggedBook: TallyBook {
  let name: String
  let log: CallLog
  func openSheet(named name: String) -> LoggedSheet { LoggedSheet(book: self.name, log: log) }
}

@Suite("Associated types bound to a value multicast")
struct ValueAssociatedTypeTests {
  @Test func aValueMulticastGathersValueAnswers() {
    let log = CallLog()
    var books = TallyBookMulticast()
    books.add(LoggedBook(name: "a", log: log))
    books.add(LoggedBook(name: "b", log: log))
    let sheet: TallySheetMulticast = books.openSheet(named: "today")
    sheet.mark("x")
    #expect(log.entries == ["a:x", "b:x"])
    #expect(sheet.members(ofType: LoggedSheet.self).map(\.book) == ["a", "b"])
  }
}
