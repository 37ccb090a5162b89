// AIMultiDelegate's example: a table view's data source split across two objects — a
// model that knows the rows and a view controller that makes the cells — behind one
// multicast in the table view's single data-source slot. Written as Swift programmers
// write delegates: a Swift protocol, plain classes, a `weak var dataSource`.

import DelegateProxy

/// A row's position in a table (`NSIndexPath`), passed by value.
struct IndexPath: CustomStringConvertible {
  var section: Int
  var row: Int
  var description: String { "[\(section), \(row)]" }
}

/// A table cell (`UITableViewCell`): a label, owned by the table view's reuse pool.
final class TableViewCell {
  var text = ""
}

/// `UITableViewDataSource`: rows and cells required, sections and editing optional.
@Delegate
protocol TableViewDataSource: AnyObject {
  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
  func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell?
  @Optional func numberOfSections(in tableView: TableView) -> Int
  @Optional func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool
}

/// `UITableView`, reduced to what matters here: ONE weak data-source slot and a pool of
/// reusable cells.
final class TableView {
  weak var dataSource: (any TableViewDataSource)?
  private var cellPool: [TableViewCell] = []
  private var cellsInUse = 0
  private var layout: [Int] = []

  /// A cell to fill (`dequeueReusableCellWithIdentifier:`).
  func dequeueReusableCell() -> TableViewCell {
    if cellsInUse == cellPool.count { cellPool.append(TableViewCell()) }
    cellsInUse += 1
    return cellPool[cellsInUse - 1]
  }

  /// Asks the data source for sections, rows and cells, and returns the rows drawn.
  func reloadData() -> [String] {
    guard let dataSource else { return [] }
    cellsInUse = 0
    let sections = dataSource.numberOfSections(in: self)
    say("TableView: \(sections) section(s)")
    var drawn: [String] = []
    layout = []
    for section in 0..<sections {
      let rows = dataSource.tableView(self, numberOfRowsInSection: section)
      layout.append(rows)
      for row in 0..<rows {
        let path = IndexPath(section: section, row: row)
        let cell = dataSource.tableView(self, cellForRowAt: path)
        drawn.append("\(path) \(cell?.text ?? "(no cell)")")
      }
    }
    return drawn
  }

  /// Enters edit mode: asks, for each row, whether it can be edited.
  func setEditing() -> [String] {
    guard let dataSource else { return [] }
    var editable: [String] = []
    for (section, rows) in layout.enumerated() {
      for row in 0..<rows {
        let path = IndexPath(section: section, row: row)
        if dataSource.tableView(self, canEditRowAt: path) { editable.append("\(path)") }
      }
    }
    return editable
  }
}

/// The model ("the actual data source"): contacts grouped in sections.
final class ContactsDataSource: TableViewDataSource {
  let sections: [(title: String, names: [String])] = [
    ("Friends", ["Ada", "Grace"]),
    ("Work", ["Linus", "Margaret", "Dennis"]),
  ]

  func numberOfSections(in tableView: TableView) -> Int {
    say("← ContactsDataSource: numberOfSections = \(sections.count)", level: 2)
    return sections.count
  }

  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
    sections[section].names.count
  }

  /// The model makes no cells: the controller, after it, does.
  func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell? {
    nil
  }
}

/// The view controller ("the cell factory"): makes each cell from the model's data. It
/// answers `numberOfSections(in:)` with 1, the default its base class gives — the model,
/// added after it, has the last word.
final class ContactsViewController: TableViewDataSource {
  let model: ContactsDataSource
  init(model: ContactsDataSource) { self.model = model }

  func numberOfSections(in tableView: TableView) -> Int {
    say("← ContactsViewController: numberOfSections = 1 (base-class default)", level: 2)
    return 1
  }

  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }

  func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell? {
    let cell = tableView.dequeueReusableCell()
    let section = model.sections[indexPath.section]
    cell.text = "\(section.names[indexPath.row]) (\(section.title))"
    return cell
  }
}

/// A helper added later: lets rows of the "Work" section be deleted by swiping. Besides
/// the optional editing question it implements the required pair, answering nothing (0
/// rows, no cell), which the first-nonzero policies pass over.
final class SwipeToDelete: TableViewDataSource {
  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }
  func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell? {
    nil
  }
  func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
    indexPath.section == 1
  }
}

/// The `table-data-source` scenario: one data-source slot, two objects behind a
/// multicast, per-method policies, and a helper added later.
func tableDataSource() throws {
  let steps = Steps()

  steps.next("A table view with ONE data-source slot; two plain Swift objects share the job:")
  let table = TableView()
  let model = ContactsDataSource()
  let controller = ContactsViewController(model: model)
  say("ContactsDataSource knows the rows; ContactsViewController makes the cells")

  steps.next("The controller keeps a multicast (AIMultiDelegate) and adds itself, then the model:")
  // The default policy: the last responder's answer wins.
  let multiDelegate = TableViewDataSourceMulticast()
  multiDelegate.add(controller)
  multiDelegate.add(model)
  say("every member implements the required methods, so per-method policies pick the answer:")
  say("rows: the first nonzero count (a typed fold); cells: the first non-nil cell (.firstNonNil)")
  multiDelegate.setPolicy(
    .reduce(.collect { counts in counts.first { $0 != 0 } ?? 0 }), for: \.tableViewNumberOfRowsInSection)
  multiDelegate.setPolicy(.reduce(.firstNonNil), for: \.tableViewCellForRowAt)
  for line in multiDelegate.description.split(separator: "\n") { say(String(line)) }

  steps.next(
    "table.dataSource = multiDelegate (the slot is weak: the controller keeps the multicast)")
  table.dataSource = multiDelegate

  steps.next("table.reloadData()")
  for row in table.reloadData() { say("TableView draws row \(row)") }
  say("numberOfSections(in:): both answered; the model's 2 came last and won (last responder)")
  say("rows: the model's (the controller says 0); cells: the controller's (the model makes none)")

  steps.next("table.setEditing(true), while no object implements the optional canEditRowAt")
  let before = table.setEditing()
  say("editable rows: \(before.isEmpty ? "none" : before.joined(separator: " "))")
  say(
    "responds(to: \\.tableViewCanEditRowAt) → \(multiDelegate.responds(to: \.tableViewCanEditRowAt))"
  )

  steps.next("A SwipeToDelete helper is added later; the generation tells cached answers are stale")
  let generation = multiDelegate.generation
  let swipe = SwipeToDelete()
  multiDelegate.add(swipe)
  say("generation \(generation) → \(multiDelegate.generation)")
  say(
    "responds(to: \\.tableViewCanEditRowAt) → \(multiDelegate.responds(to: \.tableViewCanEditRowAt))"
  )

  steps.next("table.setEditing(true) again")
  let after = table.setEditing()
  say(
    "editable rows: \(after.isEmpty ? "none" : after.joined(separator: " ")) — the late helper is heard"
  )

  withExtendedLifetime((controller, model, swipe)) {}
}
