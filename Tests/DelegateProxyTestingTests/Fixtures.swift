import DelegateProxy
import DelegateProxyTesting
import MessageRuntime
import Testing

/// A table view's data source protocol, as a runtime protocol (UITableViewDataSource's
/// shape: counts are `NSInteger`, the table passes itself).
let tableDataSource = try! RuntimeProtocol(
  name: "TableDataSource",
  required: [
    "tableView:numberOfRowsInSection:": "q@:@q",
    "tableView:cellForRowAt:": "@@:@q",
  ],
  optional: [
    "numberOfSectionsInTableView:": "q@:@",
    "tableView:titleForHeaderInSection:": "*@:@q",
  ])

enum TableMessages {
  static let sections = Message<Int, RuntimeObject?>("numberOfSectionsInTableView:")
  static let rows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
  static let cell = Message<RuntimeObject?, RuntimeObject?, Int>("tableView:cellForRowAt:")
}

/// A delegator under test: a table view that asks its data source what UIKit asks, and
/// caches `responds(to:)` for the optional method as UIKit does.
final class TableView: RuntimeObject, @unchecked Sendable {
  // @unchecked Sendable: the test drives it from one thread; its state is a Lock.
  private let state = Lock<(dataSource: RuntimeObject?, asksSections: Bool)>((nil, false))

  var dataSource: RuntimeObject? {
    get { state.withLock { $0.dataSource } }
    set {
      // UIKit reads respondsToSelector: once, when the data source is set.
      let asks = newValue?.responds(to: TableMessages.sections.selector) ?? false
      state.withLock { $0 = (newValue, asks) }
    }
  }

  /// Asks for the sections (when the data source answers), each section's rows, and a
  /// cell for every row; returns the cells.
  func reloadData() throws -> [RuntimeObject?] {
    let (source, asksSections) = state.withLock { $0 }
    guard let source else { return [] }
    let sections = asksSections ? try TableMessages.sections.send(to: source, self) : 1
    var cells: [RuntimeObject?] = []
    for section in 0..<sections {
      let rows = try TableMessages.rows.send(to: source, self, section)
      for row in 0..<rows { cells.append(try TableMessages.cell.send(to: source, self, row)) }
    }
    return cells
  }
}

/// The messages of issues recorded by `body`, which must record at least one.
func failureMessages(_ body: () throws -> Void) rethrows -> [String] {
  let messages = Lock<[String]>([])
  try withKnownIssue {
    try body()
  } matching: { issue in
    messages.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
    return true
  }
  return messages.withLock { $0 }
}

/// The issues recorded by `body` (messages and lines), which must record at least one.
func failures(_ body: () throws -> Void) rethrows -> [(message: String, line: Int?)] {
  let found = Lock<[(String, Int?)]>([])
  try withKnownIssue {
    try body()
  } matching: { issue in
    found.withLock {
      $0.append(
        (issue.comments.map(\.rawValue).joined(separator: "\n"), issue.sourceLocation?.line))
    }
    return true
  }
  return found.withLock { $0 }.map { (message: $0.0, line: $0.1) }
}
