import DelegateProxy
import DelegateProxyTesting
import MessageRuntime
import Testing

/// A point in a scroll view (`CGPoint`'s shape), for the out-pointer stub.
struct Point: MessageArgument, BitwiseCopyable, Equatable {
  var x: Double
  var y: Double
  static var typeEncoding: TypeEncoding {
    .structure(name: "CGPoint", fields: [.double, .double])
  }
}

/// Stubs: values, matchers, sequences, out-pointers, partial doubles, typed errors.
@Suite struct StubTests {
  @Test func returnsAStubbedValuePerMatcher() throws {
    let double = try DelegateDouble(tableDataSource)
    try double.stub("tableView:numberOfRowsInSection:", .returning(3))
    try double.stub("tableView:numberOfRowsInSection:", with: [.any, 1], .returning(5))
    try double.stub(
      "tableView:numberOfRowsInSection:",
      with: [.any, .matching("a section above 9") { ($0.integer ?? 0) > 9 }],
      .returning(-1))
    let table = TableView()
    #expect(try TableMessages.rows.send(to: double, table, 0) == 3)
    #expect(try TableMessages.rows.send(to: double, table, 1) == 5)
    #expect(try TableMessages.rows.send(to: double, table, 12) == -1)
    let stubbed = double.calls.map(\.wasStubbed)
    #expect(stubbed == [true, true, true])
  }

  @Test func returnsASequenceThenRepeatsItsLastValue() throws {
    let double = try DelegateDouble(tableDataSource)
    try double.stub("tableView:numberOfRowsInSection:", .returning(inOrder: [1, 2]))
    let answers = try (0..<4).map { _ in try TableMessages.rows.send(to: double, nil, 0) }
    #expect(answers == [1, 2, 2, 2])
  }

  @Test func matchesObjectsByIdentity() throws {
    let double = try DelegateDouble(tableDataSource)
    let mine = TableView()
    let other = TableView()
    let cell = RuntimeObject()
    try double.stub("tableView:cellForRowAt:", with: [.equal(mine), .any], .returning(cell))
    #expect(try TableMessages.cell.send(to: double, mine, 0) === cell)
    #expect(try TableMessages.cell.send(to: double, other, 0) == nil)
  }

  @Test func writesThroughAnOutPointer() throws {
    // The secondary delegate's scrollViewWillEndDragging:withVelocity:targetContentOffset:.
    let double = try DelegateDouble(signatures: [
      "scrollViewWillEndDragging:withVelocity:targetContentOffset:": "v@:@{CGPoint=dd}^{CGPoint=dd}"
    ])
    try double.stub(
      "scrollViewWillEndDragging:withVelocity:targetContentOffset:",
      .writing(Point(x: 0, y: 120), toArgument: 2))
    let willEnd = Message<Void, RuntimeObject?, Point, UnsafeMutablePointer<Point>?>(
      "scrollViewWillEndDragging:withVelocity:targetContentOffset:")
    var target = Point(x: 0, y: 400)
    try withUnsafeMutablePointer(to: &target) {
      try willEnd.send(to: double, nil, Point(x: 0, y: -2), $0)
    }
    #expect(target == Point(x: 0, y: 120))
    #expect(try double.calls[0].argument(1, as: Point.self) == Point(x: 0, y: -2))
  }

  @Test func aPartialDoubleForwardsToTheRealDelegateAndRecords() throws {
    let real = RuntimeObject()
    try real.setMethod(TableMessages.rows) { _, _, section in section * 10 }
    let double = try DelegateDouble(tableDataSource, mode: .strict, forwardingTo: real)
    try double.stub("tableView:numberOfRowsInSection:", with: [.any, 2], .returning(99))
    #expect(try TableMessages.rows.send(to: double, nil, 4) == 40)  // forwarded
    #expect(try TableMessages.rows.send(to: double, nil, 2) == 99)  // stubbed
    #expect(double.calls.map(\.wasStubbed) == [false, true])
    double.verify("tableView:numberOfRowsInSection:", called: .twice)
  }

  @Test func badStubsAreTypedErrorsNamingTheMethod() throws {
    let double = try DelegateDouble(tableDataSource)
    let rows: Selector = "tableView:numberOfRowsInSection:"
    #expect(throws: DoubleError.returnTypeMismatch(selector: rows, expected: "q", found: "3 (i)")) {
      try double.stub(rows, .returning(Int32(3)))
    }
    #expect(throws: DoubleError.matcherCountMismatch(selector: rows, expected: 2, found: 1)) {
      try double.stub(rows, with: [.any], .returning(1))
    }
    #expect(throws: DoubleError.notAPointer(selector: rows, position: 1, found: "q")) {
      try double.stub(rows, .writing(1, toArgument: 1))
    }
    #expect(throws: DoubleError.noDelegateToForwardTo(selector: rows)) {
      try double.stub(rows, .forwardToDelegate)
    }
    #expect(throws: DoubleError.self) { try double.stub("reloadData", .returning(1)) }
    #expect(
      "\(DoubleError.returnTypeMismatch(selector: rows, expected: "q", found: "3 (i)"))"
        == "tableView:numberOfRowsInSection: returns q; a stub cannot return 3 (i)")
  }
}
