import MessageRuntime
import Synchronization
import Testing

@testable import DelegateProxy

/// A protocol whose one method every reduction case asks.
@Delegate(cFace: true)
protocol ReductionCaseDelegate: AnyObject {
  func value(_ k: Int) -> Int
}

final class ReductionCaseAnswer: ReductionCaseDelegate, @unchecked Sendable {
  let answer: Int
  init(_ answer: Int) { self.answer = answer }
  func value(_ k: Int) -> Int { answer }
}

/// One table of reduction cases — a rule, the responders' answers in order, the answer — run
/// through every path that folds: ``Reduction`` itself, a ``MulticastProxy``'s C route, its C
/// callback entries and its forwarding path, and a `@Delegate` multicast from Swift, by
/// aggregation and from C.
/// Each path must give the table's answer (issue: "one fold per policy").
@Suite("Reduction cases, every path") struct ReductionCaseTests {
  struct Case: CustomStringConvertible, Sendable {
    let policy: ReturnPolicy<ReturnValue>
    let answers: [Int]
    let expected: Int
    var description: String { "\(policy) \(answers) → \(expected)" }
  }

  static let sum = Reducer<ReturnValue>.fold(Int.self, name: "sum", initial: 0, +)

  static let cases: [Case] = [
    Case(policy: .lastResponder, answers: [1, 0, 2], expected: 2),
    Case(policy: .lastResponder, answers: [5, 0], expected: 0),
    Case(policy: .lastResponder, answers: [], expected: 0),
    Case(policy: .firstResponder, answers: [1, 0, 2], expected: 1),
    Case(policy: .firstResponder, answers: [0, 3], expected: 0),
    Case(policy: .firstResponder, answers: [], expected: 0),
    Case(policy: .reduce(.allTrue), answers: [1, 1], expected: 1),
    Case(policy: .reduce(.allTrue), answers: [1, 0, 1], expected: 0),
    Case(policy: .reduce(.allTrue), answers: [2, 3], expected: 1),
    Case(policy: .reduce(.allTrue), answers: [], expected: 1),
    Case(policy: .reduce(.anyTrue), answers: [0, 0], expected: 0),
    Case(policy: .reduce(.anyTrue), answers: [0, 7], expected: 1),
    Case(policy: .reduce(.anyTrue), answers: [], expected: 0),
    Case(policy: .reduce(.firstNonNil), answers: [0, 3, 4], expected: 3),
    Case(policy: .reduce(.firstNonNil), answers: [0, 0], expected: 0),
    Case(policy: .reduce(.firstNonNil), answers: [], expected: 0),
    Case(policy: .reduce(sum), answers: [1, 2, 3], expected: 6),
    Case(policy: .reduce(sum), answers: [], expected: 0),
  ]

  /// The reduction alone, by the rule the policy gives.
  @Test(arguments: cases) func reduction(_ c: Case) throws {
    var reduction = Reduction<Int>(ReducerRule(c.policy, returnsVoid: false))
    for a in c.answers { if reduction.add(a) { break } }
    let answer: Int
    switch reduction.outcome {
    case .answer(let v): answer = v
    case .truth(let t): answer = t ? 1 : 0
    case .reduce:
      answer = try c.policy.reducer!.reduce(
        c.answers.map { try ReturnValue($0) }, returning: Int.typeEncoding
      )
      .value(as: Int.self)
    case .zero, .unanswered: answer = 0
    }
    #expect(answer == c.expected, "\(c)")
  }

  static let valueMessage = Message<Int, Int>("value:")

  /// Runtime delegates answering `c.answers`, in a silent proxy under `c.policy`.
  func runtimeProxy(_ c: Case) throws -> (MulticastProxy, [RuntimeObject]) {
    let cls = try RuntimeClass(name: uniqueClassName("ReductionCase"))
    let answers = Mutex<[ObjectIdentifier: Int]>([:])
    try cls.addMethod(Self.valueMessage) { r, _ in
      answers.withLock { $0[ObjectIdentifier(r)] ?? -1 }
    }
    let delegates = c.answers.map { a in
      let d = RuntimeObject(class: cls)
      answers.withLock { $0[ObjectIdentifier(d)] = a }
      return d
    }
    let proxy = try MulticastProxy(delegates: delegates, options: .silentWhenEmpty)
    try proxy.declare(Self.valueMessage)
    proxy.setPolicy(c.policy, for: Self.valueMessage.selector)
    return (proxy, delegates)
  }

  /// A proxy's C route (where the rule has one) and its forwarding path (an observer
  /// keeps the message off the route).
  @Test(arguments: cases) func runtimeProxyPaths(_ c: Case) throws {
    let (proxy, delegates) = try runtimeProxy(c)
    let routable =
      ReducerRule(c.policy, returnsVoid: false).routeReducer != nil && !c.answers.isEmpty
    #expect((proxy.fastPath(for: Self.valueMessage.selector) != nil) == routable, "\(c)")
    #expect(try Self.valueMessage.send(to: proxy, 0) == c.expected, "route: \(c)")
    // The C callback entries (dp_callback.c) run the same rules: context first and last.
    typealias First = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int
    typealias Last = @convention(c) (Int, UnsafeMutableRawPointer?) -> Int
    let first = try CallbackAdapter(for: Self.valueMessage, context: .first, receiver: proxy)
    let last = try CallbackAdapter(for: Self.valueMessage, context: .last, receiver: proxy)
    #expect(try first.function(as: First.self)(first.context, 0) == c.expected, "callback: \(c)")
    #expect(try last.function(as: Last.self)(0, last.context) == c.expected, "callback: \(c)")
    let watching = proxy.observe(Self.valueMessage.selector) { _ in }
    #expect(proxy.fastPath(for: Self.valueMessage.selector) == nil)
    #expect(try Self.valueMessage.send(to: proxy, 0) == c.expected, "forwarding: \(c)")
    watching.cancel()
    withExtendedLifetime(delegates) {}
  }

  func multicast(_ c: Case) throws -> (ReductionCaseDelegateMulticast, [ReductionCaseAnswer]) {
    let delegates = c.answers.map(ReductionCaseAnswer.init)
    let multicast = ReductionCaseDelegateMulticast()
    for d in delegates { multicast.add(d) }
    multicast.setPolicy(c.policy.relabeled(as: Int.self), for: \.value)
    return (multicast, delegates)
  }

  /// A `@Delegate` multicast: its inlined loop, its general path (an observer), and C.
  @Test(arguments: cases) func swiftMulticastPaths(_ c: Case) throws {
    let (multicast, delegates) = try multicast(c)
    #expect(multicast.value(0) == c.expected, "Swift: \(c)")
    typealias ValueFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
    let fromC = try multicast.runtime.imp(for: \.value).unsafeCast(to: ValueFn.self)
    #expect(
      fromC(try multicast.runtime.rawValue(), multicast.runtime.selector(for: \.value).rawValue, 0)
        == c.expected,
      "C: \(c)")
    let watching = multicast.observe(\.value) { _ in }
    #expect(multicast.value(0) == c.expected, "general path: \(c)")
    watching.cancel()
    withExtendedLifetime(delegates) {}
  }

  /// Aggregation folds every answer by the same rule (first responder: the first answer).
  @Test(arguments: cases) func aggregation(_ c: Case) async throws {
    let (multicast, delegates) = try multicast(c)
    let reducer: Reducer<ReturnValue>? = if case .reduce(let r) = c.policy { r } else { nil }
    let answer = await multicast.aggregate(\.value, 0, reducer: reducer?.relabeled(as: Int.self))
    #expect(answer == c.expected, "aggregate: \(c)")
    withExtendedLifetime(delegates) {}
  }
}
