import DelegateProxy
import DelegateProxyTestSupport
import Dispatch
import MessageRuntime
import Synchronization
import Testing

// `async` requirements: delegates awaited in order or concurrently, answers folded under
// the return policies, cancellation, `async throws`, actors and `@MainActor` delegates.

struct LoadFailure: Error, Equatable {
  let who: String
}

@Delegate(cFace: true)
protocol LoaderDelegate: AnyObject {
  func loaderWillStart(_ id: Int) async
  func loaderShouldLoad(_ id: Int) async -> Bool
  func loaderTitle(_ id: Int) async -> String?
  func loaderFetch(_ id: Int) async throws -> Int
}

/// Two (or more) delegates meeting: each says it started, then waits — suspending, with
/// a time limit so that a failure fails rather than hangs — until all have started.
final class Rendezvous: Sendable {
  private let started = Atomic<Int>(0)
  let expected: Int
  init(expected: Int) { self.expected = expected }

  /// Whether every party started before the time limit.
  func meet(limit: Duration) async -> Bool {
    started.add(1, ordering: .sequentiallyConsistent)
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while started.load(ordering: .sequentiallyConsistent) < expected {
      guard clock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }
}

/// A delegate that logs the start and end of each call, and answers as told; it may wait
/// for a rendezvous, or throw.
final class LoaderListener: LoaderDelegate, Sendable {
  let name: String
  let log: CallLog
  let answer: Bool
  let title: String?
  let fails: Bool
  let rendezvous: Rendezvous?
  let limit: Duration
  let delay: Duration

  init(
    _ name: String, _ log: CallLog, answer: Bool = true, title: String? = nil, fails: Bool = false,
    rendezvous: Rendezvous? = nil, limit: Duration = .seconds(10), delay: Duration = .zero
  ) {
    self.name = name
    self.log = log
    self.answer = answer
    self.title = title
    self.fails = fails
    self.rendezvous = rendezvous
    self.limit = limit
    self.delay = delay
  }

  private func work() async -> Bool {
    log.append("\(name) start")
    var met = true
    if let rendezvous { met = await rendezvous.meet(limit: limit) }
    if delay > .zero { try? await Task.sleep(for: delay) }
    await Task.yield()
    log.append("\(name) end")
    return met
  }

  func loaderWillStart(_ id: Int) async { _ = await work() }
  func loaderShouldLoad(_ id: Int) async -> Bool { await work() && answer }
  func loaderTitle(_ id: Int) async -> String? {
    _ = await work()
    return title.map { "\($0) \(id)" }
  }
  func loaderFetch(_ id: Int) async throws -> Int {
    _ = await work()
    if fails { throw LoadFailure(who: name) }
    return id * 10 + name.count
  }
}

/// Cancels the task that calls it, then answers.
final class CancellingLoader: LoaderDelegate, Sendable {
  let log: CallLog
  init(_ log: CallLog) { self.log = log }
  private func cancel() {
    log.append("cancel")
    withUnsafeCurrentTask { $0?.cancel() }
  }
  func loaderWillStart(_ id: Int) async { cancel() }
  func loaderShouldLoad(_ id: Int) async -> Bool {
    cancel()
    return true
  }
  func loaderTitle(_ id: Int) async -> String? { nil }
  func loaderFetch(_ id: Int) async throws -> Int {
    cancel()
    return 1
  }
}

/// Waits until its task is cancelled (or a long time), then says whether it was.
final class PatientLoader: LoaderDelegate, Sendable {
  let log: CallLog
  init(_ log: CallLog) { self.log = log }
  func loaderWillStart(_ id: Int) async {}
  func loaderShouldLoad(_ id: Int) async -> Bool { true }
  func loaderTitle(_ id: Int) async -> String? { nil }
  func loaderFetch(_ id: Int) async throws -> Int {
    log.append("patient start")
    do {
      // Until cancelled: no wall-clock bound a loaded machine could outlast (the test's
      // time limit catches a cancellation that never comes).
      try await Task.sleep(for: .seconds(3600))
      log.append("patient not cancelled")
    } catch {
      log.append("patient cancelled")
    }
    return 0
  }
}

/// An actor conforming to the protocol: its async methods satisfy the requirements, run
/// isolated to it.
actor CountingLoader: LoaderDelegate {
  private(set) var calls = 0
  let title: String
  init(title: String) { self.title = title }
  func loaderWillStart(_ id: Int) async { calls += 1 }
  func loaderShouldLoad(_ id: Int) async -> Bool {
    calls += 1
    return id > 0
  }
  func loaderTitle(_ id: Int) async -> String? {
    calls += 1
    return "\(title) \(id)"
  }
  func loaderFetch(_ id: Int) async throws -> Int {
    calls += 1
    if id < 0 { throw LoadFailure(who: title) }
    return calls
  }
}

/// A main-actor protocol with async methods: its delegates are main-actor classes.
@MainActor
@Delegate(cFace: true)
protocol PanelDelegate: AnyObject {
  func panelWillClose(_ id: Int) async -> Bool
  func panelTitle(_ id: Int) async throws -> String
  func panelValidate(_ id: Int) throws -> Bool
}

@MainActor
final class PanelListener: PanelDelegate {
  let name: String
  let fails: Bool
  var closed: [Int] = []
  init(_ name: String, fails: Bool = false) {
    self.name = name
    self.fails = fails
  }
  func panelWillClose(_ id: Int) async -> Bool {
    MainActor.assertIsolated()
    closed.append(id)
    await Task.yield()
    return id != 0
  }
  func panelTitle(_ id: Int) async throws -> String {
    MainActor.assertIsolated()
    if fails { throw LoadFailure(who: name) }
    return "\(name) \(id)"
  }
  func panelValidate(_ id: Int) throws -> Bool {
    MainActor.assertIsolated()
    if fails { throw LoadFailure(who: name) }
    return id > 0
  }
}

/// Not Sendable: an async method of a nonisolated protocol passes it along on the caller's
/// task, each delegate in turn.
final class Page {
  var text: String
  init(_ text: String) { self.text = text }
}

@Delegate(cFace: true)
protocol PageDelegate: AnyObject {
  func pageDidLoad(_ page: Page) async -> Page?
}

final class PageEditor: PageDelegate {
  let suffix: String
  init(_ suffix: String) { self.suffix = suffix }
  func pageDidLoad(_ page: Page) async -> Page? {
    await Task.yield()
    page.text += suffix
    return page
  }
}

@Suite("async requirements")
struct AsyncDelegateTests {
  @Test func delegatesAreAwaitedInOrderByDefault() async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let a = LoaderListener("a", log, delay: .milliseconds(5))
    let b = LoaderListener("b", log)
    proxy.add(a)
    proxy.add(b)
    #expect(proxy.concurrency(for: \.loaderWillStart) == .sequential)
    await proxy.loaderWillStart(1)
    #expect(log.entries == ["a start", "a end", "b start", "b end"])
    withExtendedLifetime((a, b)) {}
  }

  @Test func concurrentDelegatesRunAtOnce() async throws {
    // Each delegate waits for the other to have started: only concurrent awaiting lets
    // both meet (sequentially, the first would wait for the second until its limit).
    let log = CallLog()
    let proxy = LoaderDelegateMulticast(policy: .reduce(.allTrue))
    let meeting = Rendezvous(expected: 2)
    let a = LoaderListener("a", log, rendezvous: meeting)
    let b = LoaderListener("b", log, rendezvous: meeting)
    proxy.add(a)
    proxy.add(b)
    proxy.setConcurrency(.concurrent, for: \.loaderShouldLoad)
    #expect(proxy.concurrency(for: \.loaderShouldLoad) == .concurrent)
    #expect(await proxy.loaderShouldLoad(1) == true)
    #expect(log.entries.prefix(2).sorted() == ["a start", "b start"])

    // The same delegates awaited in order do not meet: the first gives up at its limit.
    let sequential = LoaderDelegateMulticast(policy: .reduce(.allTrue))
    let lonely = Rendezvous(expected: 2)
    let c = LoaderListener("c", log, rendezvous: lonely, limit: .milliseconds(50))
    let d = LoaderListener("d", log, rendezvous: lonely, limit: .milliseconds(50))
    sequential.add(c)
    sequential.add(d)
    #expect(await sequential.loaderShouldLoad(1) == false)
    withExtendedLifetime((a, b, c, d)) {}
  }

  @Test(arguments: [DelegateConcurrency.sequential, .concurrent])
  func answersFoldUnderEachPolicyInDelegateOrder(concurrency: DelegateConcurrency) async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    // The first delegate answers last when awaited concurrently: the fold keeps the order.
    let slow = LoaderListener("slow", log, answer: false, title: "slow", delay: .milliseconds(20))
    let untitled = LoaderListener("untitled", log, answer: true)
    let fast = LoaderListener("fast", log, answer: true, title: "fast")
    for l in [slow, untitled, fast] { proxy.add(l) }
    proxy.setConcurrency(concurrency, for: \.loaderShouldLoad)
    proxy.setConcurrency(concurrency, for: \.loaderTitle)
    proxy.setConcurrency(concurrency, for: \.loaderFetch)

    #expect(await proxy.loaderShouldLoad(1) == true)  // last responder
    #expect(await proxy.loaderTitle(2) == "fast 2")
    #expect(try await proxy.loaderFetch(3) == 34)  // "fast": 3 * 10 + 4
    proxy.setPolicy(.reduce(.allTrue), for: \.loaderShouldLoad)
    #expect(await proxy.loaderShouldLoad(1) == false)
    proxy.setPolicy(.reduce(.anyTrue), for: \.loaderShouldLoad)
    #expect(await proxy.loaderShouldLoad(1) == true)
    proxy.setPolicy(.reduce(.firstNonNil), for: \.loaderTitle)
    #expect(await proxy.loaderTitle(5) == "slow 5")

    // First responder: only the first delegate is called, whatever the concurrency.
    log.clear()
    proxy.setPolicy(.firstResponder, for: \.loaderShouldLoad)
    #expect(await proxy.loaderShouldLoad(1) == false)
    #expect(log.entries == ["slow start", "slow end"])

    // Nobody answers: the result type's empty value.
    proxy.removeAll()
    #expect(await proxy.loaderShouldLoad(1) == false)
    #expect(await proxy.loaderTitle(1) == nil)
    #expect(try await proxy.loaderFetch(1) == 0)
    withExtendedLifetime((slow, untitled, fast)) {}
  }

  @Test func aCancelledTaskCallsNoFurtherDelegate() async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let canceller = CancellingLoader(log)
    let later = LoaderListener("later", log, answer: false)
    proxy.add(canceller)
    proxy.add(later)

    // A non-throwing method answers what was answered before the cancellation.
    let answered = await Task { await proxy.loaderShouldLoad(1) }.value
    #expect(answered == true)
    await Task { await proxy.loaderWillStart(1) }.value
    #expect(log.entries == ["cancel", "cancel"])

    // A throwing one throws CancellationError.
    await #expect(throws: CancellationError.self) {
      try await Task { try await proxy.loaderFetch(1) }.value
    }
    #expect(log.entries == ["cancel", "cancel", "cancel"])

    // A task cancelled before the call calls nobody.
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await proxy.loaderTitle(1)
    }
    #expect(await task.value == nil)
    #expect(log.entries.count == 3)
    withExtendedLifetime((canceller, later)) {}
  }

  @Test(.timeLimit(.minutes(10)))
  func underStopAtFirstAConcurrentErrorCancelsTheOtherDelegates() async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let patient = PatientLoader(log)
    let failing = LoaderListener("failing", log, fails: true)
    proxy.add(patient)
    proxy.add(failing)
    proxy.setConcurrency(.concurrent, for: \.loaderFetch)
    await #expect(throws: LoadFailure(who: "failing")) { try await proxy.loaderFetch(1) }
    #expect(log.entries.contains("patient cancelled"))
    #expect(!log.entries.contains("patient not cancelled"))
    withExtendedLifetime((patient, failing)) {}
  }

  @Test(arguments: [DelegateConcurrency.sequential, .concurrent])
  func asyncThrowsFollowsTheErrorPolicies(concurrency: DelegateConcurrency) async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let a = LoaderListener("a", log, fails: true)
    let b = LoaderListener("bb", log)
    let c = LoaderListener("c", log, fails: true)
    for l in [a, b, c] { proxy.add(l) }
    proxy.setConcurrency(concurrency, for: \.loaderFetch)
    if concurrency == .sequential {
      await #expect(throws: LoadFailure(who: "a")) { try await proxy.loaderFetch(1) }
      #expect(log.entries == ["a start", "a end"])
    }
    proxy.setErrorPolicy(.runAll, for: \.loaderFetch)
    let error = await #expect(throws: MemberErrors.self) { try await proxy.loaderFetch(1) }
    #expect(error?.errors.map { ($0 as? LoadFailure)?.who } == ["a", "c"])
    proxy.remove(a)
    proxy.remove(c)
    #expect(try await proxy.loaderFetch(2) == 22)
    withExtendedLifetime((a, b, c)) {}
  }

  @Test func actorsAreDelegates() async throws {
    let proxy = LoaderDelegateMulticast()
    let one = CountingLoader(title: "one")
    let two = CountingLoader(title: "two")
    proxy.add(one)
    proxy.add(two)
    #expect(await proxy.loaderShouldLoad(1) == true)
    #expect(await proxy.loaderTitle(3) == "two 3")
    proxy.setPolicy(.reduce(.firstNonNil), for: \.loaderTitle)
    #expect(await proxy.loaderTitle(3) == "one 3")
    proxy.setConcurrency(.concurrent, for: \.loaderWillStart)
    await proxy.loaderWillStart(0)
    #expect(await one.calls == 4)
    #expect(await two.calls == 4)
    await #expect(throws: LoadFailure(who: "one")) { try await proxy.loaderFetch(-1) }
    #expect(await two.calls == 4)
  }

  @MainActor
  @Test func mainActorDelegatesAreAwaitedOnTheMainActor() async throws {
    let proxy = PanelDelegateMulticast()
    proxy.setPolicy(.reduce(.allTrue), for: \.panelWillClose)
    let left = PanelListener("left")
    let right = PanelListener("right")
    proxy.add(left)
    proxy.add(right)
    #expect(await proxy.panelWillClose(4) == true)
    #expect(await proxy.panelWillClose(0) == false)
    #expect(left.closed == [4, 0])
    #expect(right.closed == [4, 0])
    #expect(try await proxy.panelTitle(2) == "right 2")
    let failing = PanelListener("failing", fails: true)
    proxy.add(failing)
    await #expect(throws: LoadFailure(who: "failing")) { try await proxy.panelTitle(2) }
    // A synchronous throwing method of a main-actor protocol runs on the main actor too.
    #expect(throws: LoadFailure(who: "failing")) { try proxy.panelValidate(1) }
    proxy.remove(failing)
    #expect(try proxy.panelValidate(1) == true)
    proxy.add(failing)
    proxy.setConcurrency(.concurrent, for: \.panelWillClose)
    #expect(await proxy.panelWillClose(5) == true)
    #expect(failing.closed == [5])
  }

  @Test func goneDelegatesAreSkippedAndNobodyAnsweringAnswersTheEmptyValue() async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let kept = LoaderListener("kept", log, title: "kept")
    proxy.add(kept)
    do {
      let gone = LoaderListener("gone", log, title: "gone")
      proxy.add(gone)
      #expect(await proxy.loaderTitle(1) == "gone 1")
    }
    #expect(await proxy.loaderTitle(2) == "kept 2")
    #expect(proxy.count == 1)
    proxy.remove(kept)
    #expect(await proxy.loaderTitle(3) == nil)
    #expect(try await proxy.loaderFetch(3) == 0)
    #expect(
      log.entries == ["kept start", "kept end", "gone start", "gone end", "kept start", "kept end"])
  }

  @Test func aStandInForwardsAsyncAndThrowingMethodsToARuntimeObject() async throws {
    // The stand-in sends each call as a runtime message, synchronously, and never throws.
    let proto = try LoaderDelegateMulticast.delegateProtocol.runtimeProtocol()
    let target = RuntimeObject()
    let log = CallLog()
    for (name, answer) in [("loaderShouldLoad:", 1), ("loaderFetch:", 40)] {
      let selector = Selector(name)
      try target.setMethod(selector, signature: proto.requirement(for: selector)!.signature) {
        invocation in
        let id = (try? invocation.argumentBytes(at: 0)).map { bytes in
          bytes.withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
        }
        log.append("\(name) \(id ?? -1)")
        if name == "loaderShouldLoad:" {
          try? invocation.setReturnValue(true)
        } else {
          try? invocation.setReturnValue(answer + (id ?? 0))
        }
      }
    }
    let standIn = LoaderDelegateMulticast.standIn(for: target)
    #expect(await standIn.loaderShouldLoad(5) == true)
    #expect(try await standIn.loaderFetch(2) == 42)
    #expect(log.entries == ["loaderShouldLoad: 5", "loaderFetch: 2"])
    withExtendedLifetime(target) {}
  }

  @Test func aNonSendableArgumentPassesFromDelegateToDelegate() async throws {
    let proxy = PageDelegateMulticast()
    let first = PageEditor(" one")
    let second = PageEditor(" two")
    proxy.add(first)
    proxy.add(second)
    let page = Page("page")
    #expect(await proxy.pageDidLoad(page) === page)
    #expect(page.text == "page one two")
    withExtendedLifetime((first, second)) {}
  }

  @Test func queuedDelegatesAndObserversOfAsyncMethods() async throws {
    let log = CallLog()
    let proxy = LoaderDelegateMulticast()
    let queued = LoaderListener("queued", log, title: "queued")
    proxy.add(queued, queue: DispatchQueue(label: "loader.queue"))
    let seen = CallLog()
    let before = proxy.observe(\.loaderTitle, .before) { id in seen.append("before \(id)") }
    let after = proxy.observe(\.loaderTitle) { id in seen.append("after \(id)") }
    #expect(await proxy.loaderTitle(8) == "queued 8")
    #expect(seen.entries == ["before 8", "after 8"])
    #expect(proxy.responds(to: \.loaderFetch))
    #expect(proxy.count(respondingTo: \.loaderFetch) == 1)
    withExtendedLifetime((queued, before, after)) {}
  }
}
