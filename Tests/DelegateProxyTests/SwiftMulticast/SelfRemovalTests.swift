import MessageRuntime
import Testing

@testable import DelegateProxy

/// A delegate that removes itself (or another member, or adds one) from inside its own
/// call: the dispatch that called it keeps reading the table it started with, which must
/// stay valid until that dispatch ends (the table it replaced is released only after the
/// caller's read section too; Model/README.md, finding 2). Run under AddressSanitizer by
/// Scripts/sanitize.sh, which reports a read of a released table.
@Suite("Changing a multicast from inside its own call") struct SelfRemovalTests {
  final class Remover: ReductionCaseDelegate, @unchecked Sendable {
    weak var multicast: ReductionCaseDelegateMulticast?
    let answer: Int
    var late: [ReductionCaseAnswer] = []
    init(_ answer: Int) { self.answer = answer }
    func value(_ k: Int) -> Int {
      guard let multicast else { return answer }
      multicast.remove(self)
      // New members and another table, published while the dispatch still runs.
      for d in late { multicast.add(d) }
      return answer
    }
  }

  static let sum = Reducer.fold(Int.self, name: "sum", initial: 0, +)

  @Test(arguments: [
    (ReturnPolicy.lastResponder, 5), (.reduce(sum), 1 + 2 + 3 + 4 + 5),
    (.reduce(.anyTrue), 1), (.firstResponder, 1),
  ])
  func theDispatchFinishesOnItsOwnTable(policy: ReturnPolicy<ReturnValue>, expected: Int) throws {
    let multicast = ReductionCaseDelegateMulticast()
    multicast.setPolicy(policy.relabeled(as: Int.self), for: \.value)
    let remover = Remover(1)
    remover.multicast = multicast
    remover.late = [ReductionCaseAnswer(100), ReductionCaseAnswer(200)]
    let others = [2, 3, 4, 5].map(ReductionCaseAnswer.init)
    multicast.add(remover, retention: .strong)
    for o in others { multicast.add(o) }
    // This dispatch: the remover, then the four others it started with.
    #expect(multicast.value(0) == expected)
    // The next one: the others and the two the remover added.
    #expect(multicast.count == 6)
    #expect(multicast.contains(remover) == false)
    withExtendedLifetime(others) {}
  }

  @Test func fromTheCFaceToo() throws {
    let multicast = ReductionCaseDelegateMulticast()
    multicast.setPolicy(.reduce(Self.sum), for: \.value)
    let remover = Remover(1)
    remover.multicast = multicast
    let others = [2, 3].map(ReductionCaseAnswer.init)
    multicast.add(remover, retention: .strong)
    for o in others { multicast.add(o) }
    typealias ValueFn = @convention(c) (OpaquePointer?, OpaquePointer?, Int) -> Int
    let fromC = try multicast.runtime.imp(for: \.value).unsafeCast(to: ValueFn.self)
    let cmd = multicast.runtime.selector(for: \.value).rawValue
    #expect(fromC(try multicast.runtime.rawValue(), cmd, 0) == 6)
    #expect(fromC(try multicast.runtime.rawValue(), cmd, 0) == 5)
    withExtendedLifetime(others) {}
  }
}
