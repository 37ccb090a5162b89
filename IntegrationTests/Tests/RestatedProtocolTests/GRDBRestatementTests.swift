import DelegateProxy
import GRDB
import Synchronization
import Testing

// TransactionObservers.swift is `swift package restate-delegate TransactionObserver --target
// RestatedProtocolTests`'s output, unedited.

/// Records what a transaction observer hears.
final class ChangeLog: TransactionObserver, Sendable {
  let events = Mutex<[String]>([])

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
  func databaseDidChange(with event: DatabaseEvent) {
    let text = "\(event.kind) \(event.tableName)"
    events.withLock { $0.append(text) }
  }
  func databaseDidCommit(_ db: Database) { events.withLock { $0.append("commit") } }
  func databaseDidRollback(_ db: Database) { events.withLock { $0.append("rollback") } }
}

@Suite("TransactionObserver restated by the command")
struct GRDBRestatementTests {
  @Test("One registration with the database reaches both observers")
  func observers() throws {
    let queue = try DatabaseQueue()
    let first = ChangeLog()
    let second = ChangeLog()
    let observers = TransactionObserversMulticast()
    observers.add(first)
    observers.add(second)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
      db.add(transactionObserver: observers)
    }
    try queue.write { db in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
    }
    // The first commit is the one of the transaction that registered the multicast.
    for member in [first, second] {
      #expect(member.events.withLock { $0 } == ["commit", "insert item", "commit"])
    }
  }
}
