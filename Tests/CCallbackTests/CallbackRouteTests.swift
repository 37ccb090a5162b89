import DelegateProxy
import DelegateProxyTestSupport
import MessageRuntime
import Testing

/// An adapter whose receiver is a MulticastProxy answers what a send to the proxy answers,
/// under every policy, on the proxy's C route and on its general path.
@Suite("Callback adapter → multicast proxy") struct CallbackRouteTests {
  static let vote = Message<Int32, Int32>("vote:")
  static let scale = Message<Double, Double, Int>("scale:by:")

  /// Handlers answering `answers[i]` for vote: and `x * by + i` for scale:by:.
  func handlers(_ answers: [Int32], log: CallLog) throws -> [RuntimeObject] {
    try answers.enumerated().map { i, answer in
      let h = RuntimeObject()
      try h.setMethod(Self.vote) { _, n in
        log.append("h\(i)")
        return answer == -1 ? n : answer
      }
      try h.setMethod(Self.scale) { _, x, by in x * Double(by) + Double(i) }
      return h
    }
  }

  typealias Vote = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32

  @Test(arguments: [
    (ReturnPolicy<ReturnValue>.lastResponder, Int32(0), ["h0", "h1", "h2"]),
    (.firstResponder, 3, ["h0"]),
    (.reduce(.allTrue), 0, ["h0", "h1", "h2"]),
    (.reduce(.anyTrue), 1, ["h0", "h1", "h2"]),
  ])
  func policies(policy: ReturnPolicy<ReturnValue>, expected: Int32, calls: [String]) throws {
    let log = CallLog()
    let hs = try handlers([3, 5, 0], log: log)
    let proxy = try MulticastProxy(delegates: hs, policy: policy)
    #expect(proxy.fastPath(for: Self.vote.selector) == .registers)
    let adapter = try CallbackAdapter(for: Self.vote, context: .first, receiver: proxy)
    #expect(adapter.path == .registers)
    #expect(try adapter.function(as: Vote.self)(adapter.context, 9) == expected)
    #expect(log.entries == calls)
    #expect(try Self.vote.send(to: proxy, 9) == expected)
  }

  @Test func firstNonNilAndEmptyRules() throws {
    let log = CallLog()
    let hs = try handlers([0, 7, 4], log: log)
    let proxy = try MulticastProxy(delegates: hs, policy: .reduce(.firstNonNil))
    let adapter = try CallbackAdapter(for: Self.vote, context: .last, receiver: proxy)
    typealias Last = @convention(c) (Int32, UnsafeMutableRawPointer?) -> Int32
    #expect(try adapter.function(as: Last.self)(1, adapter.context) == 7)
    // A removed handler is skipped at once.
    proxy.remove(hs[1])
    #expect(try adapter.function(as: Last.self)(1, adapter.context) == 4)
  }

  /// The entry caches the route it found; a new route (a policy change) is seen at once.
  @Test func aPolicyChangeIsSeenByTheNextCall() throws {
    let hs = try handlers([3, 0], log: CallLog())
    let proxy = try MulticastProxy(delegates: hs)
    let adapter = try CallbackAdapter(for: Self.vote, context: .first, receiver: proxy)
    let vote = try adapter.function(as: Vote.self)
    #expect(vote(adapter.context, 1) == 0)  // last responder
    proxy.setPolicy(.firstResponder, for: Self.vote.selector)
    #expect(vote(adapter.context, 1) == 3)
    proxy.setPolicy(.reduce(.allTrue), for: Self.vote.selector)
    #expect(vote(adapter.context, 1) == 0)
    proxy.setPolicy(nil, for: Self.vote.selector)
    #expect(vote(adapter.context, 1) == 0)
    let extra = try handlers([7], log: CallLog())
    try proxy.add(extra[0])
    #expect(vote(adapter.context, 1) == 7)
    withExtendedLifetime(hs + extra) {}
  }

  @Test func floatingPointMessagesThroughARoute() throws {
    let hs = try handlers([0, 0], log: CallLog())
    let proxy = try MulticastProxy(delegates: hs)
    #expect(proxy.fastPath(for: Self.scale.selector) == .registers)
    let adapter = try CallbackAdapter(for: Self.scale, context: .argument(1), receiver: proxy)
    #expect(adapter.path == .registers)
    typealias F = @convention(c) (Double, UnsafeMutableRawPointer?, Int) -> Double
    #expect(try adapter.function(as: F.self)(1.5, adapter.context, 4) == 7)  // last: 1.5 × 4 + 1
  }

  @Test func theGeneralPathAnswersWhenTheRouteGoes() throws {
    let log = CallLog()
    let hs = try handlers([3, 5], log: log)
    let proxy = try MulticastProxy(delegates: hs)
    let adapter = try CallbackAdapter(for: Self.vote, context: .first, receiver: proxy)
    let seen = CallLog()
    let observation = proxy.observe(Self.vote) { n in seen.append("observed \(n)") }
    #expect(proxy.fastPath(for: Self.vote.selector) == nil)  // forwardInvocation now
    #expect(try adapter.function(as: Vote.self)(adapter.context, 2) == 5)
    #expect(seen.entries == ["observed 2"])
    observation.cancel()
    #expect(proxy.fastPath(for: Self.vote.selector) == .registers)
    #expect(try adapter.function(as: Vote.self)(adapter.context, 2) == 5)
    #expect(log.entries == ["h0", "h1", "h0", "h1"])
  }

  /// Delegates that go away are skipped by the entry's loop, and when none is left the
  /// route's fallback (the proxy's general path, silent when empty) answers.
  @Test func goneDelegatesAreSkippedAndAnEmptyProxyFallsBack() throws {
    let log = CallLog()
    var keep: RuntimeObject?
    let proxy: MulticastProxy
    do {
      let hs = try handlers([3, 5, 7], log: log)
      keep = hs[0]
      proxy = try MulticastProxy(delegates: hs, options: .silentWhenEmpty)
    }
    let adapter = try CallbackAdapter(for: Self.vote, context: .first, receiver: proxy)
    #expect(adapter.path == .registers)
    let vote = try adapter.function(as: Vote.self)
    let first = vote(adapter.context, 1)
    #expect(first == 3 || first == 0)  // a member found dead mid-call may answer 0 once
    #expect(vote(adapter.context, 1) == 3)
    keep = nil
    #expect(vote(adapter.context, 1) == 0)
    #expect(vote(adapter.context, 1) == 0)
    #expect(log.entries.allSatisfy { $0 == "h0" })
    #expect(log.entries.count >= 2)
    withExtendedLifetime(keep) {}
  }

  /// Two adapters sharing a context: releasing one (its slot) makes a call through it trap
  /// with its own description even though its cached route and its sibling live on.
  @Test func aReleasedSlotTrapsWhileItsSiblingStillWorks() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let vote = Message<Int32, Int32>("vote:")
      let h = RuntimeObject()
      try h.setMethod(vote) { _, n in n + 1 }
      let proxy = try MulticastProxy(delegates: [h])
      var first: CallbackAdapter? = try CallbackAdapter(
        for: vote, context: .first, receiver: proxy)
      let second = try CallbackAdapter(
        for: vote, context: .first, receiver: proxy, sharingContextWith: first!)
      typealias Vote = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
      let released = try first!.function(as: Vote.self)
      let context = first!.context
      guard released(context, 1) == 2 else { return }  // caches the route in its slot
      first = nil
      guard try second.function(as: Vote.self)(context, 2) == 3 else { return }
      _ = released(context, 3)  // must trap, not run the cached route
      withExtendedLifetime(h) {}
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("called after its CallbackAdapter was released"))
    #expect(stderr.contains("vote:"))
  }
}
