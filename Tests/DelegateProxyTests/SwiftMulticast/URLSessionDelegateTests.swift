import DelegateProxy
import Dispatch
import Foundation
import MessageRuntime
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// URLSession's delegates through a multicast, against a real HTTP server on loopback.
// URLSessionDelegate refines NSObjectProtocol, so its conformers are NSObject subclasses:
// the multicast is built with `object: NSObject.self` and the session takes `object`.

@Delegate(for: URLSessionDataDelegate.self, object: NSObject.self)
protocol DownloadEvents: URLSessionDataDelegate {
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void)
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)
}

/// Collects a download's bytes and its end; signals `completed` and `invalidated`.
// @unchecked Sendable: its state is in Locks; the semaphores are thread-safe.
final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let bytes = Lock<[UInt8]>([])
  let receives = Lock(0)
  let completions = Lock<[String]>([])
  let invalidations = Lock(0)
  let completed = DispatchSemaphore(value: 0)
  let invalidated = DispatchSemaphore(value: 0)

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    bytes.withLock { $0 += data }
    receives.withLock { $0 += 1 }
  }
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    completions.withLock { $0.append(error.map { "\($0)" } ?? "ok") }
    completed.signal()
  }
  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    invalidations.withLock { $0 += 1 }
    invalidated.signal()
  }
}

/// A collector that also answers the response and records its status code.
// @unchecked Sendable: as BodyCollector; `statuses` is a Lock.
final class ResponseInspector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let statuses = Lock<[Int]>([])
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    statuses.withLock { $0.append((response as? HTTPURLResponse)?.statusCode ?? -1) }
    completionHandler(.allow)
  }
}

/// Answers every response with `.cancel`.
// @unchecked Sendable: `answered` is a Lock.
final class ResponseCanceller: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let answered = Lock(0)
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    answered.withLock { $0 += 1 }
    completionHandler(.cancel)
  }
}

/// Deterministic bytes, not all alike, so a reordered or repeated chunk would show.
func servedBody(count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
}

@Suite("URLSession's delegates through a multicast")
struct URLSessionDelegateTests {
  // Hang guards only (the download takes well under a second): a failed wait is reported.
  static var patience: DispatchTime { .now() + .seconds(60) }

  @Test func twoDelegatesEachReceiveTheWholeBodyAndTheCompletion() throws {
    let body = servedBody(count: 6 * 1024 + 123)
    let server = try LoopbackHTTPServer(body: body, chunkSize: 1024)
    defer { server.stop() }
    let first = BodyCollector()
    let second = BodyCollector()
    let inspector = ResponseInspector()
    weak var weakEvents: DownloadEventsMulticast?
    weak var weakObject: DownloadEventsMulticast.Object?
    weak var weakSession: URLSession?
    do {
      let events = DownloadEventsMulticast()
      events.add(first)
      events.add(second)
      events.add(inspector)
      let session = URLSession(
        configuration: .ephemeral, delegate: events.object, delegateQueue: nil)
      weakEvents = events
      weakObject = events.object
      weakSession = session
      session.dataTask(with: URL(string: server.url("/body"))!).resume()
      try #require(first.completed.wait(timeout: Self.patience) == .success)
      try #require(second.completed.wait(timeout: Self.patience) == .success)
      // The session keeps its delegate until it is invalidated: invalidate, and both
      // members hear it (a restated method).
      session.finishTasksAndInvalidate()
      try #require(first.invalidated.wait(timeout: Self.patience) == .success)
      try #require(second.invalidated.wait(timeout: Self.patience) == .success)
      #expect(server.requests.withLock { $0 } == ["GET /body HTTP/1.1"])
    }
    // Every byte, in order, reached both delegates, over several didReceive calls.
    #expect(first.bytes.withLock { $0 } == body)
    #expect(second.bytes.withLock { $0 } == body)
    #expect(first.receives.withLock { $0 } >= 2)
    #expect(first.receives.withLock { $0 } == second.receives.withLock { $0 })
    #expect(first.completions.withLock { $0 } == ["ok"])
    #expect(second.completions.withLock { $0 } == ["ok"])
    #expect(first.invalidations.withLock { $0 } == 1)
    // The response reached the member that answers it.
    #expect(inspector.statuses.withLock { $0 } == [200])
    // Nothing leaks: the session lets go of the object, and ends, after invalidation, and
    // the multicast goes with the test's reference (its object holds it weakly) — all on
    // the session's queues, a little after didBecomeInvalidWithError returns, so wait for
    // that (a hang guard: at most a minute).
    for _ in 0..<6000 where weakSession != nil || weakObject != nil || weakEvents != nil {
      usleep(10_000)
    }
    #expect(weakEvents == nil)
    #expect(weakObject == nil)
    #expect(weakSession == nil)
  }

  @Test func onLinuxTheResponseDispositionIsIgnored() throws {
    // swift-corelibs-foundation hands the delegate a completion handler that ignores its
    // argument: a member answering `.cancel` (and the other member's default `.allow`)
    // change nothing — the whole body arrives. What the members answer cannot matter.
    let body = servedBody(count: 3000)
    let server = try LoopbackHTTPServer(body: body, chunkSize: 1000)
    defer { server.stop() }
    let canceller = ResponseCanceller()
    let collector = BodyCollector()
    let events = DownloadEventsMulticast()
    events.add(canceller)
    events.add(collector)
    let session = URLSession(configuration: .ephemeral, delegate: events.object, delegateQueue: nil)
    session.dataTask(with: URL(string: server.url("/cancelled"))!).resume()
    try #require(collector.completed.wait(timeout: Self.patience) == .success)
    session.finishTasksAndInvalidate()
    try #require(collector.invalidated.wait(timeout: Self.patience) == .success)
    #expect(canceller.answered.withLock { $0 } == 1)
    #expect(collector.bytes.withLock { $0 } == body)
    #expect(collector.completions.withLock { $0 } == ["ok"])
  }

  @Test func aRestatedCompletionHandlerMethodCallsTheHandlerOncePerMember() throws {
    // Every member gets the delegator's completion handler. A member that does not
    // implement the method runs the protocol's default, which calls the handler itself
    // (`.allow`), so with two members it is called twice. swift-corelibs-foundation ignores
    // that handler's disposition (it neither waits for nor reads it), so a download goes on
    // whatever the members do; elsewhere a handler called twice is a misuse. Restate a
    // completion-handler method only for exactly one member that calls it, or leave it out:
    // the protocol's default then answers once.
    let events = DownloadEventsMulticast()
    let first = BodyCollector()
    let second = BodyCollector()
    events.add(first)
    events.add(second)
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/")!)
    let response = URLResponse(
      url: URL(string: "http://127.0.0.1:9/")!, mimeType: nil, expectedContentLength: 0,
      textEncodingName: nil)
    let answers = Lock<[URLSession.ResponseDisposition]>([])
    events.object.urlSession(session, dataTask: task, didReceive: response) { disposition in
      answers.withLock { $0.append(disposition) }
    }
    #expect(answers.withLock { $0 } == [.allow, .allow])
    // The policy does not change that: the method returns Void, so it reaches every member.
    events.setPolicy(.firstResponder, for: \.urlSessionDataTaskDidReceiveCompletionHandler)
    answers.withLock { $0.removeAll() }
    events.object.urlSession(session, dataTask: task, didReceive: response) { disposition in
      answers.withLock { $0.append(disposition) }
    }
    #expect(answers.withLock { $0 } == [.allow, .allow])
  }
}
