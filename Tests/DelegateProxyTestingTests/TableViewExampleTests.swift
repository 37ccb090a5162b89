import DelegateProxy
import DelegateProxyTesting
import MessageRuntime
import Testing

/// The example of the issue: a table view whose data source is split across two objects
/// (counts from one, cells from another) behind one proxy — tested with doubles.
@Suite struct TableViewExampleTests {
  @Test func aDataSourceSplitAcrossTwoObjects() throws {
    let counts = try DelegateDouble(
      tableDataSource,
      responding: .only(["numberOfSectionsInTableView:", "tableView:numberOfRowsInSection:"]),
      mode: .strict)
    let cells = try DelegateDouble(
      tableDataSource, responding: .only(["tableView:cellForRowAt:"]), mode: .strict)
    try counts.stub("numberOfSectionsInTableView:", .returning(2))
    try counts.stub("tableView:numberOfRowsInSection:", with: [.any, 0], .returning(1))
    try counts.stub("tableView:numberOfRowsInSection:", with: [.any, 1], .returning(2))
    let cell = RuntimeObject()
    try cells.stub("tableView:cellForRowAt:", .returning(cell))
    let dataSource = try MulticastProxy(delegates: [counts, cells])
    let table = TableView()
    table.dataSource = dataSource

    #expect(try table.reloadData().count == 3)

    counts.verify("numberOfSectionsInTableView:", called: .once, with: [.equal(table)])
    counts.verify("tableView:numberOfRowsInSection:", called: .exactly(2))
    cells.verify("tableView:cellForRowAt:", called: .exactly(3))
    cells.verify("tableView:cellForRowAt:", called: .twice, with: [.any, 0])
    DelegateDouble.verifyInOrder([
      (counts, "numberOfSectionsInTableView:"), (counts, "tableView:numberOfRowsInSection:"),
      (cells, "tableView:cellForRowAt:"),
    ])
  }

  @Test func aTableThatCachesRespondsToSeesOnlyTheMethodsTheDoublesAnswer() throws {
    // Without numberOfSectionsInTableView: the table assumes one section.
    let counts = try DelegateDouble(tableDataSource, responding: .required)
    try counts.stub("tableView:numberOfRowsInSection:", .returning(2))
    let table = TableView()
    table.dataSource = counts
    #expect(try table.reloadData().count == 2)
    counts.verifyNever("numberOfSectionsInTableView:")
    counts.verify("tableView:numberOfRowsInSection:", called: .once, with: [.any, 0])
  }
}
