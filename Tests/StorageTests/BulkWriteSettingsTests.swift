import XCTest
import FeedModel
@testable import Storage

/// The connection settings of `feeds update` (`tuneForBulkWrites`, the index thread's cache):
/// statement journals in memory, and what they are for still done, a statement that fails
/// halfway undone alone, the rest of its transaction kept. And the end of its writes
/// (`finishBulkWrites`): the log copied into the database file before the connection closes.
final class BulkWriteSettingsTests: StoreTestCase {
    func testBulkWritesKeepStatementJournalsInMemoryOnTheUpdatesConnectionOnly() throws {
        let before = try store.db.prepare("PRAGMA temp_store").queryOne { $0.int(0) }
        XCTAssertNotEqual(before, 2, "a plain connection keeps SQLite's default (big sorts may go to a file)")
        try store.tuneForBulkWrites(checkpointPages: 1_000, cacheKiB: 1_024)
        XCTAssertEqual(try store.db.prepare("PRAGMA temp_store").queryOne { $0.int(0) }, 2, "MEMORY")
        let other = try FeedStore(path: databasePath)
        XCTAssertNotEqual(try other.db.prepare("PRAGMA temp_store").queryOne { $0.int(0) }, 2)
    }

    /// With the journal in memory, a statement that changed some rows and then failed its CHECK
    /// is undone on its own: the cards saved before it in the same transaction stay, and the
    /// per-source counters kept by triggers agree with the rows.
    func testAStatementFailingHalfwayInABatchIsUndoneAloneWithJournalsInMemory() throws {
        try store.tuneForBulkWrites(checkpointPages: 1_000, cacheKiB: 64)
        let a = try addSource("https://a.example/feed"), b = try addSource("https://b.example/feed")
        let many = (0..<300).map { article("a\($0)", title: String(repeating: "t\($0) ", count: 40)) }
        try store.inOneTransaction {
            try store.saveFetch(sourceID: a, feed: FeedInfo(title: "A"), cards: many, validators: CacheValidators(),
                                now: t(1), nextDue: nil)
            // Every card's kind changes, and the last one fails the CHECK: many pages were changed first.
            XCTAssertThrowsError(try store.db.execute("""
                UPDATE cards SET kind = CASE WHEN id = (SELECT max(id) FROM cards) THEN 'bogus' ELSE 'image' END
                """))
            XCTAssertTrue(store.db.isInTransaction, "only the statement was undone")
            try store.saveFetch(sourceID: b, feed: FeedInfo(title: "B"), cards: [article("b1")], validators: CacheValidators(),
                                now: t(1), nextDue: nil)
        }
        let cards = try allCards()
        XCTAssertEqual(cards.count, 301)
        XCTAssertTrue(cards.allSatisfy { $0.card.kind == .article }, "the failed statement left no change behind")
        XCTAssertEqual(try store.source(id: a)?.cardCount, 300)
        XCTAssertEqual(try store.source(id: b)?.cardCount, 1)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testTheIndexThreadsCacheIsSetOnItsOwnConnection() throws {
        try save([article("a1")], to: try addSource(), at: t(1))
        let indexer = try SearchIndexer(storePath: databasePath)
        try indexer.setCacheKiB(1_024)
        XCTAssertEqual(try indexer.cacheKiB, 1_024)
        try indexer.setCacheKiB(0)
        XCTAssertEqual(try indexer.cacheKiB, 64, "at least 64 KiB, never SQLite's 0 or a negative size")
        XCTAssertEqual(try indexer.refresh().indexed, 1, "the index still works with it")
    }

    /// The update calls `finishBulkWrites` while the index thread does its last refresh, so that
    /// the log's copy into the database file runs beside it rather than at the close, after it.
    /// The file alone (copied without its log) holds the saved cards then, and not before.
    func testFinishingBulkWritesCopiesTheLogIntoTheDatabaseFile() throws {
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1_024)
        let source = try addSource()
        try store.inOneTransaction {
            try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: (0..<50).map { article("a\($0)") },
                                validators: CacheValidators(), now: t(1), nextDue: nil)
        }
        func cardsInTheFileAlone() throws -> Int {
            let copy = directory.file("copy-\(UUID().uuidString).db").path
            try FileManager.default.copyItem(atPath: databasePath, toPath: copy)
            return try FeedStore(path: copy).db.prepare("SELECT count(*) FROM cards").queryOne { $0.int(0) } ?? -1
        }
        XCTAssertEqual(try cardsInTheFileAlone(), 0, "the cards are in the log only")
        try store.finishBulkWrites()
        XCTAssertEqual(try cardsInTheFileAlone(), 50)
        XCTAssertEqual(try allCards().count, 50)
    }
}
