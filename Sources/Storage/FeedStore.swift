import FeedModel

/// The store of sources, fetch state and cards: the only door to the database.
///
/// One `FeedStore` is one connection, for one thread. Each public method is one statement or
/// one `BEGIN IMMEDIATE` transaction, so a process killed at any moment leaves the database as
/// it was before or after the call, never in between. The store never reads the clock: every
/// time is a parameter, which keeps it deterministic and testable.
public final class FeedStore {
    let db: Database

    /// Turns a card's description (sanitized HTML) into the text the search index holds; nil
    /// indexes it as stored. Storage knows no HTML, so the layer above sets this (see
    /// `SearchIndex`). Used only when a card is inserted or its text changed.
    public var descriptionText: ((String) -> String)?

    /// Search index rows of cards this connection saved (committed) since the last refresh,
    /// with their text already extracted (`PreparedCards`), by card id: the refresh writes them
    /// as they are instead of reading the cards back and converting their descriptions.
    var searchBacklog = SearchRows()
    /// The search rows of the open `inOneTransaction`, in order, for `searchBacklog` once it commits.
    var batchRows: [(id: Int64, row: SearchRow?)]?

    /// The search index's own connection, opened at the first refresh (`refreshSearchIndex`).
    var searchIndexer: SearchIndexer?
    /// Whether the index file is attached to `db` as `search` (`attachSearchIndex`).
    var searchIndexAttached = false

    /// The keys of the `title` order waiting (in `card_titles_new` and `card_titles_log`) past
    /// which the end of an update folds them into `card_titles` (`finishBulkWrites`): a fold
    /// writes each leaf of the big table its keys fall on, so the more keys a fold takes, the
    /// fewer leaves a key (4,600 distinct titles into a million cards' table: 3,060 leaves,
    /// 0.14 s; many updates of few cards each: a leaf a card, every run). Below it they wait in
    /// the small table, which the end of each update fills from the log in key order, and
    /// listings merge the three. 40,000 (it was 10,000): on a million cards an update of 200
    /// new feeds (4,600 keys) folds every ninth run instead of every third, each fold dearer
    /// (+0.2-0.3 s against +0.1-0.2 s), but less in all: two copies of the million, 36 updates
    /// each, the binaries alternating, 0.663 s a run on average against 0.695 s (the runs
    /// between folds alike: each faster in half of the pairs).
    public var titleFoldKeys = 40_000

    /// The unread cards waiting in `unread_by_date_new` (migration 20) from which the end of an
    /// update folds them into `unread_by_date` (`settleDateOrder`). One: every update folds
    /// what it added, so that the next one's new cards enter an empty table, as on an empty
    /// database; the fold writes the big table's leaves of the last days once.
    public var dateFoldCards = 1

    /// The id set of filtered relevance searches, registered on the connection at first use.
    var cardIDFilter: CardIDFilter?

    /// Whether the log's pages are started on their way to the disk after each batch
    /// (`tuneForBulkWrites`, see `FileWriteback`), and how many times they were.
    private var writesLogBack = false
    private(set) var logWritebacks = 0
    /// Writebacks of the database file started by `finishBulkWrites` (`FileWriteback`).
    private(set) var fileWritebacks = 0

    /// Statements of the hot paths (saving a fetch, recording a 304 or a failure), compiled once
    /// per connection: compiling the five statements of a save took a fifth of its time. Held
    /// here, not by `Database`, since a statement holds its connection.
    private var statements: [String: Statement] = [:]

    /// The compiled statement for `sql`, from the cache. Statements reset after every use, so
    /// one may be used again at once; it must not be used by two callers at the same time.
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try db.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The database file.
    public var path: String { db.path }

    /// Opens the database at `path`, creating the file and its folder when missing and migrating
    /// it to the current schema. Throws `StorageError.notAFeedsDatabase` for a file that is not
    /// SQLite or belongs to another program, `.newerSchema` for one written by a newer feeds.
    public init(path: String) throws {
        try ParentDirectory.create(for: path)
        db = try Database(path: path)
        try Migrator.migrate(db)
    }

    /// The schema version of the open database (equals `FeedStore.schemaVersion` once open).
    public func databaseSchemaVersion() throws -> Int {
        try db.prepare("PRAGMA user_version").queryOne { $0.int(0) } ?? 0
    }

    /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems, one per line.
    public func integrityCheck() throws -> String {
        try db.prepare("PRAGMA integrity_check").query([]) { $0.string(0) ?? "" }.joined(separator: "\n")
    }

    /// The schema version this program creates.
    public static var schemaVersion: Int { Schema.currentVersion }
}

// Bulk writing (`feeds update`).
extension FeedStore {
    /// Settings of this connection for a long run of writes (`feeds update`):
    /// - `checkpointPages`: pages the write-ahead log may grow by before SQLite copies it into
    ///   the database file (SQLite's default is 1,000: 4 MB). A cold update writes tens of MB,
    ///   and every checkpoint reads the log back, rewrites pages (the same index pages over and
    ///   over) and syncs the file: it measured at ~10% of the writing thread's time. Checkpointed
    ///   less often, each page is copied once; crash safety is the same (commits are in the log
    ///   either way), and the log is checkpointed and emptied when the connection closes.
    /// - `cacheKiB`: SQLite's page cache (default 2,000 KiB). The update's peak memory is a
    ///   goal, and with the search index fed from memory (no reading back of the saved cards)
    ///   the update does well with 1 MiB.
    /// - Statement journals in memory (`temp_store = MEMORY`). Inside a batch's transaction each
    ///   card's INSERT keeps one (its trigger and foreign key may abort it after it changed pages),
    ///   and SQLite wrote them to files in /var/tmp: a page number and a page for each of the ~14
    ///   pages an insert changes, 29 writes a card (132,000 of the 204,000 pwrite calls of a cold
    ///   update of 200 feeds). In memory they are a few pages, freed as each statement ends.
    ///   Only here: elsewhere a big sort may go to a temporary file rather than to memory.
    /// - The log file kept when this connection closes last (`Database.keepLogFile`), for the
    ///   next update to write over (see `leaveLogForNextRun`).
    /// - The log's pages started on their way to the disk after each batch's commit
    ///   (`FileWriteback`), rather than all of them synced by the checkpoint at the run's end.
    public func tuneForBulkWrites(checkpointPages: Int, cacheKiB: Int) throws {
        try db.execute("PRAGMA wal_autocheckpoint = \(max(1, checkpointPages)); PRAGMA cache_size = -\(max(64, cacheKiB)); PRAGMA temp_store = MEMORY")
        try db.keepLogFile()
        writesLogBack = true
    }

    /// Runs `body` in one transaction, committed at its end: the methods of this store called in
    /// it write inside that transaction instead of each in its own, and all of them reach the
    /// database together or none does. When one of them throws (its caller sees its error as
    /// usual), nothing more is written and the whole is rolled back at the end: this then throws
    /// `StorageError.batchNotCommitted` (or `body`'s own error), and the caller writes each again
    /// on its own. `feeds update` saves many sources so: one commit writes each page changed
    /// once, where a commit per source wrote the same index pages again and again.
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        precondition(batchRows == nil, "Storage: inOneTransaction does not nest")
        batchRows = []
        defer { batchRows = nil }
        let result = try db.batchTransaction(body)
        for (id, row) in batchRows ?? [] { searchBacklog.byID[id] = row }
        if writesLogBack, FileWriteback.start(db, .log) { logWritebacks += 1 }
        return result
    }

    /// What a run's saves left to its end: the `title` order's new keys moved out of their log
    /// in key order, and folded once they are `titleFoldKeys` or more (`settleTitleOrder`), then
    /// the log copied into the database file as far as no reader needs it (a PASSIVE
    /// checkpoint). The update calls this while the search index thread does its last refresh
    /// and closes its file: the copy, which closing the connection did after that thread had
    /// ended, now runs beside it on the other core, and the close copies only what the reader
    /// held back (the fold's pages). Measured (200 new feeds, 4 interleaved runs each), from the
    /// end of the saving to the exit: on a million cards 0.20-0.43 s before, 0.15-0.30 s after;
    /// on an empty home 0.10-0.13 s before, 0.09-0.12 s after.
    ///
    /// What the copy wrote is then started on its way to the disk (`FileWriteback`),
    /// to be written while the index thread works rather than synced all at the very end.
    public func finishBulkWrites() throws {
        try settleTitleOrder(foldingAtLeast: titleFoldKeys)
        try settleDateOrder(foldingAtLeast: dateFoldCards)
        try db.execute("PRAGMA main.wal_checkpoint(PASSIVE)")
        if FileWriteback.start(db, .database) { fileWritebacks += 1 }
    }

    /// The end of an update, once its other connections are done: the cards' log restarted for
    /// the next update (`Database.restartLogForNextRun`; the update's connections keep the log
    /// file, see `tuneForBulkWrites`), so the next one writes it over the pages this one left in
    /// the system's cache.
    public func leaveLogForNextRun() throws {
        try db.restartLogForNextRun(version: Schema.currentVersion)
    }
}
