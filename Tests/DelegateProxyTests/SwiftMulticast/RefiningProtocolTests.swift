import DelegateProxy
import DelegateProxyTesting
import Dispatch
import MessageRuntime
import Testing

// A delegate protocol that refines another, both declared here with @Delegate: the
// refining multicast conforms to the whole hierarchy and fans out the inherited methods
// it restates; an @Optional parent method keeps its optional meaning.

final class Scroller: Sendable {}

@Delegate(cFace: true)
protocol ScrollerDelegate: AnyObject {
  func scrollerDidScroll(_ scroller: Scroller)
  @Optional func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool
}

@Delegate(cFace: true)
protocol PagedListDelegate: ScrollerDelegate {
  func scrollerDidScroll(_ scroller: Scroller)
  @Optional @Default(true) func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool
  func list(_ list: Scroller, didSelect row: Int)
  func list(_ list: Scroller, titleFor row: Int) -> String?
}

final class PagedListLog: PagedListDelegate, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock; the rest is immutable.
  let name: String
  let heard = Lock<[String]>([])
  init(_ name: String) { self.name = name }
  func scrollerDidScroll(_ scroller: Scroller) { heard.withLock { $0.append("\(name) scrolled") } }
  func list(_ list: Scroller, didSelect row: Int) { heard.withLock { $0.append("\(name) row \(row)") } }
  func list(_ list: Scroller, titleFor row: Int) -> String? { "\(name) \(row)" }
}

final class TopGuard: PagedListDelegate {
  func scrollerDidScroll(_ scroller: Scroller) {}
  func scrollerShouldScrollToTop(_ scroller: Scroller) -> Bool { false }
  func list(_ list: Scroller, didSelect row: Int) {}
  func list(_ list: Scroller, titleFor row: Int) -> String? { nil }
}

/// A delegator of the parent protocol only: it takes the refining multicast as it is.
final class PlainScroller {
  weak var delegate: (any ScrollerDelegate)?
  let scroller = Scroller()
  func scroll() { delegate?.scrollerDidScroll(scroller) }
  var scrollsToTop: Bool { delegate?.scrollerShouldScrollToTop(scroller) ?? true }
}

@Suite("Refining delegate protocols")
struct RefiningProtocolTests {
  @Test func theRefiningMulticastFansOutInheritedAndOwnMethods() throws {
    let a = PagedListLog("a")
    let b = PagedListLog("b")
    let list = PagedListDelegateMulticast()
    list.add(a)
    list.add(b)
    let delegator = PlainScroller()
    delegator.delegate = list  // a ScrollerDelegate: the whole hierarchy conforms
    delegator.scroll()
    list.list(Scroller(), didSelect: 4)
    #expect(a.heard.withLock { $0 } == ["a scrolled", "a row 4"])
    #expect(b.heard.withLock { $0 } == ["b scrolled", "b row 4"])
    #expect(list.list(Scroller(), titleFor: 1) == "b 1")
  }

  @Test func anInheritedOptionalMethodKeepsItsOptionalMeaning() throws {
    let list = PagedListDelegateMulticast()
    let log = PagedListLog("log")  // does not implement scrollerShouldScrollToTop
    list.add(log)
    let delegator = PlainScroller()
    delegator.delegate = list
    #expect(delegator.scrollsToTop == true)  // nobody implements it: the declared default
    #expect(delegator.scrollsToTop == true)
    #expect(!list.responds(to: \.scrollerShouldScrollToTop))  // learned from the first call
    let topGuard = TopGuard()
    list.add(topGuard)
    #expect(delegator.scrollsToTop == false)
    #expect(list.count(respondingTo: \.scrollerShouldScrollToTop) == 1)
  }
}

// Refining without restating: the parent's macro generated its forwarding, which the
// refining multicast inherits (its methods, handles, C face and stand-in).

final class Transfer: Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
}

struct TransferFailed: Error, Equatable {}

@Delegate(cFace: true)
protocol TransferEvents: AnyObject {
  func transferDidStart(_ transfer: Transfer)
  func transferShouldStart(_ transfer: Transfer) -> Bool
  @Optional @Default(7) func transferPriority(_ transfer: Transfer) -> Int
  func transfer(_ transfer: Transfer, didFailWith message: String) throws
  func transferDidFinish(_ transfer: Transfer) async -> String
  func transfer(_ transfer: Transfer, adjust total: inout Int)
}

@Delegate(cFace: true)
protocol FetchEvents: TransferEvents {
  func download(_ transfer: Transfer, didWrite bytes: Int)
}

/// A grandchild: inherits `FetchEvents`' methods and, through it, `TransferEvents`'.
@Delegate(cFace: true)
protocol ResumableFetchEvents: FetchEvents {
  func downloadShouldResume(_ transfer: Transfer) -> Bool
}

@Delegate(cFace: true)
protocol ProgressEvents: AnyObject {
  func progress(_ transfer: Transfer, didReach fraction: Double)
}

/// A child of two `@Delegate` parents, with no methods of its own.
@Delegate(cFace: true)
protocol UploadEvents: TransferEvents, ProgressEvents {}

/// Records every call; answers `answer` to the questions.
class TransferLog: ResumableFetchEvents, UploadEvents, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock; the rest is immutable.
  let name: String
  let answer: Bool
  let heard = Lock<[String]>([])
  init(_ name: String, answer: Bool = true) {
    self.name = name
    self.answer = answer
  }
  func note(_ text: String) { heard.withLock { $0.append("\(name) \(text)") } }
  var entries: [String] { heard.withLock { $0 } }
  func transferDidStart(_ transfer: Transfer) { note("start \(transfer.id)") }
  func transferShouldStart(_ transfer: Transfer) -> Bool {
    note("should start")
    return answer
  }
  func transfer(_ transfer: Transfer, didFailWith message: String) throws {
    note("failed \(message)")
    if !answer { throw TransferFailed() }
  }
  func transferDidFinish(_ transfer: Transfer) async -> String {
    note("finish")
    return name
  }
  func transfer(_ transfer: Transfer, adjust total: inout Int) {
    note("adjust \(total)")
    total += 1
  }
  func download(_ transfer: Transfer, didWrite bytes: Int) { note("wrote \(bytes)") }
  func downloadShouldResume(_ transfer: Transfer) -> Bool { answer }
  func progress(_ transfer: Transfer, didReach fraction: Double) { note("progress \(fraction)") }
}

/// Implements the optional `transferPriority` (a class of its own: a subclass's method
/// would not replace the protocol's default in its superclass's conformance).
final class PriorityLog: FetchEvents, @unchecked Sendable {
  // @unchecked Sendable: `heard` is a Lock.
  let heard = Lock<[String]>([])
  var entries: [String] { heard.withLock { $0 } }
  func transferDidStart(_ transfer: Transfer) { heard.withLock { $0.append("b start \(transfer.id)") } }
  func transferShouldStart(_ transfer: Transfer) -> Bool { true }
  func transferPriority(_ transfer: Transfer) -> Int { 3 }
  func transfer(_ transfer: Transfer, didFailWith message: String) throws {}
  func transferDidFinish(_ transfer: Transfer) async -> String { "b" }
  func transfer(_ transfer: Transfer, adjust total: inout Int) {
    heard.withLock { $0.append("b adjust \(total)") }
    total += 1
  }
  func download(_ transfer: Transfer, didWrite bytes: Int) {}
}

/// A delegator of the parent protocol only.
final class Transferrer {
  weak var delegate: (any TransferEvents)?
  let transfer = Transfer(1)
  func run() async throws -> (Bool, Int, String?, Int) {
    delegate?.transferDidStart(transfer)
    let go = delegate?.transferShouldStart(transfer) ?? true
    let priority = delegate?.transferPriority(transfer) ?? 0
    try delegate?.transfer(transfer, didFailWith: "disk")
    let finisher = await delegate?.transferDidFinish(transfer)
    var total = 10
    delegate?.transfer(transfer, adjust: &total)
    return (go, priority, finisher, total)
  }
}

@Suite("Refining @Delegate protocols without restating")
struct InheritedForwardingTests {
  @Test func everyInheritedMethodReachesTheDelegates() async throws {
    let a = TransferLog("a")
    let b = PriorityLog()
    let downloads = FetchEventsMulticast()
    downloads.add(a)
    downloads.add(b)
    let delegator = Transferrer()
    delegator.delegate = downloads
    let (go, priority, finisher, total) = try await delegator.run()
    downloads.download(Transfer(2), didWrite: 512)
    #expect(go)
    #expect(priority == 3)
    #expect(finisher == "b")
    #expect(total == 12)
    #expect(
      a.entries == [
        "a start 1", "a should start", "a failed disk", "a finish", "a adjust 10", "a wrote 512",
      ])
    #expect(b.entries.first == "b start 1" && b.entries.contains("b adjust 11"))
    // The description: its own method, then the inherited ones.
    #expect(
      FetchEventsMulticast.delegateProtocol.methods.map(\.swiftName) == [
        "download(_:didWrite:)", "transferDidStart(_:)", "transferShouldStart(_:)",
        "transferPriority(_:)", "transfer(_:didFailWith:)", "transferDidFinish(_:)",
        "transfer(_:adjust:)",
      ])
  }

  @Test func inheritedHandlesSetPoliciesAndAnswerQueries() throws {
    let downloads = FetchEventsMulticast()
    let yes = TransferLog("yes")
    let no = TransferLog("no", answer: false)
    downloads.add(yes)
    downloads.add(no)
    #expect(downloads.transferShouldStart(Transfer(1)) == false)  // the last responder's
    downloads.setPolicy(.reduce(.anyTrue), for: \.transferShouldStart)
    #expect(downloads.transferShouldStart(Transfer(1)) == true)
    downloads.setPolicy(.firstResponder, for: \.transferShouldStart)
    #expect(downloads.transferShouldStart(Transfer(1)) == true)
    #expect(no.entries.filter { $0.hasSuffix("should start") }.count == 2)
    // The optional method: nobody implements it, so the parent's @Default answers.
    #expect(downloads.transferPriority(Transfer(1)) == 7)
    #expect(!downloads.responds(to: \.transferPriority))
    #expect(downloads.responds(to: \.transferDidStart))
    #expect(downloads.count(respondingTo: \.transferShouldStart) == 2)
    // A throwing inherited method under its error policy.
    downloads.setErrorPolicy(.runAll, for: \.transferDidFailWith)
    #expect(throws: (any Error).self) { try downloads.transfer(Transfer(1), didFailWith: "x") }
    #expect(yes.entries.contains("yes failed x"))
  }

  @Test func observersAndMessageSequencesHearInheritedMethods() async throws {
    let downloads = FetchEventsMulticast()
    let heard = Lock<[Int]>([])
    let watching = downloads.observe(\.transferDidStart) { transfer in
      heard.withLock { $0.append(transfer.id) }
    }
    let adjusted = Lock<[Int]>([])
    let watchingInout = downloads.observe(\.transferAdjust) { _, total in
      adjusted.withLock { $0.append(total.value) }
    }
    let a = TransferLog("a")
    downloads.add(a)
    downloads.transferDidStart(Transfer(5))
    var total = 1
    downloads.transfer(Transfer(5), adjust: &total)
    #expect(heard.withLock { $0 } == [5])
    #expect(adjusted.withLock { $0 } == [2])
    watching.cancel()
    watchingInout.cancel()
    let sequence = downloads.messages(\.transferDidStart)
    downloads.transferDidStart(Transfer(6))
    for await transfer in sequence {
      #expect(transfer.id == 6)
      break
    }
    let answer = await downloads.aggregate(\.transferShouldStart, Transfer(7), reducer: .allTrue)
    #expect(answer)
    #expect(a.entries.contains("a should start"))
  }

  @Test func aQueuedMemberReceivesInheritedMethodsOnItsQueue() throws {
    let downloads = FetchEventsMulticast()
    let queue = DispatchQueue(label: "transfers")
    let log = TransferLog("q")
    downloads.add(log, queue: queue)
    downloads.transferDidStart(Transfer(3))
    #expect(downloads.transferShouldStart(Transfer(3)))  // waited for on its queue
    queue.sync {}
    #expect(log.entries == ["q start 3", "q should start"])
  }

  @Test func cCallersReachInheritedMethodsThroughTheCFace() throws {
    let downloads = FetchEventsMulticast()
    let log = TransferLog("c", answer: true)
    downloads.add(log)
    let transfer = Transfer(9)
    let shouldStart = try downloads.runtime.imp(for: \.transferShouldStart)
    let object = UnsafeMutableRawPointer(try downloads.runtime.rawValue())
    typealias ShouldStart = @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> Bool
    let answer = withExtendedLifetime(transfer) {
      unsafeBitCast(shouldStart.rawValue, to: ShouldStart.self)(
        object, UnsafeMutableRawPointer(downloads.runtime.selector(for: \.transferShouldStart).rawValue),
        Unmanaged.passUnretained(transfer).toOpaque())
    }
    #expect(answer)
    let wrote = try downloads.runtime.imp(for: \.downloadDidWrite)
    typealias DidWrite = @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int
    ) -> Void
    withExtendedLifetime(transfer) {
      unsafeBitCast(wrote.rawValue, to: DidWrite.self)(
        object, UnsafeMutableRawPointer(downloads.runtime.selector(for: \.downloadDidWrite).rawValue),
        Unmanaged.passUnretained(transfer).toOpaque(), 64)
    }
    #expect(log.entries == ["c should start", "c wrote 64"])
  }

  @Test func aDoubleBehindAStandInReceivesInheritedMethods() async throws {
    let double = try SwiftDelegateDouble(FetchEventsMulticast.self)
    double.stub(\.transferShouldStart) { _ in true }
    let delegator = Transferrer()
    let standIn = double.delegate
    delegator.delegate = standIn
    let (go, priority, _, total) = try await delegator.run()
    #expect(go)
    #expect(priority == 0)  // not stubbed: the double answers zero, as for its own methods
    #expect(total == 10)
    double.verify(\.transferDidStart, called: .once) { transfer in transfer.id == 1 }
    double.verify(\.transferShouldStart, called: .once)
    standIn.download(Transfer(4), didWrite: 8)
    double.verify(\.downloadDidWrite, called: .once) { _, bytes in bytes == 8 }
    // As a member of a multicast, the stand-in answers the inherited method.
    let downloads = FetchEventsMulticast()
    downloads.add(standIn)
    #expect(downloads.transferShouldStart(Transfer(2)))
    double.verify(\.transferShouldStart, called: .exactly(2))
  }

  @Test func aGrandchildInheritsThroughTwoLevels() async throws {
    let resumable = ResumableFetchEventsMulticast()
    let a = TransferLog("a")
    let no = TransferLog("no", answer: false)
    resumable.add(a)
    resumable.add(no)
    resumable.setPolicy(.reduce(.allTrue), for: \.transferShouldStart)
    resumable.setPolicy(.reduce(.anyTrue), for: \.downloadShouldResume)
    let delegator = Transferrer()
    delegator.delegate = resumable
    #expect(delegator.delegate?.transferShouldStart(Transfer(1)) == false)
    resumable.download(Transfer(1), didWrite: 3)
    #expect(resumable.downloadShouldResume(Transfer(1)))
    #expect(await resumable.transferDidFinish(Transfer(1)) == "no")
    #expect(a.entries == ["a should start", "a wrote 3", "a finish"])
    let heard = Lock<Int>(0)
    let watching = resumable.observe(\.downloadDidWrite) { _, bytes in heard.withLock { $0 += bytes } }
    resumable.download(Transfer(1), didWrite: 5)
    watching.cancel()
    #expect(heard.withLock { $0 } == 5)
    #expect(
      ResumableFetchEventsMulticast.delegateProtocol.methods.map(\.swiftName).prefix(3) == [
        "downloadShouldResume(_:)", "download(_:didWrite:)", "transferDidStart(_:)",
      ])
    // Through a stand-in too.
    let double = try SwiftDelegateDouble(ResumableFetchEventsMulticast.self)
    double.delegate.transferDidStart(Transfer(8))
    double.delegate.download(Transfer(8), didWrite: 1)
    double.verify(\.transferDidStart, called: .once)
    double.verify(\.downloadDidWrite, called: .once)
  }

  @Test func aChildOfTwoParentsInheritsBoth() throws {
    let uploads = UploadEventsMulticast()
    let a = TransferLog("a")
    uploads.add(a)
    uploads.setPolicy(.reduce(.allTrue), for: \.transferShouldStart)
    let progressDelegator: any ProgressEvents = uploads
    progressDelegator.progress(Transfer(1), didReach: 0.5)
    uploads.transferDidStart(Transfer(2))
    #expect(uploads.transferShouldStart(Transfer(2)))
    #expect(a.entries == ["a progress 0.5", "a start 2", "a should start"])
    #expect(uploads.responds(to: \.progressDidReach))
    #expect(UploadEventsMulticast.delegateProtocol.methods.count == 7)
    let observed = Lock<[Double]>([])
    let watching = uploads.observe(\.progressDidReach) { _, f in observed.withLock { $0.append(f) } }
    uploads.progress(Transfer(1), didReach: 1)
    watching.cancel()
    #expect(observed.withLock { $0 } == [1])
  }
}
