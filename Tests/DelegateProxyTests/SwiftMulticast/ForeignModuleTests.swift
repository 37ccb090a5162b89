import DelegateProxy
import DelegateProxyForeignFixtures
import Dispatch
import MessageRuntime
import Testing

// A delegator and a refining pair of delegate protocols from another module
// (DelegateProxyForeignFixtures, which does not know DelegateProxy), as a dependency's
// would be. The multicast restates TableDelegate's own methods and the ones it inherits
// from ScrollDelegate; it conforms to both and fans all of them out. Each restatement is
// marked `override`, so Swift checks it against the requirement it restates, on its own
// line (RestatementDiagnosticsTests shows what that catches).

@Delegate(for: TableDelegate.self, cFace: true)
protocol TableEvents: TableDelegate {
  override func scrollViewDidScroll(_ scrollView: ForeignScrollView)
  override func scrollViewShouldScrollToTop(_ scrollView: ForeignScrollView) -> Bool
  override func scrollViewDidEndDecelerating(_ scrollView: ForeignScrollView)
  override func tableView(_ tableView: TableView, didSelectRowAt row: Int)
  @Default(12) override func tableView(_ tableView: TableView, heightForRowAt row: Int) -> Double
  @Default(true) override func tableView(_ tableView: TableView, shouldHighlightRowAt row: Int)
    -> Bool
  override func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
}

/// A TableDelegate that implements every method: it logs the void ones into a shared
/// log and answers the value-returning ones as configured.
// @unchecked Sendable: the configuration is immutable; the log is a Lock.
final class RowDelegate: TableDelegate, @unchecked Sendable {
  let name: String
  let log: Lock<[String]>
  let height: Double
  let highlights: Bool
  let title: String?
  let scrollsToTop: Bool
  /// The label of the queue each call ran on ("caller" off the marked queues).
  let queues = Lock<[String]>([])

  init(
    _ name: String, log: Lock<[String]>, height: Double = 30, highlights: Bool = true,
    title: String? = nil, scrollsToTop: Bool = true
  ) {
    self.name = name
    self.log = log
    self.height = height
    self.highlights = highlights
    self.title = title
    self.scrollsToTop = scrollsToTop
  }

  private func record(_ event: String) {
    log.withLock { $0.append("\(name) \(event)") }
    queues.withLock { $0.append(DispatchQueue.getSpecific(key: rowQueueKey) ?? "caller") }
  }
  func scrollViewDidScroll(_ scrollView: ForeignScrollView) {
    record("scrolled to \(Int(scrollView.contentOffset))")
  }
  func scrollViewShouldScrollToTop(_ scrollView: ForeignScrollView) -> Bool { scrollsToTop }
  func scrollViewDidEndDecelerating(_ scrollView: ForeignScrollView) { record("stopped") }
  func tableView(_ tableView: TableView, didSelectRowAt row: Int) { record("selected \(row)") }
  func tableView(_ tableView: TableView, heightForRowAt row: Int) -> Double {
    queues.withLock { $0.append(DispatchQueue.getSpecific(key: rowQueueKey) ?? "caller") }
    return height
  }
  func tableView(_ tableView: TableView, shouldHighlightRowAt row: Int) -> Bool { highlights }
  func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
    title
  }
}

/// A TableDelegate that implements only the two required methods: every other one is
/// the protocol extension's default (height: the table's rowHeight; highlight: yes; …).
// @unchecked Sendable: the log is a Lock.
final class MinimalRowDelegate: TableDelegate, @unchecked Sendable {
  let log: Lock<[String]>
  init(log: Lock<[String]>) { self.log = log }
  func scrollViewDidScroll(_ scrollView: ForeignScrollView) {
    log.withLock { $0.append("minimal scrolled") }
  }
  func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
    log.withLock { $0.append("minimal selected \(row)") }
  }
}

let rowQueueKey = DispatchSpecificKey<String>()

/// The fixture module's scroll view (this test target has a `ScrollView` of its own, as a
/// user's module may: the restated methods name the foreign one).
typealias ForeignScrollView = DelegateProxyForeignFixtures.ScrollView

@Suite("A delegate protocol hierarchy from another module")
struct ForeignModuleTests {
  @Test func theMulticastConformsToTheHierarchyAndFansOutInheritedMethods() throws {
    let log = Lock<[String]>([])
    let a = RowDelegate("a", log: log)
    let b = RowDelegate("b", log: log)
    let events = TableEventsMulticast()
    events.add(a)
    events.add(b)
    // It is a TableDelegate and so a ScrollDelegate: the delegator takes it as it is.
    let scrolling: any ScrollDelegate = events
    #expect(scrolling === events)
    let table = TableView()
    table.delegate = events
    table.scroll(by: 10)  // ScrollDelegate's methods, inherited
    #expect(table.tap(row: 2))  // TableDelegate's own
    #expect(
      log.withLock { $0 } == [
        "a scrolled to 10", "b scrolled to 10", "a stopped", "b stopped", "a selected 2",
        "b selected 2",
      ])
    #expect(table.selectedRows == [2])
    #expect(TableEventsMulticast.delegateProtocol.name == "TableDelegate")
    #expect(
      TableEventsMulticast.delegateProtocol.methods.map(\.swiftName) == [
        "scrollViewDidScroll(_:)", "scrollViewShouldScrollToTop(_:)",
        "scrollViewDidEndDecelerating(_:)", "tableView(_:didSelectRowAt:)",
        "tableView(_:heightForRowAt:)", "tableView(_:shouldHighlightRowAt:)",
        "tableView(_:titleForHeaderInSection:)",
      ])
  }

  @Test func everyPolicyAnswersTheDelegatorsQuestions() throws {
    let log = Lock<[String]>([])
    let a = RowDelegate("a", log: log, height: 30, highlights: true, title: nil)
    let b = RowDelegate("b", log: log, height: 50, highlights: false, title: "B")
    let events = TableEventsMulticast()
    events.add(a)
    events.add(b)
    let table = TableView()
    table.delegate = events
    // Last responder (the default): b's answers.
    #expect(table.layout(rows: 2) == [50, 50])
    #expect(table.headers(sections: 1) == ["B"])
    #expect(!table.tap(row: 0))
    // First responder: a's.
    events.setPolicy(.firstResponder, for: \.tableViewHeightForRowAt)
    #expect(table.layout(rows: 1) == [30])
    // A reducer over every member's answer.
    events.setPolicy(
      .reduce(.collect(Double.self, name: "tallest") { $0.max() ?? 0 }),
      for: \.tableViewHeightForRowAt)
    #expect(table.layout(rows: 1) == [50])
    events.setPolicy(.reduce(.anyTrue), for: \.tableViewShouldHighlightRowAt)
    #expect(table.tap(row: 1))
    events.setPolicy(.reduce(.allTrue), for: \.tableViewShouldHighlightRowAt)
    #expect(!table.tap(row: 2))
    events.setPolicy(.reduce(.firstNonNil), for: \.tableViewTitleForHeaderInSection)
    #expect(table.headers(sections: 1) == ["B"])
    #expect(events.policy(for: \.tableViewShouldHighlightRowAt).description == "reduce(all true)")
    // A reducer that cannot make the result type (`.allTrue` for a `Double`) does not
    // compile: reducers are typed by the method's result.
    #expect(table.selectedRows == [1])
  }

  @Test func anEmptyMulticastAnswersItsDefaultsNotTheDelegatorsFallbacks() {
    let events = TableEventsMulticast()
    let table = TableView()
    table.delegate = events
    // The delegator's `?? rowHeight` never runs: its delegate is there and answers. The
    // multicast answers @Default where declared, else the type's empty value.
    #expect(table.layout(rows: 2) == [12, 12])  // @Default(12)
    #expect(table.tap(row: 3))  // @Default(true)
    #expect(table.headers(sections: 1) == [nil])  // String?: nil
    #expect(!table.scrollToTop())  // Bool without @Default: false
  }

  @Test func weakAndStrongMembersGenerationsAndTheReport() throws {
    let log = Lock<[String]>([])
    let events = TableEventsMulticast()
    let start = events.generation
    do {
      let passing = RowDelegate("passing", log: log)
      events.add(passing)  // weak: goes with its last reference
      #expect(events.count == 1)
    }
    #expect(events.count == 0)
    events.add(RowDelegate("kept", log: log, height: 70), retention: .strong)
    #expect(events.count == 1)
    #expect(events.generation > start)
    let table = TableView()
    table.delegate = events
    #expect(table.layout(rows: 1) == [70])
    let before = events.generation
    events.setPolicy(.firstResponder, for: \.tableViewHeightForRowAt)
    #expect(events.generation > before)
    #expect(
      events.report(for: \.tableViewHeightForRowAt).split(separator: "\n").prefix(3) == [
        "TableDelegate.tableView(_:heightForRowAt:) [tableView:heightForRowAt:]",
        "  required, result Swift.Double", "  policy: first responder",
      ])
    #expect(events.report(for: \.tableViewHeightForRowAt).contains("RowDelegate strong"))
  }

  @Test func aQueuedMemberHearsOnItsQueue() async throws {
    let log = Lock<[String]>([])
    let queue = DispatchQueue(label: "rows")
    queue.setSpecific(key: rowQueueKey, value: "rows")
    let here = RowDelegate("here", log: log, height: 20)
    let queued = RowDelegate("queued", log: log, height: 60)
    let events = TableEventsMulticast()
    events.add(here)
    events.add(queued, queue: queue)
    let table = TableView()
    table.delegate = events
    table.scroll(by: 4)
    // A void call reaches a queued member asynchronously; a value-returning one waits
    // for its answer on its queue.
    #expect(table.layout(rows: 1) == [60])
    queue.sync {}
    #expect(here.queues.withLock { $0 }.allSatisfy { $0 == "caller" })
    #expect(queued.queues.withLock { $0 } == ["rows", "rows", "rows"])
    #expect(
      log.withLock { $0 }.filter { $0.hasPrefix("queued") } == [
        "queued scrolled to 4", "queued stopped",
      ])
    // broadcast returns once every member, queued ones included, has run.
    await events.broadcast(\.tableViewDidSelectRowAt, table, 7)
    #expect(log.withLock { $0 }.suffix(2).sorted() == ["here selected 7", "queued selected 7"])
    // aggregate folds every answer, suspending until the queued one is in.
    let tallest = await events.aggregate(
      \.tableViewHeightForRowAt, table, 0,
      reducer: .collect(Double.self, name: "tallest") { $0.max() ?? 0 })
    #expect(tallest == 60)
    let total = await events.aggregate(
      \.tableViewHeightForRowAt, table, 0, reducer: .fold(Double.self, initial: 0, +))
    #expect(total == 80)
  }

  @Test func observersAndMessageSequencesSeeTheDelegatorsCalls() async throws {
    let log = Lock<[String]>([])
    let member = RowDelegate("member", log: log)
    let events = TableEventsMulticast()
    events.add(member)
    let table = TableView()
    table.delegate = events
    let offsets = Lock<[Double]>([])
    let watching = events.observe(\.scrollViewDidScroll) { scrollView in
      offsets.withLock { $0.append(scrollView.contentOffset) }
    }
    let selections = events.messages(\.tableViewDidSelectRowAt)
    table.scroll(by: 3)
    table.scroll(by: 2)
    table.tap(row: 4)
    table.tap(row: 9)
    watching.cancel()
    table.scroll(by: 1)
    #expect(offsets.withLock { $0 } == [3, 5])
    var rows: [Int] = []
    for await (_, row) in selections.prefix(2) { rows.append(row) }
    #expect(rows == [4, 9])
  }

  @Test func aSecondaryInjectedIntoTheTablesSlotAndAPrimarySetAgain() throws {
    let log = Lock<[String]>([])
    let table = TableView()
    let primary = RowDelegate("primary", log: log, height: 30)
    table.delegate = primary  // set by code we do not control
    let analytics = RowDelegate("analytics", log: log, height: 90)
    let injection = TableEventsMulticast.inject(analytics, into: table, at: \.delegate)
    table.tap(row: 1)
    #expect(log.withLock { $0 } == ["primary selected 1", "analytics selected 1"])
    #expect(table.layout(rows: 1) == [30])  // the primary answers; analytics only hears
    // The table's owner sets its primary again; analytics stays.
    let newPrimary = RowDelegate("new", log: log)
    injection.setPrimary(newPrimary)
    log.withLock { $0.removeAll() }
    table.scroll(by: 8)
    #expect(
      log.withLock { $0 } == [
        "new scrolled to 8", "analytics scrolled to 8", "new stopped", "analytics stopped",
      ])
    injection.remove()
    #expect(table.delegate === newPrimary)
  }

  @Test func aSecondaryInjectedWithAnsweringTrueAnswersInsteadOfThePrimary() throws {
    let log = Lock<[String]>([])
    let table = TableView()
    let primary = RowDelegate("primary", log: log, height: 30)
    table.delegate = primary
    let sizing = RowDelegate("sizing", log: log, height: 90)
    let injection = TableEventsMulticast.inject(sizing, into: table, at: \.delegate, answering: true)
    #expect(table.layout(rows: 2) == [90, 90])  // the secondary's answer wins (last invoked)
    table.tap(row: 1)
    #expect(log.withLock { $0 }.suffix(2) == ["primary selected 1", "sizing selected 1"])
    withExtendedLifetime(injection) {}
  }

  @Test func withNoPrimaryAnInjectedListenerLeavesTheAnswerToTheDeclaredDefault() throws {
    let log = Lock<[String]>([])
    let table = TableView()  // no delegate yet
    let analytics = RowDelegate("analytics", log: log, height: 90)
    let injection = TableEventsMulticast.inject(analytics, into: table, at: \.delegate)
    #expect(table.layout(rows: 1) == [12])  // nobody answers: the declared @Default(12)
    table.tap(row: 3)
    #expect(log.withLock { $0 } == ["analytics selected 3"])
    withExtendedLifetime(injection) {}
  }

  @Test func optionalLookingMethodsCountEveryMemberAndTheLastAnswersItsDefault() throws {
    // tableView(_:heightForRowAt:) has a default in TableDelegate's extension, so it looks
    // optional; Swift cannot tell whether a class implements it (the witness table holds
    // the default or the class's method alike). The multicast counts every member as
    // responding, and a member without its own method answers the protocol's default.
    let log = Lock<[String]>([])
    let tall = RowDelegate("tall", log: log, height: 80)
    let minimal = MinimalRowDelegate(log: log)
    let events = TableEventsMulticast()
    events.add(tall)
    events.add(minimal)
    let table = TableView()
    table.rowHeight = 44
    table.delegate = events
    #expect(events.responds(to: \.tableViewHeightForRowAt))
    #expect(events.count(respondingTo: \.tableViewHeightForRowAt) == 2)
    #expect(events.responds(minimal, to: \.tableViewHeightForRowAt))
    #expect(
      events.responders(for: \.tableViewHeightForRowAt).map { ObjectIdentifier($0 as AnyObject) }
        == [ObjectIdentifier(tall), ObjectIdentifier(minimal)])
    #expect(events.runtime.method(\.tableViewHeightForRowAt).isRequired)
    // Last responder: the last member's answer — here the protocol's default (the table's
    // rowHeight), not the tall member's 80.
    #expect(table.layout(rows: 1) == [44])
    // Members in the other order: the tall one is last and its 80 wins.
    events.remove(minimal)
    events.insert(minimal, at: 0)
    #expect(table.layout(rows: 1) == [80])
    // First responder: the first member's answer, its default if it has no method.
    events.setPolicy(.firstResponder, for: \.tableViewHeightForRowAt)
    #expect(table.layout(rows: 1) == [44])
    // A void optional-looking method (scrollViewDidEndDecelerating) reaches every member:
    // the minimal one runs the protocol's empty default.
    log.withLock { $0.removeAll() }
    table.scroll(by: 1)
    #expect(log.withLock { $0 } == ["minimal scrolled", "tall scrolled to 1", "tall stopped"])
  }
}
