#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import FeedModel

/// The search index's own database file, next to the cards' (`feeds.db` -> `feeds.search.db`),
/// and the connection that writes it. One per thread, like `FeedStore`.
///
/// Why a file of its own: indexing is most of the writing work of a cold `feeds update`, and
/// SQLite lets one connection at a time write a file. In its own file the index is written by
/// its own connection (a thread of its own during an update) while the cards go on being
/// saved. The index is derived data: a missing, damaged or foreign file is rebuilt from the
/// cards, never an error.
///
/// How it follows the cards' database (`Schema` migration 6): the index holds every card with
/// id <= its mark `cards_through`, as the card was at its last refresh; the cards' database
/// logs each later change (text changed, card deleted, a new card whose id is at or below the
/// highest deleted one) in `card_search_changes`, and the index records the last log entry it
/// has read (`changes_through`). A refresh reads, in one snapshot of the cards' database, the
/// cards above the mark and the cards named by newer log entries, as they are now, and writes
/// them (or removes the words of the deleted) in one transaction of the index file.
public final class SearchIndexer {
    /// The version of the index file's schema (its `user_version`); another number means a
    /// file this program does not know, which is rebuilt.
    /// 2: text folded by `SearchFolding` before unicode61 (ß as ss, ligatures, full width).
    static let schemaVersion = 2
    /// The name the index file has when attached to a store's connection (for searching).
    static let attachedName = "search"

    let db: Database
    /// Whether the index's log is started on its way to the disk after each refresh
    /// (`keepLogFiles`: the update's index thread; see `FileWriteback`), and how many times it was.
    private var writesLogBack = false
    private(set) var logWritebacks = 0
    /// Turns a description into the text to index (see `FeedStore.descriptionText`), for the
    /// cards whose text is not among the rows handed to `refresh`.
    public var descriptionText: ((String) -> String)?

    /// The index file of the cards' database at `storePath`.
    public static func path(forStore storePath: String) -> String {
        storePath.hasSuffix(".db") ? String(storePath.dropLast(3)) + ".search.db" : storePath + ".search"
    }

    /// Opens (creating or rebuilding when needed) the index file of the cards' database at
    /// `storePath`, which must exist and be migrated (`FeedStore` does both).
    public init(storePath: String) throws {
        let path = Self.path(forStore: storePath)
        db = try Self.openIndexFile(path)
        let attach = try db.prepare("ATTACH DATABASE ?1 AS store")
        try attach.execute([.text(storePath)])
        try db.execute("PRAGMA store.cache_size = -512; PRAGMA wal_autocheckpoint = 16000")
        // The merge policy, in this one place for a new index and for one made before it (which
        // has SQLite's default): written once, then only read. Should the file be busy, the
        // index works as well with the default, and the next opening sets it.
        // `usermerge` is the same number for the update's merge steps (`mergeStep`).
        for name in ["automerge", "usermerge"] where try setting(name) != Self.automerge {
            try? setSetting(name, Self.automerge)
        }
    }

    /// How many segments of one level FTS5 waits for before merging them into one of the next
    /// (its 'automerge'; SQLite's default is 4). Every level a card's words climb rewrites them
    /// once, and there are about log(cards) / log(automerge) levels: at 8 the index is written
    /// less for the same cards, and a search reads at most 7 segments a level (the million's
    /// index has 6 levels). Measured on a copy of the million cards' index, 180 refreshes of 800
    /// cards (36 updates of 200 feeds' worth): 14.5 s at 4, 12.4 s at 8 (-14%; the longest
    /// refresh 220 and 219 ms), 11.8 s at 16 but one refresh of 1.5 s (FTS5's crisis merge,
    /// at 16 segments of a level, merges them all in one refresh).
    static let automerge = 8

    /// One of FTS5's settings of the index (nil: never set, SQLite's default).
    func setting(_ name: String) throws -> Int? {
        try db.prepare("SELECT v FROM card_search_config WHERE k = ?1").queryOne([.text(name)]) { $0.int(0) } ?? nil
    }

    /// Writes one of FTS5's settings (kept in the index file), or runs one of its commands
    /// ('merge'), through the table's special INSERT. `name` is one of this type's own words.
    private func setSetting(_ name: String, _ value: Int) throws {
        try db.execute("INSERT INTO card_search (card_search, rank) VALUES ('\(name)', \(value))")
    }

    // MARK: - Merges out of the update's last stretch

    /// FTS5 merges nothing when a refresh writes, until `resumeMerges`: the update's index
    /// thread merges in `mergeStep`s when it waits for rows instead. FTS5 does merge work in
    /// each write in proportion to the pages written and to the levels the index has (a new
    /// index 1, a home a few updates old 3, the bench's million cards 4), so on any home but a
    /// new one the thread's refreshes took ~40% longer, it fell behind the saving, and the
    /// run's end waited for its last refreshes and for their merged pages to be synced: 200 new
    /// feeds on a home six updates old, the end 177 ms against an empty home's 84 (with merges
    /// left out altogether 90 ms). The setting is the index's own, written in its file; a run
    /// that stops before `resumeMerges` leaves it to the next `SearchIndexer` opened, which
    /// puts `automerge` back. Where idle time does not keep up, the thread merges in refreshes
    /// again once a level piles up (`levelSegments`, `SearchIndexThread.valveSegments`), short of
    /// the 16 segments at which FTS5 merges a whole level inside one write ('crisismerge').
    public func deferMerges() throws {
        try setSetting("automerge", 0)
    }

    /// The segments on each level of the index, lowest first, read from FTS5's structure
    /// record (its row 10 of `card_search_data`: a 4-byte cookie, then varints: levels,
    /// segments, write counter, then per level the segments being merged, the segments, and
    /// per segment its id, first and last page; SQLite 3.44 and later mark a second version by
    /// 4 more bytes and write 5 more varints a segment). Nil when the record is missing or
    /// reads otherwise, or cannot be read (a busy file): the caller then merges as FTS5 does
    /// by default.
    public func levelSegments() -> [Int]? {
        guard let record = (try? db.prepare("SELECT block FROM card_search_data WHERE id = 10").queryOne([], { $0.blob(0) })) ?? nil
        else { return nil }
        return Self.levelSegments(structure: record)
    }

    static func levelSegments(structure bytes: [UInt8]) -> [Int]? {
        guard bytes.count >= 4 else { return nil }
        var reader = VarintReader(bytes: bytes, at: 4)
        var version2 = false
        if bytes.count >= 8, Array(bytes[4..<8]) == [0xFF, 0x00, 0x00, 0x01] {
            version2 = true
            reader.offset = 8
        }
        guard let levels = reader.next(), let segments = reader.next(), reader.next() != nil,
              levels <= 64, segments <= 10_000 else { return nil }
        var counts: [Int] = []
        var total: UInt64 = 0
        for _ in 0..<levels {
            guard reader.next() != nil, let count = reader.next(), count <= 10_000 else { return nil }
            // Each segment's numbers, skipped: 3, or 8 in the second version.
            for _ in 0..<(count * (version2 ? 8 : 3)) {
                guard reader.next() != nil else { return nil }
            }
            counts.append(Int(count))
            total += count
        }
        return total == segments ? counts : nil
    }

    /// Merges as a refresh did before `deferMerges`.
    public func resumeMerges() throws {
        try setSetting("automerge", Self.automerge)
    }

    /// Merges segments of a level that has `automerge` of them (its 'usermerge' is that same
    /// number), or goes on with a merge under way, writing about `pages` pages in its own
    /// transaction; false when there was nothing to merge.
    public func mergeStep(pages: Int) throws -> Bool {
        let before = db.totalChanges
        try setSetting("merge", max(1, pages))
        startLogWriteback()
        // FTS5's own test: two rows or more changed when it merged anything.
        return db.totalChanges - before >= 2
    }

    /// The index file, with its schema; a file that is not SQLite or has another schema
    /// version is removed and made again (it holds nothing the cards do not).
    private static func openIndexFile(_ path: String) throws -> Database {
        do {
            let db = try Database(path: path)
            if try createSchema(db) { return db }
        } catch let error as StorageError {
            switch error {
            case .corrupt, .notAFeedsDatabase, .sqlite: break  // damaged or not SQLite: made again below
            default: throw error  // locked, disk full, read-only…: the same for a new file
            }
        }
        for suffix in ["", "-wal", "-shm"] { _ = unlink(path + suffix) }
        let db = try Database(path: path)
        guard try createSchema(db) else {
            throw StorageError.sqlite(path: path, code: 1, message: "the search index could not be created",
                                      context: "creating the search index")
        }
        return db
    }

    /// Creates the schema in a new file; true when the file has (now) the schema of this version.
    private static func createSchema(_ db: Database) throws -> Bool {
        let version = try db.prepare("PRAGMA user_version").queryOne { $0.int(0) } ?? 0
        if version == schemaVersion { return true }
        guard version == 0 else { return false }
        return try db.writeTransaction {
            // Read again under the lock: another process may have created it meanwhile.
            let version = try db.prepare("PRAGMA user_version").queryOne { $0.int(0) } ?? 0
            guard version == 0 else { return version == schemaVersion }
            let objects = try db.prepare("SELECT count(*) FROM sqlite_schema").queryOne { $0.int(0) } ?? 0
            guard objects == 0 else { return false }
            try db.execute("""
                CREATE VIRTUAL TABLE card_search USING fts5 (
                    title, description, author,
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                -- Relevance: a word in the title weighs ten times one in the description; the author five.
                INSERT INTO card_search (card_search, rank) VALUES ('rank', 'bm25(10.0, 1.0, 5.0)');
                CREATE TABLE search_state (
                    id              INTEGER PRIMARY KEY CHECK (id = 1),
                    store_token     TEXT    NOT NULL,
                    cards_through   INTEGER NOT NULL,
                    changes_through INTEGER NOT NULL
                ) STRICT;
                INSERT INTO search_state (id, store_token, cards_through, changes_through) VALUES (1, '', 0, 0);
                PRAGMA user_version = \(schemaVersion);
                """)
            return true
        }
    }

    /// Where the index stands, and where the cards' database stands.
    struct Marks: Equatable {
        var token: String
        var cardsThrough: Int64
        var changesThrough: Int64
    }

    /// Both marks, read on `db`, where the index file is schema `index` and the cards' database
    /// schema `store` (this type's connection, or a store's with the index attached). The index
    /// is current when they are equal.
    static func marks(on db: Database, index: String, store: String) throws -> (index: Marks, store: Marks) {
        try db.prepare("""
            SELECT i.store_token, i.cards_through, i.changes_through,
                   (SELECT token FROM \(store).search_index_identity),
                   (SELECT coalesce(max(id), 0) FROM \(store).cards),
                   coalesce((SELECT seq FROM \(store).sqlite_sequence WHERE name = 'card_search_changes'), 0)
            FROM \(index).search_state i
            """).queryOne { row in
            (Marks(token: row.string(0) ?? "", cardsThrough: row.int64(1), changesThrough: row.int64(2)),
             Marks(token: row.string(3) ?? "", cardsThrough: row.int64(4), changesThrough: row.int64(5)))
        } ?? (Marks(token: "", cardsThrough: -1, changesThrough: -1), Marks(token: "", cardsThrough: 0, changesThrough: 0))
        // (No state row, in a file damaged by hand: never current; `refresh` puts the row back.)
    }

    private func marks() throws -> (index: Marks, store: Marks) {
        try Self.marks(on: db, index: "main", store: "store")
    }

    /// Brings the index up to the cards' database as it is now. `rows` are index rows of new
    /// cards whose text was extracted already (`FeedStore.takeSearchRows`); any card they do not
    /// cover is read from the database and converted. Returns how many cards were (re)indexed,
    /// and the last log entry now read (see `FeedStore.forgetSearchChanges`).
    @discardableResult
    public func refresh(_ rows: SearchRows = SearchRows()) throws -> SearchRefresh {
        // Nothing new: no write lock taken, nothing written.
        let before = try marks()
        if before.index == before.store {
            return SearchRefresh(indexed: 0, changesThrough: before.store.changesThrough)
        }
        // Deferred: BEGIN IMMEDIATE would take the write lock of the attached cards' database
        // too (blocking its writer). The first statement takes this file's lock, waiting for
        // another indexer if need be, before anything is read.
        try db.execute("BEGIN")
        do {
            try db.execute("UPDATE search_state SET id = 1")
            let result = try refreshLocked(rows)
            try db.execute("COMMIT")
            startLogWriteback()
            return result
        } catch {
            if db.isInTransaction { try? db.execute("ROLLBACK") }
            throw error
        }
    }

    /// Keeps both log files, the cards' database's and the index's, should this connection
    /// close them last, as the update's own connection keeps the cards' one
    /// (`FeedStore.tuneForBulkWrites`): the update's index thread. The index's log (14-27 MB
    /// a run of 200 new feeds on a million cards) was a new file every run, each of its pages
    /// fresh (see `Database.keepLogFile`), the directory synced at its creation. Its pages are
    /// then started on their way to the disk after each refresh (`FileWriteback`).
    public func keepLogFiles() throws {
        try db.keepLogFile("store")
        try db.keepLogFile("main")
        writesLogBack = true
    }

    /// After each write of the update's thread (a refresh, a merge step): the log's new pages
    /// started on their way to the disk (`keepLogFiles`); elsewhere nothing.
    private func startLogWriteback() {
        if writesLogBack, FileWriteback.start(db, .log) { logWritebacks += 1 }
    }

    /// The end of an update's indexing: the index's log restarted for the next update as the
    /// cards' is (`Database.restartLogForNextRun`, of the index file alone). `KeptLog.clear`
    /// empties it once every connection is closed.
    public func leaveLogForNextRun() throws {
        try db.restartLogForNextRun(version: Self.schemaVersion)
    }

    /// The page cache of this connection's index file, in KiB (at least 64): `feeds update`'s
    /// index thread keeps it small, as the run's peak memory is a goal.
    public func setCacheKiB(_ kiB: Int) throws {
        try db.execute("PRAGMA main.cache_size = -\(max(64, kiB))")
    }

    /// The page cache of this connection's index file, in KiB (what `setCacheKiB` set).
    public var cacheKiB: Int {
        get throws { -(try db.prepare("PRAGMA main.cache_size").queryOne { $0.int(0) } ?? 0) }
    }

    /// Copies the write-ahead logs of the cards' database and of the index into their files as
    /// far as it can without waiting for anyone (a PASSIVE checkpoint of both), so that work is
    /// done on this connection's thread while the writer goes on, rather than by the writer
    /// itself or when the connections close at the end of the run.
    public func checkpoint() throws {
        try db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    private func refreshLocked(_ rows: SearchRows) throws -> SearchRefresh {
        try db.execute("INSERT OR IGNORE INTO search_state (id, store_token, cards_through, changes_through) VALUES (1, '', 0, 0)")
        var (index, store) = try marks()
        // Another database's index, or one ahead of its database (an older copy of the
        // database put back): start again from nothing.
        if index.token != store.token || index.changesThrough > store.changesThrough
            || (index.changesThrough == store.changesThrough && index.cardsThrough > store.cardsThrough) {
            try db.execute("DELETE FROM card_search")
            index = Marks(token: store.token, cardsThrough: 0, changesThrough: store.changesThrough)
        }
        let write = try db.prepare(
            "INSERT OR REPLACE INTO card_search (rowid, title, description, author) VALUES (?1, ?2, ?3, ?4)")
        let read = try db.prepare("SELECT title, description, author FROM store.cards WHERE id = ?1")
        let remove = try db.prepare("DELETE FROM card_search WHERE rowid = ?1")
        let convert = descriptionText
        var count = 0
        /// Writes the card as the database has it now; false when it no longer exists.
        func indexFromDatabase(_ id: Int64) throws -> Bool {
            guard let (title, description, author) = try read.queryOne([.integer(id)], { row in
                (row.string(0), row.string(1), row.string(2))
            }) else { return false }
            try write.execute([.integer(id), SQLValue(SearchFolding.fold(title)),
                               SQLValue(SearchFolding.fold(SearchIndex.descriptionText(description, convert))),
                               SQLValue(SearchFolding.fold(author))])
            count += 1
            return true
        }
        func writeRow(_ row: SearchRow) throws {
            try write.execute([.integer(row.id), SQLValue(SearchFolding.fold(row.title)),
                               SQLValue(SearchFolding.fold(row.text)), SQLValue(SearchFolding.fold(row.author))])
            count += 1
        }
        /// A new card: from its row when given, else from the database.
        func indexNew(_ id: Int64) throws {
            if let row = rows.byID[id] { try writeRow(row) } else { _ = try indexFromDatabase(id) }
        }
        /// The ids of the cards in (low, high], in batches (a first refresh may see 100,000).
        let ids = try db.prepare("SELECT id FROM store.cards WHERE id > ?1 AND id <= ?2 ORDER BY id LIMIT 1000")
        func forEachCard(after low: Int64, through high: Int64, _ body: (Int64) throws -> Void) throws {
            var last = low
            while last < high {
                let batch = try ids.query([.integer(last), .integer(high)]) { $0.int64(0) }
                guard let tail = batch.last else { break }
                for id in batch { try body(id) }
                last = tail
            }
        }

        // New cards at or below the mark: after a delete SQLite may give a new card an id at
        // or below it, but never one at or below the highest id left then (the delete's
        // `floor`, logged). Those not in the index are new.
        if store.changesThrough > index.changesThrough, index.cardsThrough > 0,
           let floor = try db.prepare("""
               SELECT min(floor) FROM store.card_search_changes WHERE seq > ?1 AND seq <= ?2
               """).queryOne([.integer(index.changesThrough), .integer(store.changesThrough)], { $0.isNull(0) ? nil : $0.int64(0) }) ?? nil,
           floor < index.cardsThrough {
            let indexed = try db.prepare("SELECT 1 FROM card_search WHERE rowid = ?1")
            try forEachCard(after: floor, through: min(index.cardsThrough, store.cardsThrough)) { id in
                if try indexed.queryOne([.integer(id)], { _ in true }) == nil { try indexNew(id) }
            }
        }
        // New cards above the mark: from the rows given when they cover the range (ids are
        // distinct, so as many rows in the range as ids in it means all of them; a row of a card
        // deleted since is undone by its logged delete below), else id by id.
        if store.cardsThrough > index.cardsThrough {
            let given = rows.byID.values.filter { $0.id > index.cardsThrough && $0.id <= store.cardsThrough }
            if Int64(given.count) == store.cardsThrough - index.cardsThrough {
                for row in given.sorted(by: { $0.id < $1.id }) { try writeRow(row) }
            } else {
                try forEachCard(after: index.cardsThrough, through: store.cardsThrough, indexNew)
            }
        }
        // Logged changes, after the new cards: a row handed over may be older than the card.
        if store.changesThrough > index.changesThrough {
            let changed = try db.prepare("""
                SELECT DISTINCT card_id FROM store.card_search_changes WHERE seq > ?1 AND seq <= ?2
                """).query([.integer(index.changesThrough), .integer(store.changesThrough)]) { $0.int64(0) }
            var removed = 0
            for id in changed where try !indexFromDatabase(id) {
                try remove.execute([.integer(id)])
                removed += 1
            }
            try compactAfterRemoving(removed)
        }
        try db.prepare("""
            UPDATE search_state SET store_token = ?1, cards_through = ?2, changes_through = ?3
            """).execute([.text(store.token), .integer(store.cardsThrough), .integer(store.changesThrough)])
        return SearchRefresh(indexed: count, changesThrough: store.changesThrough)
    }
}

extension SearchIndexer {
    /// Rows removed at once from which the index is compacted, when they are also at least
    /// `compactionShare` of the rows left.
    static let compactionMinimum = 1_000
    static let compactionShare = 10

    /// After a big removal (retention's first prune of years of cards, a source of many cards
    /// removed), FTS5's 'optimize': merges the index into one segment, dropping the removed
    /// rows' entries. FTS5 removes a row by writing a delete marker next to its words, which
    /// goes with the words only when the segment holding them is merged, and the biggest
    /// segment (most of the index) is rarely merged: measured, a prune of 20 % of 20,000 cards
    /// left the index's word lists 7 % bigger than before it; optimized, 25 % smaller. It
    /// rewrites the whole index (seconds for a million cards), so only when the removal is a
    /// sizable share of it; small prunes leave their markers to FTS5's own merging of the
    /// small segments they are in.
    func compactAfterRemoving(_ removed: Int) throws {
        guard removed >= Self.compactionMinimum else { return }
        let left = try db.prepare("SELECT count(*) FROM card_search_docsize").queryOne { $0.int(0) } ?? 0
        guard removed * Self.compactionShare >= left else { return }
        try db.execute("INSERT INTO card_search (card_search) VALUES ('optimize')")
    }
}

/// What a refresh of the search index did.
public struct SearchRefresh: Sendable, Equatable {
    /// Cards written to the index (new, changed or read back).
    public var indexed: Int
    /// The last entry of the cards' change log the index has read: entries up to it may go.
    public var changesThrough: Int64

    public init(indexed: Int, changesThrough: Int64) {
        self.indexed = indexed
        self.changesThrough = changesThrough
    }
}

/// Index rows of cards, with their text extracted already, by card id (handed from the store
/// that saved them to the indexer, possibly on another thread).
public struct SearchRows: Sendable {
    var byID: [Int64: SearchRow] = [:]

    public init() {}

    public var count: Int { byID.count }
    public var isEmpty: Bool { byID.isEmpty }

    /// Adds `other`'s rows; its rows win (they are newer).
    public mutating func merge(_ other: SearchRows) {
        byID.merge(other.byID) { _, newer in newer }
    }
}

/// SQLite's variable-length integers (1-9 bytes, 7 bits a byte, big end first, the ninth byte
/// whole), as FTS5 writes them; nil past the end.
struct VarintReader {
    let bytes: [UInt8]
    var offset: Int

    init(bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func next() -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            if index == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }
}
