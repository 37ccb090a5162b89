import DelegateProxy
import DelegateProxyTesting
import Dispatch
import MessageRuntime
import Testing

// Non-escaping closure parameters: the multicast lends the caller's closure to each
// delegate for the call (`withoutActuallyEscaping`); delegates on queues are waited for;
// observers and message sequences get the other arguments and a closure that must not be
// called; a double records the call without keeping the closure.

final class Tree: Sendable {
  let values: [Int]
  init(_ values: [Int]) { self.values = values }
}

struct StopVisiting: Error, Equatable {}

@Delegate(cFace: true)
protocol VisitorDelegate: AnyObject {
  func visit(_ tree: Tree, each: (Int) -> Void)
  func transform(_ tree: Tree, _ name: (String) -> String) -> String
  func check(_ tree: Tree, _ body: () throws -> Void) throws
}

/// Calls the closure for each value, scaled.
final class Visitor: VisitorDelegate, @unchecked Sendable {
  // @unchecked Sendable: immutable.
  let scale: Int
  init(scale: Int) { self.scale = scale }
  func visit(_ tree: Tree, each: (Int) -> Void) {
    for v in tree.values { each(v * scale) }
  }
  func transform(_ tree: Tree, _ name: (String) -> String) -> String { name("x\(scale)") }
  func check(_ tree: Tree, _ body: () throws -> Void) throws { try body() }
}

@Suite("Non-escaping closure parameters")
struct NonEscapingClosureTests {
  let tree = Tree([1, 2])

  @Test func everyDelegateCallsTheCallersClosureDuringTheCall() throws {
    let visitors = VisitorDelegateMulticast()
    let one = Visitor(scale: 1)
    let ten = Visitor(scale: 10)
    visitors.add(one)
    visitors.add(ten)
    var seen: [Int] = []
    visitors.visit(tree, each: { seen.append($0) })  // a closure that captures a local var
    #expect(seen == [1, 2, 10, 20])
    #expect(visitors.transform(tree) { "<\($0)>" } == "<x10>")  // last responder
  }

  @Test func aQueuedDelegateIsWaitedForSoItCallsTheClosureBeforeTheCallReturns() throws {
    let queue = DispatchQueue(label: "visit.queued")
    let visitors = VisitorDelegateMulticast()
    let queued = Visitor(scale: 3)
    let plain = Visitor(scale: 1)
    visitors.add(queued, queue: queue)
    visitors.add(plain)
    var seen: [Int] = []
    visitors.visit(tree) { seen.append($0) }
    #expect(seen == [3, 6, 1, 2])
  }

  @Test func anErrorThrownThroughTheClosureReachesTheCaller() throws {
    let visitors = VisitorDelegateMulticast()
    let first = Visitor(scale: 1)
    let second = Visitor(scale: 2)
    visitors.add(first)
    visitors.add(second)
    var calls = 0
    #expect(throws: StopVisiting()) {
      try visitors.check(tree) {
        calls += 1
        throw StopVisiting()
      }
    }
    #expect(calls == 1)  // the first error stops the dispatch (the default policy)
    withExtendedLifetime((first, second)) {}
  }

  @Test func observersAndSequencesGetTheOtherArgumentsNotTheClosure() async throws {
    let visitors = VisitorDelegateMulticast()
    let visitor = Visitor(scale: 1)
    visitors.add(visitor)
    let observed = Lock<[[Int]]>([])
    let watching = visitors.observe(\.visitEach) { tree, _ in
      observed.withLock { $0.append(tree.values) }  // the closure is not to be called
    }
    let messages = visitors.messages(\.visitEach)
    var seen: [Int] = []
    visitors.visit(tree) { seen.append($0) }
    watching.cancel()
    #expect(seen == [1, 2])
    #expect(observed.withLock { $0 } == [[1, 2]])
    for await (tree, _) in messages {  // kept after the call: its closure was not
      #expect(tree.values == [1, 2])
      break
    }
    let method = VisitorDelegateMulticast.delegateProtocol.methods[0]
    #expect(method.parameters.map(\.isLent) == [false, true])
    #expect(method.lendsArguments && !method.hasCForm)
  }

  @Test func aDoubleRecordsTheCallWithoutKeepingTheClosure() throws {
    let double = try SwiftDelegateDouble(VisitorDelegateMulticast.self)
    let visitors = VisitorDelegateMulticast()
    let standIn = double.delegate
    let visitor = Visitor(scale: 5)
    visitors.add(standIn)
    visitors.add(visitor)
    var seen: [Int] = []
    visitors.visit(tree) { seen.append($0) }
    #expect(seen == [5, 10])
    let call = try #require(double.recordedCalls(to: \.visitEach).first)
    #expect(call.arguments.map(\.name) == ["tree", "each"])
    #expect(
      call.arguments[0].pointer == UnsafeRawPointer(Unmanaged.passUnretained(tree).toOpaque()))
    #expect(call.arguments[1].text == "<non-escaping closure, lent for the call>")
    #expect(throws: DoubleError.self) { try call.swiftArgument(1, as: ((Int) -> Void).self) }
    // Typed, the recorded call cannot be read back (its closure is gone), and says so.
    withKnownIssue {
      #expect(double.calls(to: \.visitEach).isEmpty)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "cannot be read as (Tree, (Int) -> ()): 'each' is a non-escaping closure, lent for the call only")
    }
    // A stub receives the closure for the call, and may call it.
    double.stub(\.visitEach) { tree, each in each(tree.values.count) }
    seen = []
    visitors.visit(tree) { seen.append($0) }
    #expect(seen == [2, 5, 10])
    double.verify(\.visitEach, called: .twice)
  }
}
