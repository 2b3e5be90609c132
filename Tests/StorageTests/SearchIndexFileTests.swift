import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The search index in its own file (`SearchIndexer`): derived data, rebuilt when missing,
/// damaged or another database's; written without the cards' write lock; right even when the
/// rows handed to it are older than the cards.
final class SearchIndexFileTests: StoreTestCase {
    private var source: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try addSource(name: "Feed")
    }

    private func card(_ guid: String, _ title: String, _ description: String? = nil) -> Card {
        Card(id: guid, title: title, description: description, link: "https://example.org/\(guid)")
    }

    private func found(_ text: String) throws -> [String] {
        try store.search(text, order: .newest).compactMap(\.card.id)
    }

    private var indexPath: String { SearchIndexer.path(forStore: databasePath) }

    /// Closes the store (and its index connection) and opens the database again.
    private func reopen() throws {
        store = nil
        store = try FeedStore(path: databasePath)
    }

    func testTheIndexIsAFileOfItsOwnNextToTheDatabase() throws {
        XCTAssertEqual(indexPath, directory.file("feeds.search.db").path)
        XCTAssertEqual(SearchIndexer.path(forStore: "/x/cards"), "/x/cards.search")
        try save([card("a", "Aardvark")], to: source, at: t(1))
        XCTAssertEqual(try found("aardvark"), ["a"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexPath))
        let tables = try store.db.prepare("SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name LIKE 'card_search%'")
            .query([]) { $0.string(0) ?? "" }
        XCTAssertEqual(tables, ["card_search_changes"], "only the change log stays in the cards' database")
    }

    /// FTS5 merges a level's segments eight at a time (`SearchIndexer.automerge`), in a new
    /// index and in one made before, which has SQLite's default until it is opened.
    func testTheIndexMergesSegmentsEightAtATimeNewOrOld() throws {
        try save([card("a", "Aardvark")], to: source, at: t(1))
        XCTAssertEqual(try SearchIndexer(storePath: databasePath).setting("automerge"), 8)
        let older = try SearchIndexer(storePath: databasePath)
        try older.db.execute("DELETE FROM card_search_config WHERE k = 'automerge'")
        XCTAssertNil(try older.setting("automerge"), "as SQLite makes an index")
        let opened = try SearchIndexer(storePath: databasePath)
        XCTAssertEqual(try opened.setting("automerge"), 8)
        try save([card("b", "Badger")], to: source, at: t(2))
        XCTAssertEqual(try found("badger"), ["b"])
        XCTAssertEqual(try found("aardvark"), ["a"])
    }

    func testAMissingIndexIsRebuilt() throws {
        try save([card("a", "Badger"), card("b", "Beaver")], to: source, at: t(1))
        XCTAssertEqual(try found("badger"), ["a"])
        store = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: indexPath + suffix) }
        try reopen()
        XCTAssertEqual(try found("badger OR beaver").sorted(), ["a", "b"])
        assertSearchIndexInStep()
    }

    func testADamagedIndexIsRebuilt() throws {
        try save([card("a", "Camel")], to: source, at: t(1))
        XCTAssertEqual(try found("camel"), ["a"])
        store = nil
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: indexPath + suffix) }
        try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: indexPath))
        try reopen()
        XCTAssertEqual(try found("camel"), ["a"])
        assertSearchIndexInStep()
    }

    /// An index file whose state row went missing (edited by hand) is rebuilt, not trusted.
    func testAnIndexWithoutItsStateRowIsRebuilt() throws {
        try save([card("a", "Jackal")], to: source, at: t(1))
        XCTAssertEqual(try found("jackal"), ["a"])
        try attachedSearchIndex().execute("DELETE FROM search.search_state")
        try save([card("b", "Koala")], to: source, at: t(2))
        XCTAssertEqual(try found("koala OR jackal").sorted(), ["a", "b"])
        assertSearchIndexInStep()
    }

    /// A new database in place of a deleted one gives its first cards the ids the old cards
    /// had: the old index must not answer for them.
    func testTheIndexOfAnotherDatabaseIsRebuilt() throws {
        try save([card("a", "Dingo")], to: source, at: t(1))
        XCTAssertEqual(try found("dingo"), ["a"])
        store = nil
        try FileManager.default.removeItem(atPath: databasePath)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexPath), "the old index stays behind")
        try reopen()
        source = try addSource(name: "New")
        try save([card("e", "Eland")], to: source, at: t(2))
        XCTAssertEqual(try store.cards().map(\.id.rawValue), [1], "the same id as the old card")
        XCTAssertEqual(try found("dingo"), [], "the old card's words are gone")
        XCTAssertEqual(try found("eland"), ["e"])
        assertSearchIndexInStep()
    }

    /// The indexer never takes the cards' database's write lock: it indexes while a writer
    /// holds it (with that lock it would wait out the busy timeout and fail with "locked").
    func testIndexingGoesOnWhileTheCardsAreBeingWritten() throws {
        try save([card("a", "Ferret")], to: source, at: t(1))
        try store.db.execute("BEGIN IMMEDIATE")
        try store.db.execute("UPDATE cards SET last_seen_at = last_seen_at + 1")
        let indexer = try SearchIndexer(storePath: databasePath)
        XCTAssertEqual(try indexer.refresh().indexed, 1, "the committed card, read while the writer holds its lock")
        XCTAssertNoThrow(try indexer.checkpoint())
        try store.db.execute("COMMIT")
        XCTAssertEqual(try found("ferret"), ["a"])
    }

    /// Rows handed over are only a shortcut: a card changed after its row was taken is
    /// indexed as the database has it.
    func testRowsOlderThanTheirCardsAreCorrectedFromTheDatabase() throws {
        try store.refreshSearchIndex()
        let marked: (String) -> String = { "memo " + $0 }
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"),
                            prepared: PreparedCards([card("a", "Gecko", "first")], descriptionText: marked),
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        let rows = store.takeSearchRows()
        XCTAssertEqual(rows.count, 1)
        try save([card("a", "Gecko", "second")], to: source, at: t(2))
        _ = store.takeSearchRows()
        let indexer = try SearchIndexer(storePath: databasePath)
        XCTAssertEqual(try indexer.refresh(rows).indexed, 2, "the row, then the card read back for its logged change")
        XCTAssertEqual(try found("second"), ["a"])
        XCTAssertEqual(try found("first OR memo"), [])
        assertSearchIndexInStep()
    }

    /// The rows are used when they cover the new cards: nothing is read back or converted.
    func testRowsCoveringTheNewCardsAreWrittenAsTheyAre() throws {
        try store.refreshSearchIndex()
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"),
                            prepared: PreparedCards([card("a", "Heron", "<b>x</b>"), card("b", "Ibis", "y")],
                                                    descriptionText: { _ in "memo" }),
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        let indexer = try SearchIndexer(storePath: databasePath)
        var converted = 0
        indexer.descriptionText = { converted += 1; return $0 }
        XCTAssertEqual(try indexer.refresh(store.takeSearchRows()).indexed, 2)
        XCTAssertEqual(converted, 0)
        XCTAssertEqual(try found("memo").sorted(), ["a", "b"])
    }
}
