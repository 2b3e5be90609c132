import XCTest
import FeedModel
@testable import Storage

/// `feeds update` starts its logs on their way to the disk after each commit (`LogWriteback`),
/// so that the checkpoint at its end does not wait for all of them: the cards' log after each
/// batch, the search index's after each refresh; with a descriptor of its own, which takes none
/// of SQLite's locks with it when it closes.
final class LogWritebackTests: StoreTestCase {
    func testEachBatchOfAnUpdateStartsTheCardsLogOnItsWayToTheDisk() throws {
        XCTAssertNil(store.logWriteback, "only the update's connection")
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1_024)
        let writeback = try XCTUnwrap(store.logWriteback)
        XCTAssertEqual(writeback.path, databasePath + "-wal")
        let source = try addSource()
        for batch in 0..<2 {
            try store.inOneTransaction {
                try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: (0..<20).map { article("b\(batch)-\($0)") },
                                    validators: CacheValidators(), now: t(1 + batch), nextDue: nil)
            }
            XCTAssertEqual(writeback.starts, batch + 1, "one start a committed batch")
        }
        XCTAssertEqual(try allCards().count, 40)
    }

    func testEachRefreshOfTheUpdatesIndexThreadStartsTheIndexLogOnItsWayToTheDisk() throws {
        try save([article("a1"), article("a2")], to: try addSource(), at: t(1))
        let indexer = try SearchIndexer(storePath: databasePath)
        XCTAssertNil(indexer.logWriteback, "only the update's index thread")
        try indexer.keepLogFiles()
        let writeback = try XCTUnwrap(indexer.logWriteback)
        XCTAssertEqual(writeback.path, SearchIndexer.path(forStore: databasePath) + "-wal")
        XCTAssertEqual(try indexer.refresh().indexed, 2)
        XCTAssertEqual(writeback.starts, 1)
        XCTAssertEqual(try indexer.refresh().indexed, 0)
        XCTAssertEqual(writeback.starts, 1, "a refresh with nothing new commits nothing")
    }

    func testALogFileNotThereYetIsOpenedOnceItIs() throws {
        let path = directory.file("later.db-wal").path
        let writeback = LogWriteback(path: path)
        XCTAssertFalse(writeback.start())
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 8_192)))
        XCTAssertTrue(writeback.start())
        XCTAssertEqual(writeback.starts, 1)
    }

    /// Closing a descriptor drops every POSIX lock its process holds on that file. SQLite's
    /// locks are on the database file and its shared-memory index, none on the log: with this
    /// connection writing, the writeback's descriptor of the log opened and closed, another
    /// process (the sqlite3 shell) still cannot write.
    func testClosingTheLogsDescriptorLeavesSQLitesLocksHeld() throws {
        try save([article("a1")], to: try addSource(), at: t(1))
        try store.db.execute("BEGIN IMMEDIATE")
        try store.db.execute("UPDATE sources SET name = 'held'")
        do {
            let writeback = try XCTUnwrap(store.db.logPath().map(LogWriteback.init(path:)))
            XCTAssertTrue(writeback.start())
        }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [databasePath, "BEGIN IMMEDIATE; UPDATE sources SET name = 'other'; COMMIT;"]
        let errors = Pipe()
        shell.standardError = errors
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotEqual(shell.terminationStatus, 0)
        XCTAssertTrue(message.contains("locked"), message)
        try store.db.execute("COMMIT")
        XCTAssertEqual(try store.db.prepare("SELECT name FROM sources").queryOne { $0.string(0) }, "held")
    }
}
