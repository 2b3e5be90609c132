import XCTest
import FeedModel
@testable import Storage

/// The search index's write-ahead log, kept by an update's index thread for the next update
/// as the cards' log is (`SearchIndexer.keepLogFiles`, `leaveLogForNextRun`, `KeptLog.clear`
/// on the index file): restarted with one valid frame, emptied once no connection is open, and
/// the index reads afterwards exactly as it was written.
final class KeptSearchLogTests: StoreTestCase {
    private var indexPath: String { SearchIndexer.path(forStore: databasePath) }
    private var logPath: String { indexPath + "-wal" }

    /// This test's log's valid frames (`validLogFrames`).
    private func validFrames() -> Int? { validLogFrames(atPath: logPath) }

    /// Saves `count` cards, each with a word of its own ("uniqueN") and a common one, and
    /// indexes them as an update's index thread does, its connection closed at the end.
    private func indexAsAnUpdate(_ source: SourceID, first: Int, count: Int, at now: Timestamp) throws {
        let cards = (first..<first + count).map {
            article("g\($0)", published: t(1, $0), description: "unique\($0) " + String(repeating: "common words ", count: 60))
        }
        try store.inOneTransaction { _ = try save(cards, to: source, at: now) }
        var indexer: SearchIndexer? = try SearchIndexer(storePath: databasePath)
        try indexer?.keepLogFiles()
        XCTAssertEqual(try indexer?.refresh().indexed, count)
        try indexer?.leaveLogForNextRun()
        indexer = nil
    }

    private func found(_ word: String) throws -> Int {
        try store.search(word, query: CardQuery(), order: .newest).count
    }

    func testTheIndexLogIsKeptRestartedAndEmptiedAndTheIndexReadsAsWritten() throws {
        let source = try addSource()
        try indexAsAnUpdate(source, first: 0, count: 300, at: t(2))
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int)
        XCTAssertGreaterThan(size, 100_000, "the index's log file is kept, pages long")
        XCTAssertEqual(validFrames(), 1, "restarted: one frame, the rest another salt's")

        store = nil
        XCTAssertTrue(KeptLog.clear(databasePath: indexPath))
        XCTAssertNil(validFrames(), "the header zeroed: no valid frame left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: logPath), "the file stays, for the next update to write over")

        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try found("unique7"), 1)
        XCTAssertEqual(try found("common"), 300)
        // The next update writes over the emptied file (its connection, as an update's, has
        // no index attached: a search's connection closing last would delete the log file);
        // after it, the same again.
        store = nil
        store = try FeedStore(path: databasePath)
        try indexAsAnUpdate(source, first: 300, count: 100, at: t(3))
        store = nil
        XCTAssertTrue(KeptLog.clear(databasePath: indexPath))
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try found("unique350"), 1)
        XCTAssertEqual(try found("common"), 400)
        XCTAssertEqual(try SearchIndexer(storePath: databasePath).refresh().indexed, 0, "the index in step with the cards")
    }

    /// The kept log is cut to a quarter of the index file's size (4 MiB at least), as the
    /// cards' is: a first big run does not leave its whole log behind.
    func testTheKeptIndexLogIsCutToItsBound() throws {
        let source = try addSource()
        // Words of their own (320,000 terms): an index, and a log, of several MiB.
        let cards = (0..<8_000).map { card in
            article("g\(card)", published: t(1, card), description: (0..<40).map { "w\($0)y\(card)" }.joined(separator: " "))
        }
        try store.inOneTransaction { _ = try save(cards, to: source, at: t(2)) }
        var indexer: SearchIndexer? = try SearchIndexer(storePath: databasePath)
        try indexer?.keepLogFiles()
        XCTAssertEqual(try indexer?.refresh().indexed, cards.count)
        func size(_ path: String) throws -> Int64 { try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) }
        let bound = Database.keptLogBytes(databaseBytes: try size(indexPath))
        XCTAssertGreaterThan(try size(logPath), bound, "the run's log is longer than what is kept")
        try indexer?.leaveLogForNextRun()
        indexer = nil
        XCTAssertLessThanOrEqual(try size(logPath), bound)
        XCTAssertEqual(validFrames(), 1)
    }
}
