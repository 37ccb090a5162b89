// AIMultiDelegate's example: a table view's data source split across two objects — a
// model that knows the rows and a view controller that makes the cells — behind one
// `MulticastProxy` in the table view's single data-source slot.

import DelegateProxy
import MessageRuntime

/// A row's position in a table (`NSIndexPath`), passed by value: `{IndexPath=qq}`.
struct IndexPath: MessageArgument, BitwiseCopyable, CustomStringConvertible {
  var section: Int
  var row: Int
  static let typeEncoding: TypeEncoding = .structure(
    name: "IndexPath", fields: [.longLong, .longLong])
  static var representation: MessageArgumentRepresentation { .bitwise }
  var description: String { "[\(section), \(row)]" }
}

/// `UITableViewDataSource`, declared once with Swift types.
enum TableDataSourceMessages {
  static let numberOfSections = Message<Int, RuntimeObject?>("numberOfSectionsInTableView:")
  static let numberOfRows = Message<Int, RuntimeObject?, Int>("tableView:numberOfRowsInSection:")
  static let cellForRow = Message<RuntimeObject?, RuntimeObject?, IndexPath>(
    "tableView:cellForRowAtIndexPath:")
  static let canEditRow = Message<Bool, RuntimeObject?, IndexPath>(
    "tableView:canEditRowAtIndexPath:")

  /// The protocol: rows and cells required, the rest optional.
  static let dataSourceProtocol = RuntimeProtocol(
    name: "UITableViewDataSource",
    requirements: [
      .init(numberOfRows.selector, numberOfRows.signature, required: true),
      .init(cellForRow.selector, cellForRow.signature, required: true),
      .init(numberOfSections.selector, numberOfSections.signature, required: false),
      .init(canEditRow.selector, canEditRow.signature, required: false),
    ])
}

/// A table cell (`UITableViewCell`): a label, owned by the table view's reuse pool.
final class TableViewCell: RuntimeObject, @unchecked Sendable {
  var text = ""
}

/// `UITableView`, reduced to what matters here: ONE weak data-source slot, a
/// `responds(to:)` cache primed when the data source is set (as UIKit does) and kept
/// valid by the data source's generation number, and a pool of reusable cells.
final class TableView: RuntimeObject, @unchecked Sendable {
  private let respondsCache = RespondsToCache()
  private var seenGeneration: UInt64?
  private var cellPool: [TableViewCell] = []
  private var cellsInUse = 0
  /// Rows per section, as of the last reload.
  private var layout: [Int] = []
  private let cellClass: RuntimeClass

  init(class runtimeClass: RuntimeClass, cellClass: RuntimeClass) {
    self.cellClass = cellClass
    super.init(class: runtimeClass)
  }

  /// The one data-source slot (weak, like UIKit's). Setting it primes the cache.
  weak var dataSource: RuntimeObject? {
    didSet {
      guard let dataSource else { return }
      let name = dataSource.runtimeClass.name
      say("TableView: data source set (a \(name)); asks responds(to:) once and caches the answers:")
      for message in [
        TableDataSourceMessages.numberOfSections.selector,
        TableDataSourceMessages.canEditRow.selector,
      ] {
        let answer = respondsCache.responds(dataSource, to: message)
        say("responds(to: \(message.name)) → \(answer ? "yes" : "no")", level: 2)
      }
      seenGeneration = generation(of: dataSource)
    }
  }

  private func generation(of object: RuntimeObject) -> UInt64? {
    (object as? any RespondsToGeneration)?.respondsToGeneration
  }

  /// Before an optional message: the cached answer, re-asked only when the data source
  /// says its answers may have changed (a new generation).
  private func dataSourceResponds(to selector: Selector) -> Bool {
    guard let dataSource else { return false }
    let now = generation(of: dataSource)
    if now != seenGeneration {
      say(
        "TableView: the data source's generation went \(seenGeneration.map(String.init) ?? "-") → \(now.map(String.init) ?? "-"): cached answers dropped, asks again"
      )
      seenGeneration = now
    }
    return respondsCache.responds(dataSource, to: selector)
  }

  /// A cell to fill (`dequeueReusableCellWithIdentifier:`).
  func dequeueReusableCell() -> TableViewCell {
    if cellsInUse == cellPool.count { cellPool.append(TableViewCell(class: cellClass)) }
    cellsInUse += 1
    return cellPool[cellsInUse - 1]
  }

  /// Asks the data source for sections, rows and cells, and returns the rows drawn.
  func reloadData() throws -> [String] {
    guard let dataSource else { return [] }
    cellsInUse = 0
    let m = TableDataSourceMessages.self
    let sections =
      dataSourceResponds(to: m.numberOfSections.selector)
      ? try m.numberOfSections.send(to: dataSource, self) : 1
    say("TableView: \(sections) section(s)")
    var drawn: [String] = []
    layout = []
    for section in 0..<sections {
      let rows = try m.numberOfRows.send(to: dataSource, self, section)
      layout.append(rows)
      for row in 0..<rows {
        let path = IndexPath(section: section, row: row)
        let cell = try m.cellForRow.send(to: dataSource, self, path) as? TableViewCell
        drawn.append("\(path) \(cell?.text ?? "(no cell)")")
      }
    }
    return drawn
  }

  /// Enters edit mode: asks, for each row, whether it can be edited (default: no).
  func setEditing() throws -> [String] {
    guard let dataSource else { return [] }
    let m = TableDataSourceMessages.self
    let asks = dataSourceResponds(to: m.canEditRow.selector)
    say("TableView: responds(to: \(m.canEditRow.selector.name)) → \(asks ? "yes" : "no")")
    var editable: [String] = []
    for (section, rows) in layout.enumerated() {
      for row in 0..<rows {
        let path = IndexPath(section: section, row: row)
        if asks, try m.canEditRow.send(to: dataSource, self, path) { editable.append("\(path)") }
      }
    }
    return editable
  }
}

/// The model ("the actual data source"): contacts grouped in sections.
final class ContactsDataSource: RuntimeObject, @unchecked Sendable {
  let sections: [(title: String, names: [String])] = [
    ("Friends", ["Ada", "Grace"]),
    ("Work", ["Linus", "Margaret", "Dennis"]),
  ]

  static func makeClass() throws -> RuntimeClass {
    let cls = try RuntimeClass(name: "ContactsDataSource")
    cls.addProtocol(TableDataSourceMessages.dataSourceProtocol)
    try cls.addMethod(TableDataSourceMessages.numberOfSections) { receiver, _ in
      let model = receiver as! ContactsDataSource
      say("← ContactsDataSource: numberOfSections = \(model.sections.count)", level: 2)
      return model.sections.count
    }
    try cls.addMethod(TableDataSourceMessages.numberOfRows) { receiver, _, section in
      (receiver as! ContactsDataSource).sections[section].names.count
    }
    return cls
  }
}

/// The view controller ("the cell factory"): makes each cell from the model's data.
/// It also answers `numberOfSectionsInTableView:` with 1, the default its base class
/// gives — the model, added after it, has the last word.
final class ContactsViewController: RuntimeObject, @unchecked Sendable {
  let model: ContactsDataSource

  init(class runtimeClass: RuntimeClass, model: ContactsDataSource) {
    self.model = model
    super.init(class: runtimeClass)
  }

  static func makeClass() throws -> RuntimeClass {
    let cls = try RuntimeClass(name: "ContactsViewController")
    try cls.addMethod(TableDataSourceMessages.numberOfSections) { _, _ in
      say("← ContactsViewController: numberOfSections = 1 (base-class default)", level: 2)
      return 1
    }
    try cls.addMethod(TableDataSourceMessages.cellForRow) { receiver, table, path in
      let controller = receiver as! ContactsViewController
      guard let table = table as? TableView else { return nil }
      let cell = table.dequeueReusableCell()
      let section = controller.model.sections[path.section]
      cell.text = "\(section.names[path.row]) (\(section.title))"
      return cell
    }
    return cls
  }
}

/// A helper added later: lets rows of the "Work" section be deleted by swiping.
final class SwipeToDelete: RuntimeObject, @unchecked Sendable {
  static func makeClass() throws -> RuntimeClass {
    let cls = try RuntimeClass(name: "SwipeToDelete")
    try cls.addMethod(TableDataSourceMessages.canEditRow) { _, _, path in
      path.section == 1
    }
    return cls
  }
}

/// The `table-data-source` scenario: one data-source slot, two objects behind a
/// last-responder proxy, and a helper added after the table view cached its answers.
func tableDataSource() throws {
  let steps = Steps()
  let m = TableDataSourceMessages.self

  steps.next("A table view with ONE data-source slot; two objects share the job:")
  let tableClass = try RuntimeClass(name: "UITableView")
  let table = TableView(class: tableClass, cellClass: try RuntimeClass(name: "UITableViewCell"))
  let model = ContactsDataSource(class: try ContactsDataSource.makeClass())
  let controller = ContactsViewController(
    class: try ContactsViewController.makeClass(), model: model)
  say("ContactsDataSource implements \(m.numberOfSections.selector), \(m.numberOfRows.selector)")
  say("ContactsViewController implements \(m.numberOfSections.selector), \(m.cellForRow.selector)")

  steps.next(
    "The controller keeps a strong MulticastProxy (AIMultiDelegate) and adds itself, then the model:"
  )
  let multiDelegate = MulticastProxy(protocol: m.dataSourceProtocol)  // last responder wins
  try multiDelegate.add(controller)
  try multiDelegate.add(model)
  for line in withoutAddresses(multiDelegate.description).split(separator: "\n") {
    say(String(line))
  }

  steps.next("table.dataSource = multiDelegate (the slot is weak: the controller keeps the proxy)")
  table.dataSource = multiDelegate

  steps.next("table.reloadData()")
  let rows = try table.reloadData()
  for row in rows { say("TableView draws row \(row)") }
  let report = multiDelegate.report(for: m.numberOfSections.selector)
  say("numberOfSectionsInTableView: \(report.outcome): the model, added last, says 2")
  say("rows came from ContactsDataSource alone, cells from ContactsViewController alone")
  let path = multiDelegate.fastPath(for: m.cellForRow.selector).map { "the C fast path (\($0))" }
  say("\(m.cellForRow.selector.name) took \(path ?? "forwardInvocation")")

  steps.next("table.setEditing(true), while no object implements \(m.canEditRow.selector.name)")
  let before = try table.setEditing()
  say("editable rows: \(before.isEmpty ? "none" : before.joined(separator: " "))")

  steps.next("A SwipeToDelete helper is added AFTER the table view cached its answers")
  say("(AIMultiDelegate: \"add all your delegates before you set it as the delegate\")")
  let swipe = SwipeToDelete(class: try SwipeToDelete.makeClass())
  try multiDelegate.add(swipe)
  say("the proxy's generation is now \(multiDelegate.generation)")

  steps.next("table.setEditing(true) again")
  let after = try table.setEditing()
  say(
    "editable rows: \(after.isEmpty ? "none" : after.joined(separator: " ")) — the late helper is heard"
  )

  withExtendedLifetime((controller, model, swipe)) {}
}
