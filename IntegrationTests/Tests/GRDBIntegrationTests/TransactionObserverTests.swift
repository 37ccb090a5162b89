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
