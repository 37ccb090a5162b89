import DelegateProxy
import DelegateProxyCCallbackSupport
import DelegateProxyTestSupport
import MessageRuntime
import Synchronization
import Testing

/// SQLite's hooks (context first): an update hook fanned out to two handlers, a commit
/// hook any handler may veto, a progress handler on a single object.
@Suite("SQLite callbacks (context first)") struct SQLiteCallbackTests {
  // void (*)(void *, int op, char const *db, char const *table, sqlite3_int64 rowid)
  static let update = Message<Void, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64>(
    "database:didUpdate:table:row:")
  // int (*)(void *): nonzero turns the COMMIT into a ROLLBACK
  static let commit = Message<Int32>("databaseShouldVetoCommit")
  // int (*)(void *): nonzero interrupts the statement
  static let progress = Message<Int32>("databaseShouldInterrupt")

  final class Database {
    let handle: OpaquePointer
    init() throws {
      var db: OpaquePointer?
      guard sqlite3_open(":memory:", &db) == SQLITE_OK, let db else {
        throw SQLiteError(code: SQLITE_CANTOPEN, message: "open")
      }
      handle = db
    }
    deinit { sqlite3_close(handle) }

    /// Runs `sql`; the result code.
    @discardableResult
    func exec(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }

    /// The single integer `sql` selects.
    func integer(_ sql: String) -> Int64 {
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return -1 }
      defer { sqlite3_finalize(statement) }
      return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1
    }
  }

  struct SQLiteError: Error {
    var code: Int32
    var message: String
  }

  @Test func updateHookReachesTwoHandlers() throws {
    let log = CallLog()
    let handlers = try ["audit", "cache"].map { name in
      let h = RuntimeObject()
      try h.setMethod(Self.update) { _, op, _, table, row in
        let kind = op == SQLITE_INSERT ? "insert" : op == SQLITE_UPDATE ? "update" : "delete"
        log.append("\(name) \(kind) \(text(table)) #\(row)")
      }
      return h
    }
    let proxy = try MulticastProxy(delegates: handlers)
    let adapter = try CallbackAdapter(for: Self.update, context: .first, receiver: proxy)
    #expect(adapter.path == .registers)
    let db = try Database()
    sqlite3_update_hook(db.handle, try adapter.function(as: UpdateHook.self), adapter.context)
    #expect(
      db.exec(
        "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2); UPDATE t SET x = 3 WHERE rowid = 2; DELETE FROM t WHERE rowid = 1"
      ) == SQLITE_OK)
    #expect(
      log.entries == [
        "audit insert t #1", "cache insert t #1", "audit insert t #2", "cache insert t #2",
        "audit update t #2", "cache update t #2", "audit delete t #1", "cache delete t #1",
      ])
    sqlite3_update_hook(db.handle, nil, nil)
  }

  typealias UpdateHook =
    @convention(c) (
      UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, sqlite3_int64
    ) -> Void
  typealias IntHook = @convention(c) (UnsafeMutableRawPointer?) -> Int32

  /// A handler that vetoes commits while `veto` is set, and counts the times it was asked.
  final class Guard: RuntimeObject, @unchecked Sendable {
    // @unchecked Sendable: the atomics are the only mutable state.
    let veto = Atomic<Bool>(false)
    let asked = Atomic<Int>(0)
  }

  @Test func anyHandlersVetoRollsTheTransactionBack() throws {
    let guards = [Guard(), Guard(), Guard()]
    for g in guards {
      try g.setMethod(Self.commit) { receiver in
        let g = receiver as! Guard
        g.asked.add(1, ordering: .relaxed)
        return g.veto.load(ordering: .relaxed) ? 1 : 0
      }
    }
    // Any veto wins: the commit hook is one policy line.
    let proxy = try MulticastProxy(delegates: guards, policy: .reduce(.anyTrue))
    #expect(proxy.fastPath(for: Self.commit.selector) == .registers)
    let adapter = try CallbackAdapter(for: Self.commit, context: .first, receiver: proxy)
    let db = try Database()
    db.exec("CREATE TABLE t(x)")
    sqlite3_commit_hook(db.handle, try adapter.function(as: IntHook.self), adapter.context)

    // Nobody vetoes: committed.
    #expect(db.exec("BEGIN; INSERT INTO t VALUES (1); COMMIT") == SQLITE_OK)
    #expect(db.integer("SELECT count(*) FROM t") == 1)
    #expect(guards.map { $0.asked.load(ordering: .relaxed) } == [1, 1, 1])

    // The middle one vetoes: every handler is asked, the transaction is rolled back.
    guards[1].veto.store(true, ordering: .relaxed)
    #expect(db.exec("BEGIN; INSERT INTO t VALUES (2); COMMIT") == SQLITE_CONSTRAINT)
    // SQLITE_CONSTRAINT_COMMITHOOK (a macro Swift does not import)
    #expect(sqlite3_extended_errcode(db.handle) == SQLITE_CONSTRAINT | (2 << 8))
    #expect(sqlite3_get_autocommit(db.handle) != 0)  // no transaction left open
    #expect(db.integer("SELECT count(*) FROM t") == 1)
    #expect(guards.map { $0.asked.load(ordering: .relaxed) } == [2, 2, 2])

    // Veto lifted: autocommit statements commit again.
    guards[1].veto.store(false, ordering: .relaxed)
    #expect(db.exec("INSERT INTO t VALUES (3)") == SQLITE_OK)
    #expect(db.integer("SELECT count(*) FROM t") == 2)
    sqlite3_commit_hook(db.handle, nil, nil)
  }

  @Test func progressHandlerOnASingleObjectCanInterrupt() throws {
    let calls = Atomic<Int>(0)
    let limit = Atomic<Int>(Int.max)
    let watcher = RuntimeObject()
    try watcher.setMethod(Self.progress) { _ in
      let n = calls.add(1, ordering: .relaxed).newValue
      return n >= limit.load(ordering: .relaxed) ? 1 : 0
    }
    let adapter = try CallbackAdapter(for: Self.progress, context: .first, receiver: watcher)
    #expect(adapter.path == .registers)
    let db = try Database()
    sqlite3_progress_handler(
      db.handle, 100, try adapter.function(as: IntHook.self), adapter.context)
    let query =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT sum(i) FROM n"
    #expect(db.integer(query) == 200_010_000)
    let full = calls.load(ordering: .relaxed)
    #expect(full > 10)

    calls.store(0, ordering: .relaxed)
    limit.store(3, ordering: .relaxed)
    #expect(db.integer(query) == -1)  // interrupted
    #expect(sqlite3_errcode(db.handle) == SQLITE_INTERRUPT)
    #expect(calls.load(ordering: .relaxed) == 3)
    sqlite3_progress_handler(db.handle, 0, nil, nil)
  }
}
