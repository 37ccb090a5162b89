import DelegateProxy
import DelegateProxyTesting
import Dispatch
import MessageRuntime
import Testing

/// Recording: what a double answers `responds(to:)` for, and what it records of each call.
@Suite struct DelegateDoubleTests {
  @Test func respondsToExactlyTheChosenMethods() throws {
    let all = try DelegateDouble(tableDataSource)
    let required = try DelegateDouble(tableDataSource, responding: .required)
    let one = try DelegateDouble(tableDataSource, responding: .only(["tableView:cellForRowAt:"]))
    let optional: Selector = "numberOfSectionsInTableView:"
    #expect(all.responds(to: optional))
    #expect(!required.responds(to: optional))
    #expect(required.responds(to: "tableView:numberOfRowsInSection:"))
    #expect(one.responds(to: "tableView:cellForRowAt:"))
    #expect(!one.responds(to: "tableView:numberOfRowsInSection:"))
    try one.setResponds(true, to: optional)
    #expect(one.responds(to: optional))
  }

  @Test func anUnknownSelectorIsATypedError() {
    #expect(
      throws: DoubleError.unknownSelector(
        "tableView:heightForRowAt:", double: "DelegateDouble <TableDataSource> (nice)")
    ) {
      _ = try DelegateDouble(tableDataSource, responding: .only(["tableView:heightForRowAt:"]))
    }
    #expect(throws: DoubleError.self) { _ = try DelegateDouble(signatures: ["bad:": "v@:{"]) }
  }

  @Test func recordsSelectorArgumentsOrderAndThread() throws {
    let double = try DelegateDouble(tableDataSource)
    try double.stub("numberOfSectionsInTableView:", .returning(1))
    let table = TableView()
    table.dataSource = double
    let cells = try table.reloadData()
    // Nice mode: zero rows (unstubbed), so only the section count and one row count.
    #expect(cells.isEmpty)
    let calls = double.calls
    #expect(
      calls.map(\.selector.name) == [
        "numberOfSectionsInTableView:", "tableView:numberOfRowsInSection:",
      ])
    #expect(calls[0].sequence < calls[1].sequence)
    #expect(try calls[1].argument(1, as: Int.self) == 0)
    #expect(calls[1].arguments[0].pointer == UnsafeRawPointer(table.rawValue))
    #expect(calls[1].arguments[0].text.hasPrefix("<Object 0x"))
    #expect(calls[1].context == CallContext.current)
    #expect(calls[1].description.hasSuffix(", 0)"))
    // A type that does not fit the argument is a typed error naming it.
    #expect(throws: DoubleError.self) { try calls[1].argument(1, as: Int32.self) }
  }

  @Test func recordsTheQueueACallRanOn() async throws {
    let double = try DelegateDouble(signatures: ["streamDidOpen:": "v@:@"])
    let proxy = MulticastProxy()
    let queue = DispatchQueue(label: "test.stream-delegate")
    try proxy.add(double, queue: queue)
    // The sender's thread waits (without suspending) until the queue ran the call, so the
    // call cannot have run on it; after an `await` this task could resume on the very
    // worker thread that ran the queue, which would prove nothing.
    let ran = DispatchSemaphore(value: 0)
    try double.stub("streamDidOpen:", .perform { _ in ran.signal() })
    let sender = CallContext.current.thread
    try Message<Void, RuntimeObject?>("streamDidOpen:").send(to: proxy, nil)
    ran.wait()
    let call = await double.waitForCall(to: "streamDidOpen:", timeLimit: .seconds(10))
    #expect(call?.context.isOn(queue) == true)
    #expect(call?.context.thread != sender)
  }

  @Test func doesNotKeepObjectArgumentsAlive() throws {
    let double = try DelegateDouble(tableDataSource)
    weak var gone: TableView?
    do {
      let table = TableView()
      gone = table
      _ = try TableMessages.rows.send(to: double, table, 2)
    }
    #expect(gone == nil)
    #expect(double.calls.count == 1)
  }

  @Test func aDoubleWithStubsCallsAndADelegateIsDeallocated() throws {
    let real = RuntimeObject()
    weak var gone: DelegateDouble?
    do {
      let double = try DelegateDouble(tableDataSource, forwardingTo: real)
      try double.stub("tableView:cellForRowAt:", .returning(RuntimeObject()))
      try double.stub(
        "tableView:numberOfRowsInSection:", with: [.equal(real), .any], .returning(1))
      _ = try TableMessages.rows.send(to: double, real, 0)
      _ = try TableMessages.cell.send(to: double, real, 0)
      gone = double
    }
    #expect(gone == nil)
  }

  @Test func aStrictDoubleFailsAnUnexpectedCallNamingMethodAndArguments() throws {
    let double = try DelegateDouble(tableDataSource, mode: .strict)
    let table = TableView()
    let messages = try failureMessages {
      _ = try TableMessages.rows.send(to: double, table, 7)
    }
    #expect(messages.count == 1)
    let message = try #require(messages.first)
    #expect(message.hasPrefix("Unexpected call tableView:numberOfRowsInSection:(<Object 0x"))
    #expect(
      message.contains(
        ", 7) to strict DelegateDouble <TableDataSource> (strict): no stub answers it"))
  }

  @Test func aStrictDoubleReportsCallsOnOtherQueuesAtTheNextVerification() async throws {
    let double = try DelegateDouble(signatures: ["streamDidOpen:": "v@:@"], mode: .strict)
    let proxy = MulticastProxy()
    try proxy.add(double, queue: DispatchQueue(label: "test.strict-queue"))
    try Message<Void, RuntimeObject?>("streamDidOpen:").send(to: proxy, nil)
    while double.calls.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
    let line = #line + 1  // the verification below
    let found = failures { double.verifyNoUnexpectedCalls() }
    #expect(found.map(\.line) == [line])
    #expect(found.first?.message.hasPrefix("Unexpected call streamDidOpen:(nil) to strict") == true)
  }
}
