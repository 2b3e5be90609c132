import CSQLite
import CSQLiteRanking
import Synchronization

/// One open SQLite connection, owned by this object and closed when it is released.
///
/// Not `Sendable`: a connection belongs to one thread (the platform rule is "one connection per
/// thread"), so two threads or processes each open their own and SQLite's file locks, the busy
/// timeout and `BEGIN IMMEDIATE` keep them apart.
final class Database {
    /// The file as the caller named it; every error message carries it.
    let path: String
    private let handle: OpaquePointer

    /// How long a writer waits for another connection's write lock before giving up with
    /// `StorageError.locked`. A `feeds update` transaction takes milliseconds; five seconds
    /// covers a slow disk without leaving cron jobs hanging.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens (creating when missing) the database file and applies the connection settings.
    /// A file that is not SQLite is detected here, by the first read, not later.
    init(path: String) throws {
        _ = Database.processSettings
        self.path = path
        var opened: OpaquePointer?
        // NOMUTEX: the connection is confined to one thread (see the type's comment), so
        // SQLite's per-connection mutex would only cost time.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            // SQLite allocates a handle even on failure (to carry the message); free it.
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw StorageError.from(code: code, message: message, path: path, context: "opening")
        }
        handle = opened
        Self.openConnections.add(1, ordering: .relaxed)
        sqlite3_extended_result_codes(handle, 1)
        // The busy handler first: switching to WAL itself needs a lock another process may hold.
        try check(sqlite3_busy_timeout(handle, Database.busyTimeoutMilliseconds), "setting the busy timeout")
        try configure()
    }

    /// SQLite's process-wide settings, made once before the first connection opens. Memory
    /// statistics off: SQLite otherwise takes one global mutex around every allocation, which
    /// the update's writing and indexing threads contend for (SQLite's own tally of its
    /// memory is not used here).
    private static let processSettings: Void = {
        _ = csqlite_disable_memory_statistics()  // SQLITE_MISUSE only if SQLite started already: harmless
    }()

    deinit {
        for statement in idle.values { sqlite3_finalize(statement) }
        // close_v2: should a Statement still be alive, the connection closes when it is finalized.
        sqlite3_close_v2(handle)
        Self.openConnections.subtract(1, ordering: .relaxed)
    }

    /// Connections of this process open now (any file): `KeptLog.clear` touches a database's
    /// files only when there are none, since closing any descriptor of a file drops every lock
    /// this process holds on it, its connections' included (POSIX record locks).
    static let openConnections = Atomic<Int>(0)

    /// Compiled statements no `Statement` holds, by their SQL, for `prepare` to hand out again:
    /// compiling was a sixth of `feeds html`'s CPU at 5,000 sources (three queries a source,
    /// each compiled afresh). One a text at most: a statement in use (a query inside another's
    /// rows) is never handed out twice, its twin is compiled.
    private var idle: [String: OpaquePointer] = [:]
    static let maxIdleStatements = 64
    var idleStatements: Int { idle.count }

    /// A statement its `Statement` let go of: reset, its bindings cleared, and kept for the
    /// next `prepare` of the same text (or finalized, when one is kept already). When the pool
    /// is full, another is finalized to make room (texts with values written in, used once,
    /// must not keep out those used in loops).
    func giveBack(_ statement: OpaquePointer, sql: String) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard idle[sql] == nil else {
            sqlite3_finalize(statement)
            return
        }
        if idle.count >= Self.maxIdleStatements, let evicted = idle.first {
            idle.removeValue(forKey: evicted.key)
            sqlite3_finalize(evicted.value)
        }
        idle[sql] = statement
    }

    private func configure() throws {
        // WAL: readers (`feeds read`) never block the cron writer and the other way round.
        let mode = try switchToWAL()
        // (An in-memory database, `SearchWords`'s scratch table, has no log to switch.)
        guard mode?.lowercased() == "wal" || path == ":memory:" else {
            throw StorageError.sqlite(path: path, code: SQLITE_ERROR,
                                      message: "journal mode is \(mode ?? "unknown"), expected wal",
                                      context: "switching to write-ahead logging")
        }
        // NORMAL is durable across application crashes in WAL mode; only a power cut may lose
        // the last transactions, never consistency.
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Sets `journal_mode=WAL` and returns the mode now in force. The mode is stored in the file,
    /// so only the first open of a new database really switches; that switch needs an exclusive
    /// lock and SQLite reports BUSY for it at once, without the busy handler. Two commands
    /// opening a brand-new database together would then fail, so retry within the busy timeout.
    private func switchToWAL() throws -> String? {
        let pragma = try prepare("PRAGMA journal_mode=WAL")
        var waited: Int32 = 0
        while true {
            do {
                return try pragma.queryOne { $0.string(0) } ?? nil
            } catch StorageError.locked(_) where waited < Database.busyTimeoutMilliseconds {
                waited += sqlite3_sleep(10)
            }
        }
    }

    /// Keeps the write-ahead log file of `schema`'s database (`main`, or an attached one) when
    /// the last connection closes, instead of deleting it (SQLite's `SQLITE_FCNTL_PERSIST_WAL`):
    /// the next writer then writes its log over file pages the system may still cache, where a
    /// new file takes every page fresh, and on this machine (a VM whose host reclaims the
    /// guest's free pages) a fresh page cost ~13 us on first touch: 0.2-0.3 s of an update
    /// writing 65 MB of log on a million cards. A kept log is restarted from its beginning by
    /// the end of an update (`restartLogForNextRun`) and emptied once every connection
    /// is closed (`KeptLog.clear`), so the next connection to open the file reads nothing back.
    func keepLogFile(_ schema: String = "main") throws {
        guard path != ":memory:" else { return }
        var on: Int32 = 1
        try check(sqlite3_file_control(handle, schema, SQLITE_FCNTL_PERSIST_WAL, &on), "keeping the write-ahead log")
    }

    /// The end of an update on `schema`'s database, its log kept for the next update (see
    /// `keepLogFile`): the log copied into the database file (a PASSIVE checkpoint), then
    /// restarted from its beginning by one small write of that file alone (`user_version`
    /// written again as it is, `version`; a transaction would take the write lock of every
    /// attached database too), the log file cut to `keptLogBytes` of the database's size if
    /// longer. Restarted, the file holds one valid frame (the frames after it carry the old
    /// salt, and SQLite's recovery stops at the first of them), which `KeptLog.clear` drops once
    /// every connection is closed. Not restarted (a reader of another process holding the log
    /// at that moment), the file holds the run's frames, copied, which the next open reads
    /// back once. The cards' (`FeedStore`) and the search index's (`SearchIndexer`).
    func restartLogForNextRun(_ schema: String = "main", version: Int) throws {
        try execute("PRAGMA \(schema).wal_checkpoint(PASSIVE)")
        let pages = try prepare("PRAGMA \(schema).page_count").queryOne { $0.int64(0) } ?? 0
        let pageSize = try prepare("PRAGMA \(schema).page_size").queryOne { $0.int64(0) } ?? 0
        let size = pages.multipliedReportingOverflow(by: pageSize)
        try execute("PRAGMA \(schema).journal_size_limit = \(Self.keptLogBytes(databaseBytes: size.overflow ? .max : size.partialValue))")
        defer { try? execute("PRAGMA \(schema).journal_size_limit = -1") }
        try execute("PRAGMA \(schema).user_version = \(version)")
    }

    /// The most of a log file kept between updates (SQLite cuts it at the restart): a quarter
    /// of the database's size, at least 4 MiB and at most 64 MiB, about the log an update
    /// writes between two checkpoints (`UpdateRunner.checkpointPages`, 16,000 frames of 4 KiB):
    /// a big home's update finds its log's pages whole, and the log a small home's first update
    /// wrote (54 MB for 200 feeds into a 31 MB database) is not kept whole.
    static func keptLogBytes(databaseBytes: Int64) -> Int64 {
        min(64 << 20, max(4 << 20, databaseBytes / 4))
    }

    // MARK: - Running SQL

    /// Compiles one statement (or hands out an idle one of the same text). The statement keeps
    /// this connection alive.
    func prepare(_ sql: String) throws -> Statement {
        if let kept = idle.removeValue(forKey: sql) { return Statement(handle: kept, database: self, sql: sql) }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw error(code, context: "preparing \(sql)")
        }
        return Statement(handle: statement, database: self, sql: sql)
    }

    /// Runs a script of one or more statements that return no rows (schema, pragmas).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            throw StorageError.from(code: code, message: text, path: path, context: "running \(sql)")
        }
    }

    /// The connection, for registering SQL functions (`CardIDFilter`) and finding its files'
    /// descriptors (`FileWriteback`); never leaves Storage.
    var handleForExtensions: OpaquePointer { handle }

    /// The rows of `table`, counted up to `limit` only (a fold's "are there enough waiting").
    func rowCount(of table: String, upTo limit: Int) throws -> Int {
        try prepare("SELECT count(*) FROM (SELECT 1 FROM \(table) LIMIT \(max(0, limit)))").queryOne { $0.int(0) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed by every INSERT, UPDATE and DELETE on this connection since it opened
    /// (what FTS5's 'merge' command reports its work by).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True while a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Transactions

    /// Runs `body` in a write transaction and commits it, or rolls back when `body` throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at the start, waiting up to the busy timeout for
    /// another writer. A deferred transaction that reads first and writes later would fail at
    /// once with "locked" if another process committed in between — whatever the timeout.
    /// Transactions do not nest: the store's public methods each own exactly one.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        if inBatch { return try inBatchWrite(body) }
        precondition(!isInTransaction, "Storage: write transactions do not nest")
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            // Rollback may itself fail when SQLite already rolled back (after a full disk, for
            // example); the first error is the one worth reporting.
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// True while `batchTransaction` runs its body: `writeTransaction` then runs inside it.
    private var inBatch = false
    /// A `writeTransaction` of the open batch threw: the batch cannot commit.
    private var batchBroken = false

    /// Runs `body` in one write transaction in which every `writeTransaction` runs as part of
    /// it, committed at the end only when none of them threw: otherwise (or when `body` throws)
    /// everything is rolled back and `StorageError.batchNotCommitted` (or `body`'s error) thrown,
    /// for the caller to write each again on its own. One commit for many small transactions:
    /// each commit writes every page it changed to the log, and a run of sources' saves changes
    /// the same index pages over and over (measured: 443 log frames per source of 60 cards
    /// saved one by one). Not savepoints: each savepoint copies the pages it changes to a
    /// statement journal in a temporary file first, which doubled the writing.
    func batchTransaction<T>(_ body: () throws -> T) throws -> T {
        precondition(!isInTransaction && !inBatch, "Storage: write transactions do not nest")
        try execute("BEGIN IMMEDIATE")
        (inBatch, batchBroken) = (true, false)
        let result: T
        do {
            defer { inBatch = false }
            result = try body()
            // SQLite rolls the whole transaction back by itself after some errors (a full disk).
            guard !batchBroken, isInTransaction else { throw StorageError.batchNotCommitted(path: path) }
            try execute("COMMIT")
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// One `writeTransaction` inside the open batch: a failure breaks the batch (see above),
    /// and once broken nothing more is written in it.
    private func inBatchWrite<T>(_ body: () throws -> T) throws -> T {
        guard !batchBroken, isInTransaction else { throw StorageError.batchNotCommitted(path: path) }
        do {
            return try body()
        } catch {
            batchBroken = true
            throw error
        }
    }

    /// Whether `feeds_relevance` is registered on this connection (`registerRelevance`).
    private var relevanceRegistered = false

    /// Registers the search's relevance score, `feeds_relevance` (CSQLiteRanking), once: the
    /// connections that search have it, FTS5 tables of any attached file included.
    func registerRelevance() throws {
        guard !relevanceRegistered else { return }
        try check(feeds_register_relevance(handle), "registering feeds_relevance")
        relevanceRegistered = true
    }

    // MARK: - Errors

    /// Throws the typed error for `code` unless it is SQLITE_OK.
    func check(_ code: Int32, _ context: @autoclosure () -> String) throws {
        guard code == SQLITE_OK else { throw error(code, context: context()) }
    }

    /// The typed error for a failed call on this connection, with SQLite's message.
    func error(_ code: Int32, context: String) -> StorageError {
        StorageError.from(code: code, message: String(cString: sqlite3_errmsg(handle)),
                          path: path, context: context)
    }
}
