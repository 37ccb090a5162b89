import DelegateProxy
import GRDB
import Testing

/// GRDB's `TransactionObserver`, restated: one multicast registered once with the
/// database, reaching every observer added to it.
@Delegate(for: TransactionObserver.self)
protocol TransactionObservers: TransactionObserver {
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool
  func databaseDidChange(with event: DatabaseEvent)
  func databaseWillCommit() throws
  func databaseDidCommit(_ db: Database)
  func databaseDidRollback(_ db: Database)
}

/// Records every change of committed transactions, and the rollbacks.
final class AuditTrail: TransactionObserver, @unchecked Sendable {
  // @unchecked Sendable: GRDB calls observers on its writer's serial queue only, and the
  // test reads the log after the writes returned.
  var pending: [String] = []
  var committed: [String] = []
  var rollbacks = 0

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    eventKind.tableName == "account"
  }
  func databaseDidChange(with event: DatabaseEvent) {
    pending.append("\(event.kind) \(event.tableName) #\(event.rowID)")
  }
  func databaseDidCommit(_ db: Database) {
    committed += pending
    pending = []
  }
  func databaseDidRollback(_ db: Database) {
    pending = []
    rollbacks += 1
  }
}

/// Vetoes a commit that deletes an account, by throwing from `databaseWillCommit()`:
/// GRDB then rolls the transaction back and the error reaches the writer.
final class DeletionGuard: TransactionObserver, @unchecked Sendable {
  // @unchecked Sendable: as AuditTrail.
  struct AccountDeleted: Error, Equatable { let rowID: Int64 }
  var deleted: Int64?
  var vetoes = 0
  var commits = 0
  var rollbacks = 0

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    eventKind.tableName == "account"
  }
  func databaseDidChange(with event: DatabaseEvent) {
    if event.kind == .delete, deleted == nil { deleted = event.rowID }
  }
  func databaseWillCommit() throws {
    guard let rowID = deleted else { return }
    vetoes += 1
    throw AccountDeleted(rowID: rowID)
  }
  func databaseDidCommit(_ db: Database) { commits += 1 }
  func databaseDidRollback(_ db: Database) {
    deleted = nil
    rollbacks += 1
  }
}

@Suite("GRDB TransactionObserver through one multicast")
struct TransactionObserverTests {
  let queue: DatabaseQueue
  let observers = TransactionObserversMulticast()
  let audit = AuditTrail()
  let guardian = DeletionGuard()

  init() throws {
    queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)")
      try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
    }
    observers.add(audit)
    observers.add(guardian)
    // Observing is any observer's wish: GRDB asks once per statement kind.
    observers.setPolicy(.reduce(.anyTrue), for: \.observesEventsOfKind)
    queue.add(transactionObserver: observers, extent: .databaseLifetime)
  }

  @Test("both observers hear a committed transaction's changes and its commit")
  func committed() throws {
    try queue.write { db in
      try db.execute(sql: "INSERT INTO account (id, balance) VALUES (1, 100)")
      try db.execute(sql: "INSERT INTO account (id, balance) VALUES (2, 50)")
      try db.execute(sql: "UPDATE account SET balance = 70 WHERE id = 1")
      try db.execute(sql: "INSERT INTO note (text) VALUES ('not observed')")
    }
    #expect(audit.committed == ["insert account #1", "insert account #2", "update account #1"])
    #expect(guardian.commits == 1)
    #expect(audit.rollbacks == 0 && guardian.rollbacks == 0)
  }

  @Test("the guard's veto rolls the commit back: the error reaches the writer, every observer hears the rollback")
  func vetoed() throws {
    try queue.write { db in try db.execute(sql: "INSERT INTO account (id, balance) VALUES (1, 10)") }
    #expect(throws: DeletionGuard.AccountDeleted(rowID: 1)) {
      try queue.write { db in
        try db.execute(sql: "UPDATE account SET balance = 0 WHERE id = 1")
        try db.execute(sql: "DELETE FROM account WHERE id = 1")
      }
    }
    #expect(guardian.vetoes == 1)
    #expect(audit.rollbacks == 1 && guardian.rollbacks == 1)
    // The vetoed changes never reached the audit trail nor the table.
    #expect(audit.committed == ["insert account #1"])
    let balance = try queue.read { db in
      try Int.fetchOne(db, sql: "SELECT balance FROM account WHERE id = 1")
    }
    #expect(balance == 10)

    try queue.write { db in try db.execute(sql: "UPDATE account SET balance = 20 WHERE id = 1") }
    #expect(audit.committed == ["insert account #1", "update account #1"])
    #expect(guardian.commits == 2)
  }

  @Test("a removed observer hears nothing more; one added later hears the next transaction")
  func membershipChanges() throws {
    observers.remove(guardian)
    let late = AuditTrail()
    observers.add(late)
    try queue.write { db in try db.execute(sql: "INSERT INTO account (id, balance) VALUES (3, 1)") }
    #expect(guardian.commits == 0)
    #expect(audit.committed == ["insert account #3"])
    #expect(late.committed == ["insert account #3"])
  }
}

/// Observes the `note` table only.
final class NotesObserver: TransactionObserver, @unchecked Sendable {
  // @unchecked Sendable: as AuditTrail.
  var changes = 0
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "note" }
  func databaseDidChange(with event: DatabaseEvent) { changes += 1 }
  func databaseDidCommit(_ db: Database) {}
  func databaseDidRollback(_ db: Database) {}
}

/// Records everything GRDB tells it about the tables it observes, for the differential test.
final class TableRecorder: TransactionObserver, @unchecked Sendable {
  // @unchecked Sendable: as AuditTrail.
  let table: String
  let vetoes: Bool
  var lines: [String] = []
  init(table: String, vetoes: Bool = false) {
    self.table = table
    self.vetoes = vetoes
  }
  struct Veto: Error {}
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == table }
  func databaseDidChange(with event: DatabaseEvent) {
    lines.append("change \(event.kind) \(event.tableName) #\(event.rowID)")
  }
  func databaseWillCommit() throws {
    lines.append("will commit")
    if vetoes, lines.contains(where: { $0.hasPrefix("change delete") }) {
      lines.removeAll { $0.hasPrefix("change delete") }
      throw Veto()
    }
  }
  func databaseDidCommit(_ db: Database) { lines.append("commit") }
  func databaseDidRollback(_ db: Database) { lines.append("rollback") }
}

@Suite("GRDB: one multicast registration against each observer registered on its own")
struct TransactionObserverDifferentialTests {
  /// The same seeded statements against a database with each observer registered on its
  /// own (the reference) and one with a multicast of them; every observer must hear the
  /// same.
  @Test("the same seeded transactions, each observer hears the same", arguments: [7, 8, 9] as [UInt64])
  func sameNotifications(seed: UInt64) throws {
    func observers() -> [TableRecorder] {
      [TableRecorder(table: "account"), TableRecorder(table: "note"), TableRecorder(table: "account", vetoes: true)]
    }
    let reference = observers(), members = observers()
    let referenceQueue = try Self.database(), multicastQueue = try Self.database()
    for observer in reference { referenceQueue.add(transactionObserver: observer, extent: .databaseLifetime) }
    let multicast = TransactionObserversMulticast()
    for observer in members { multicast.add(observer) }
    multicast.setPolicy(.reduce(.anyTrue), for: \.observesEventsOfKind)
    // GRDB sends a change only to the observers that observe its kind: the multicast does
    // the same, asking each member.
    multicast.setFilter(for: \.databaseDidChangeWith) { observer, event in
      observer.observes(eventsOfKind: .insert(tableName: event.tableName))
    }
    multicastQueue.add(transactionObserver: multicast, extent: .databaseLifetime)

    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var outcomes: ([String], [String]) = ([], [])
    for step in 0..<60 {
      let statements = (0..<(1 + next(3))).map { _ -> String in
        let table = next(2) == 0 ? "account" : "note"
        switch next(3) {
        case 0: return "INSERT INTO \(table) (id) VALUES (\(next(20)))"
        case 1: return "UPDATE \(table) SET id = id WHERE id = \(next(20))"
        default: return "DELETE FROM \(table) WHERE id = \(next(20))"
        }
      }
      for (queue, index) in [(referenceQueue, 0), (multicastQueue, 1)] {
        var outcome = "ok"
        do {
          try queue.write { db in
            for sql in statements { try? db.execute(sql: sql) }
          }
        } catch { outcome = "\(type(of: error))" }
        if index == 0 { outcomes.0.append("\(step) \(outcome)") } else { outcomes.1.append("\(step) \(outcome)") }
      }
    }
    #expect(outcomes.0 == outcomes.1)
    for (mine, theirs) in zip(members, reference) {
      #expect(mine.lines == theirs.lines, "\(mine.table)")
      #expect(!theirs.lines.isEmpty)
    }
  }

  static func database() throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY)")
      try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY)")
    }
    return queue
  }
}
