import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Each test gets its own folder and database; helpers keep the tests about behaviour.
class StoreTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var store: FeedStore!

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-storage")
        store = try FeedStore(path: databasePath)
    }

    override func tearDown() {
        store = nil
        directory = nil
    }

    var databasePath: String { directory.file("feeds.db").path }

    /// A moment `days` days (and `seconds`) after 2024-01-01T00:00:00Z.
    func t(_ days: Int, _ seconds: Int = 0) -> Timestamp {
        Timestamp(secondsSince1970: 1_704_067_200 + Int64(days) * 86_400 + Int64(seconds))
    }

    func addSource(_ url: String = "https://example.org/feed.xml", name: String? = nil,
                   kind: SourceKind = .feed, tags: [String] = [],
                   keepDays: Int? = nil, keepCount: Int? = nil) throws -> SourceID {
        try store.upsertSource(SourceConfiguration(url: url, name: name, kind: kind, tags: tags,
                                                   keepDays: keepDays, keepCount: keepCount), now: t(0))
    }

    /// How many walks of the unread cards' tables by date (migration 20: `t` in their views,
    /// `c` alone) a query plan (its lines, as EXPLAIN QUERY PLAN details) has: their scans, and
    /// their searches by their own key (a WITHOUT ROWID table's PRIMARY KEY; a card's row is
    /// read by its INTEGER PRIMARY KEY). (A scan of the cards' table, "SCAN c", counts too:
    /// where a test expects these walks, such a scan is a fault it counts as a wrong number.)
    func walksOfTheUnreadTables(_ plan: String) -> Int {
        plan.split(separator: "\n").filter {
            $0 == "SCAN t" || $0 == "SCAN c" || (($0.hasPrefix("SEARCH t ") || $0.hasPrefix("SEARCH c ")) && $0.contains(" USING PRIMARY KEY ("))
        }.count
    }

    func article(_ guid: String, title: String? = nil, published: Timestamp? = nil,
                 description: String? = nil) -> Card {
        Card(id: guid, title: title ?? "Title \(guid)", description: description,
             link: "https://example.org/\(guid)", published: published)
    }

    @discardableResult
    func save(_ cards: [Card], to source: SourceID, at now: Timestamp, etag: String? = nil) throws -> SaveSummary {
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"), cards: cards,
                            validators: CacheValidators(etag: etag), now: now, nextDue: nil)
    }

    func allCards() throws -> [StoredCard] { try store.cards() }

    /// A database as an older feeds left it: the first `migrations` migrations, then `sql`
    /// (its rows). Its path, for a `FeedStore` to open and migrate the rest of the way.
    func olderDatabase(migrations: Int, _ sql: String) throws -> String {
        let path = directory.file("old.db").path
        let db = try Database(path: path)
        try Migrator.migrate(db, migrations: Array(Schema.migrations.prefix(migrations)))
        try db.execute(sql)
        XCTAssertEqual(try db.prepare("PRAGMA user_version").queryOne { $0.int(0) }, migrations)
        return path
    }

    /// The search index's file, attached to the store's connection (created when missing).
    func attachedSearchIndex() throws -> Database {
        _ = try SearchIndexer(storePath: store.path)
        try store.attachSearchIndex()
        return store.db
    }

    /// After a refresh the search index holds exactly the cards (by id), and SQLite's own FTS5
    /// check of the index passes.
    func assertSearchIndexInStep(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try {
            try store.refreshSearchIndex()
            let db = try attachedSearchIndex()
            try db.execute("INSERT INTO search.card_search (card_search, rank) VALUES ('integrity-check', 1)")
            let indexed = try db.prepare("SELECT rowid FROM search.card_search ORDER BY rowid").query([]) { $0.int64(0) }
            let cards = try db.prepare("SELECT id FROM cards ORDER BY id").query([]) { $0.int64(0) }
            XCTAssertEqual(indexed, cards, "the index holds the cards", file: file, line: line)
        }(), file: file, line: line)
    }

    /// What the search index has not taken in yet: cards above its mark, and entries of the
    /// change log after the last one it read.
    func searchPending() throws -> Int {
        try attachedSearchIndex().prepare("""
            SELECT (SELECT count(*) FROM cards WHERE id > (SELECT cards_through FROM search.search_state))
                 + (SELECT count(*) FROM card_search_changes WHERE seq > (SELECT changes_through FROM search.search_state))
            """).queryOne { $0.int(0) } ?? -1
    }
}

/// Whether an EXPLAIN QUERY PLAN text of `sql` sorts cards: a TEMP B-TREE beyond the one sort of
/// `card_titles_log` each walk of the title tables makes (migration 17: the keys of an update in
/// progress, none between updates), or a walk of the title tables that is not a merge of walks.
func sortsCards(_ plan: String, sql: String) -> Bool {
    let sorts = plan.components(separatedBy: "TEMP B-TREE").count - 1
    let logWalks = sql.components(separatedBy: "card_titles_log").count - 1
    guard logWalks > 0 else { return sorts > 0 }
    return sorts > logWalks || !plan.contains("MERGE (UNION ALL)")
}
