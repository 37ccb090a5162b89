import Dispatch
import MessageRuntime
import Testing

@testable import DelegateProxy

/// The fast path: which configurations are served by C routes, and that a route answers
/// exactly what the general path (forwardInvocation) answers.
@Suite("Fast path (C routes)") struct FastPathTests {
  static let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
  static let height = Message<Double, RuntimeObject?, Int>("tableView:heightForRow:")
  static let should = Message<Bool, RuntimeObject?>("shouldBegin:")
  static let cell = Message<RuntimeObject?, Int>("cellFor:")
  static let big = Message<Big5, Int>("bigFor:")

  struct Big5: MessageArgument, BitwiseCopyable, Equatable {
    var a, b, c, d, e: Int64
    static let typeEncoding: TypeEncoding = .structure(
      name: "Big5", fields: Array(repeating: .longLong, count: 5))
  }

  /// Delegates answering each message with values derived from `tag` (0 answers "no").
  func delegates(_ tags: [Int], log: CallLog) throws -> [RuntimeObject] {
    try tags.map { tag in
      let cls = try RuntimeClass(name: uniqueClassName("FastPath\(tag)"))
      try cls.addMethod(Self.rows) { _, _, section in
        log.append("rows\(tag)")
        return tag * 100 + section
      }
      try cls.addMethod(Self.height) { _, _, row in
        log.append("height\(tag)")
        return Double(tag) + Double(row) / 10
      }
      try cls.addMethod(Self.should) { _, _ in
        log.append("should\(tag)")
        return tag != 0
      }
      try cls.addMethod(Self.cell) { receiver, _ in tag == 0 ? nil : receiver }
      try cls.addMethod(Self.big) { _, n in
        Big5(a: Int64(tag), b: Int64(n), c: 0, d: 0, e: Int64(tag * n))
      }
      return Named(cls, "d\(tag)", log: log)
    }
  }

  @Test func eachReferenceConfigurationIsRouted() throws {
    let log = CallLog()
    let ds = try delegates([1, 2, 3], log: log)
    let last = try MulticastProxy(delegates: ds)  // AIMultiDelegate
    #expect(last.fastPath(for: Self.rows.selector) == .registers)
    #expect(last.fastPath(for: Self.big.selector) == memoryResultPath)
    let first = try MulticastProxy(delegates: ds, policy: .firstResponder)  // LBDelegateMatrioska
    #expect(first.fastPath(for: Self.rows.selector) == .registers)
    let gcd = try MulticastProxy(delegates: ds, policy: .reduce(.allTrue))  // GCDMulticastDelegate, no queues
    #expect(gcd.fastPath(for: Self.should.selector) == .registers)
    #expect(gcd.fastPath(for: Self.height.selector) == nil)  // all-true of a double: general path
  }

  /// A routed selector whose responders have all been deallocated answers exactly as a
  /// selector with no responder does under the policy — on the very next message, before
  /// any rebuild — to typed sends and invocations: the unrecognized-selector error under
  /// `lastResponder`, zero when silent or under `firstResponder`, the reducer's answer
  /// for none. The reference is a proxy of the same configuration that only declares it.
  @Test func aRouteWhoseRespondersDiedAnswersLikeNoResponder() throws {
    func outcome<R>(_ body: () throws -> R) -> String {
      do { return "\(try body())" } catch { return "error: \(error)" }
    }
    func answers(_ proxy: MulticastProxy) -> [String] {
      let invocation = Invocation(signature: Self.rows.signature, selector: Self.rows.selector)
      try? invocation.setArgument(3, at: 1)
      return [
        outcome { try Self.rows.send(to: proxy, nil, 1) },
        outcome { try Self.should.send(to: proxy, nil) },
        outcome { () -> Int in
          try invocation.invoke(target: proxy)
          return try invocation.returnValue(as: Int.self)
        },
      ]
    }
    let configurations: [(ReturnPolicy<ReturnValue>, MulticastOptions)] = [
      (.lastResponder, []), (.lastResponder, .silentWhenEmpty), (.firstResponder, []),
      (.reduce(.allTrue), []), (.reduce(.anyTrue), []),
    ]
    for (policy, options) in configurations {
      let log = CallLog()
      let dead = MulticastProxy(policy: policy, options: options)
      do {
        let members = try delegates([2], log: log)
        for m in members { try dead.add(m) }
        #expect(dead.fastPath(for: Self.rows.selector) == .registers)
        #expect(dead.fastPath(for: Self.should.selector) == .registers)
        _ = try Self.rows.send(to: dead, nil, 1)
        #expect(log.count("rows2") == 1)
      }
      // The member is gone; the routes are still installed (nothing rebuilt them).
      #expect(dead.fastPath(for: Self.rows.selector) == .registers)
      let reference = MulticastProxy(policy: policy, options: options)
      try reference.declare(Self.rows)
      try reference.declare(Self.should)
      let expected = answers(reference)
      #expect(answers(dead) == expected, "\(policy) \(options.rawValue)")
      if case .lastResponder = policy, options.isEmpty {
        #expect(expected.allSatisfy { $0.hasPrefix("error: ") })
      }
    }
  }

  @Test func generalPathCases() throws {
    let log = CallLog()
    let ds = try delegates([1, 2], log: log)
    let proxy = try MulticastProxy(delegates: ds)
    proxy.setPolicy(.reduce(.fold(Int.self, initial: 0, +)), for: Self.rows.selector)
    #expect(proxy.fastPath(for: Self.rows.selector) == nil)  // a Swift fold
    #expect(try Self.rows.send(to: proxy, nil, 5) == 105 + 205)
    let observation = proxy.observe(Self.height.selector) { _ in }
    #expect(proxy.fastPath(for: Self.height.selector) == nil)  // observed
    observation.cancel()
    #expect(proxy.fastPath(for: Self.height.selector) == .registers)
    let queued = try delegates([3], log: log)
    try proxy.add(queued[0], queue: DispatchQueue(label: "fast-path.queued"))
    #expect(proxy.fastPath(for: Self.height.selector) == nil)  // a queued responder
    proxy.remove(queued[0], queue: DispatchQueue(label: "other"))
    proxy.removeAll()
    #expect(proxy.fastPath(for: Self.rows.selector) == nil)  // nobody responds
  }

  /// The same proxy answers each message once routed and once forced onto the general
  /// path (an observer); answers and call order must be identical.
  @Test(arguments: [
    ReturnPolicy<ReturnValue>.lastResponder, .firstResponder, .reduce(.allTrue), .reduce(.anyTrue),
    .reduce(.firstNonNil),
  ])
  func routesAnswerLikeTheGeneralPath(policy: ReturnPolicy<ReturnValue>) throws {
    for tags in [[1, 2, 3], [0, 2, 0], [0, 0], [3]] {
      let log = CallLog()
      let ds = try delegates(tags, log: log)
      let proxy = try MulticastProxy(delegates: ds, policy: policy)
      func answers() throws -> [String] {
        log.clear()
        var out: [String] = []
        if case .reduce(let r) = policy, r.name != Reducer.firstNonNil.name {
          out.append("should=\(try Self.should.send(to: proxy, nil))")
        } else if case .reduce = policy {
          out.append(
            "cell=\(try Self.cell.send(to: proxy, 0).map { ($0 as! Named).name } ?? "nil")")
        } else {
          out.append("rows=\(try Self.rows.send(to: proxy, nil, 7))")
          out.append("height=\(try Self.height.send(to: proxy, nil, 5))")
          out.append("big=\(try Self.big.send(to: proxy, 3))")
        }
        return out + log.entries
      }
      let routed = try answers()
      let selectors: [Selector] = [
        Self.rows.selector, Self.height.selector, Self.should.selector, Self.cell.selector,
        Self.big.selector,
      ]
      var observations: [MessageObservation] = []
      for selector in selectors { observations.append(proxy.observe(selector) { _ in }) }
      #expect(proxy.fastPath(for: Self.rows.selector) == nil)
      let general = try answers()
      #expect(routed == general, "policy \(policy), delegates \(tags)")
      withExtendedLifetime(observations) {}
    }
  }

  @Test func cCallersTakeTheRoute() throws {
    let log = CallLog()
    let ds = try delegates([1, 2, 3], log: log)
    let proxy = try MulticastProxy(delegates: ds, policy: .firstResponder)
    typealias Rows = @convention(c) (OpaquePointer, OpaquePointer, OpaquePointer?, Int) -> Int
    let imp = Runtime.lookup(proxy, Self.rows.selector)
    #expect(imp == (try proxy.imp(for: Self.rows.selector)))
    #expect(
      imp.unsafeCast(to: Rows.self)(proxy.rawValue, Self.rows.selector.rawValue, nil, 4) == 104)
    #expect(log.entries == ["rows1"])
  }

  @Test func removalAndDeallocationStopTheRouteAtOnce() throws {
    let log = CallLog()
    var ds = try delegates([1, 2, 3], log: log)
    let proxy = try MulticastProxy(delegates: ds)
    proxy.remove(ds[0])
    #expect(try Self.rows.send(to: proxy, nil, 0) == 300)
    #expect(log.entries == ["rows2", "rows3"])
    log.clear()
    ds.removeLast()  // deallocated: the route skips it before the proxy compacts
    #expect(try Self.rows.send(to: proxy, nil, 0) == 200)
    #expect(log.entries == ["rows2"])
    #expect(proxy.fastPath(for: Self.rows.selector) == .registers)
  }
}
