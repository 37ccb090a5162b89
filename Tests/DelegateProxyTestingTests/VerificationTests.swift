import DelegateProxy
import DelegateProxyTesting
import Dispatch
import MessageRuntime
import Testing

/// Verification passes when it should, and fails — at the caller's line, with a message
/// that names the method, the expectation and what arrived — when it should.
@Suite struct VerificationTests {
  /// A double that received rows(section 0), rows(section 1), cell(row 0).
  func exercised() throws -> DelegateDouble {
    let double = try DelegateDouble(tableDataSource)
    _ = try TableMessages.rows.send(to: double, nil, 0)
    _ = try TableMessages.rows.send(to: double, nil, 1)
    _ = try TableMessages.cell.send(to: double, nil, 0)
    return double
  }

  @Test func passingVerificationsRecordNothing() throws {
    let double = try exercised()
    #expect(double.verify("tableView:numberOfRowsInSection:", called: .exactly(2)))
    #expect(double.verify("tableView:numberOfRowsInSection:", called: .once, with: [nil, 1]))
    #expect(double.verify("tableView:cellForRowAt:"))
    #expect(double.verify("tableView:numberOfRowsInSection:", called: .atMost(2)))
    #expect(double.verifyNever("numberOfSectionsInTableView:"))
    #expect(double.verifyNever("tableView:numberOfRowsInSection:", with: [.any, 5]))
    #expect(double.verifyInOrder(["tableView:numberOfRowsInSection:", "tableView:cellForRowAt:"]))
  }

  @Test func aWrongCountFailsAtTheCallersLineListingTheCalls() throws {
    let double = try exercised()
    let line = #line + 1  // the verification below
    let found = failures { double.verify("tableView:numberOfRowsInSection:", called: .exactly(1)) }
    #expect(found.map(\.line) == [line])
    #expect(
      found.first?.message == """
        Expected tableView:numberOfRowsInSection: to be called exactly once on DelegateDouble <TableDataSource> (nice), but it was called twice:
          tableView:numberOfRowsInSection:(nil, 0)
          tableView:numberOfRowsInSection:(nil, 1)
        """)
  }

  @Test func wrongArgumentsFailShowingTheCallsWithOtherArguments() throws {
    let double = try exercised()
    let messages = failureMessages {
      double.verify("tableView:numberOfRowsInSection:", called: .once, with: [.any, 3])
    }
    #expect(
      messages == [
        """
        Expected tableView:numberOfRowsInSection:(any, 3) to be called exactly once on DelegateDouble <TableDataSource> (nice), but it was never called.
        Calls of tableView:numberOfRowsInSection: with other arguments:
          tableView:numberOfRowsInSection:(nil, 0)
          tableView:numberOfRowsInSection:(nil, 1)
        """
      ])
  }

  @Test func aMethodNeverCalledListsWhatTheDoubleReceived() throws {
    let double = try exercised()
    let messages = failureMessages { double.verify("numberOfSectionsInTableView:") }
    #expect(
      messages == [
        """
        Expected numberOfSectionsInTableView: to be called at least once on DelegateDouble <TableDataSource> (nice), but it was never called.
        DelegateDouble <TableDataSource> (nice) received:
          tableView:numberOfRowsInSection:(nil, 0)
          tableView:numberOfRowsInSection:(nil, 1)
          tableView:cellForRowAt:(nil, 0)
        """
      ])
  }

  @Test func aCallThatShouldNeverHappenFails() throws {
    let double = try exercised()
    let messages = failureMessages { double.verifyNever("tableView:cellForRowAt:") }
    #expect(
      messages.first?.hasPrefix("Expected tableView:cellForRowAt: to be called never on") == true)
    #expect(
      messages.first?.hasSuffix("but it was called once:\n  tableView:cellForRowAt:(nil, 0)")
        == true)
  }

  @Test func theWrongOrderFails() throws {
    let double = try exercised()
    let messages = failureMessages {
      double.verifyInOrder(["tableView:cellForRowAt:", "tableView:numberOfRowsInSection:"])
    }
    #expect(
      messages == [
        """
        Expected calls in order: tableView:cellForRowAt: on TableDataSource, then tableView:numberOfRowsInSection: on TableDataSource; no call of tableView:numberOfRowsInSection: on DelegateDouble <TableDataSource> (nice) came after tableView:cellForRowAt:.
        Calls received, in order:
          tableView:numberOfRowsInSection:(nil, 0)
          tableView:numberOfRowsInSection:(nil, 1)
          tableView:cellForRowAt:(nil, 0)
        """
      ])
  }

  @Test func orderAcrossTwoDoubles() throws {
    let primary = try DelegateDouble(signatures: ["scrollViewDidScroll:": "v@:@"])
    let secondary = try DelegateDouble(signatures: ["scrollViewDidScroll:": "v@:@"])
    let proxy = try MulticastProxy(delegates: [primary, secondary])
    try Message<Void, RuntimeObject?>("scrollViewDidScroll:").send(to: proxy, nil)
    let scrolled: Selector = "scrollViewDidScroll:"
    #expect(DelegateDouble.verifyInOrder([(primary, scrolled), (secondary, scrolled)]))
    let messages = failureMessages {
      DelegateDouble.verifyInOrder([(secondary, scrolled), (primary, scrolled)])
    }
    #expect(
      messages.first?.contains(
        "no call of scrollViewDidScroll: on DelegateDouble <signatures> (nice) came after scrollViewDidScroll:"
      ) == true)
  }

  @Test func verifyingAnUnknownMethodOrBadMatchersSaysSo() throws {
    let double = try exercised()
    let messages = failureMessages {
      double.verify("tableView:heightForRowAt:")
      double.verify("tableView:numberOfRowsInSection:", with: [.any])
      double.verify("tableView:numberOfRowsInSection:", with: [.any, .equal(Int32(1))])
    }
    #expect(
      messages == [
        "Cannot verify: DelegateDouble <TableDataSource> (nice) has no method tableView:heightForRowAt:",
        "Cannot verify: tableView:numberOfRowsInSection: takes 2 argument(s); 1 matcher(s) given",
        "Cannot verify: tableView:numberOfRowsInSection: argument 1 is q; 1 (i) does not fit it",
      ])
  }

  @Test func awaitsACallOnADelegatesQueue() async throws {
    let double = try DelegateDouble(signatures: ["stream:didReceive:": "v@:@q"])
    let proxy = MulticastProxy()
    try proxy.add(double, queue: DispatchQueue(label: "test.xmpp"))
    let received = Message<Void, RuntimeObject?, Int>("stream:didReceive:")
    try received.send(to: proxy, nil, 1)
    try received.send(to: proxy, nil, 2)
    let call = await double.waitForCall(
      to: "stream:didReceive:", with: [.any, 2], timeLimit: .seconds(10))
    #expect(try call?.argument(1, as: Int.self) == 2)
    #expect(call?.context.queueLabel == "test.xmpp")
  }

  @Test func waitingPastTheTimeLimitFails() async throws {
    let double = try DelegateDouble(signatures: ["stream:didReceive:": "v@:@q"])
    let messages = Lock<[String]>([])
    await withKnownIssue {
      _ = await double.waitForCall(to: "stream:didReceive:", timeLimit: .milliseconds(20))
    } matching: { issue in
      messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    #expect(
      messages.withLock { $0 } == [
        """
        Timed out after 0.02 seconds waiting for stream:didReceive: to be called at least once on DelegateDouble <signatures> (nice); it was never called.
        DelegateDouble <signatures> (nice) received no calls.
        """
      ])
  }
}
