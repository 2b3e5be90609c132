import XCTest
import CSQLite
import FeedModel
@testable import Storage

/// `feeds update` starts SQLite's files on their way to the disk (`FileWriteback`): the cards'
/// log after each batch, the search index's after each refresh, the database file after the
/// checkpoint that ends the saving; through SQLite's own descriptors, never closed, so none of
/// SQLite's locks goes with them.
final class FileWritebackTests: StoreTestCase {
    func testEachBatchOfAnUpdateStartsTheCardsLogOnItsWayToTheDisk() throws {
        let source = try addSource()
        func batch(_ n: Int) throws {
            try store.inOneTransaction {
                try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: (0..<20).map { article("b\(n)-\($0)") },
                                    validators: CacheValidators(), now: t(1 + n), nextDue: nil)
            }
        }
        try batch(0)
        XCTAssertEqual(store.logWritebacks, 0, "only the update's connection")
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1_024)
        for n in 1...2 {
            try batch(n)
            XCTAssertEqual(store.logWritebacks, n, "one start a committed batch")
        }
        XCTAssertEqual(store.fileWritebacks, 0, "not after each batch: the log's pages are what a batch writes")
        XCTAssertEqual(try allCards().count, 60)
    }

    func testEachRefreshOfTheUpdatesIndexThreadStartsTheIndexLogOnItsWayToTheDisk() throws {
        try save([article("a1"), article("a2")], to: try addSource(), at: t(1))
        let indexer = try SearchIndexer(storePath: databasePath)
        try indexer.keepLogFiles()
        XCTAssertEqual(try indexer.refresh().indexed, 2)
        XCTAssertEqual(indexer.logWritebacks, 1)
        XCTAssertEqual(try indexer.refresh().indexed, 0)
        XCTAssertEqual(indexer.logWritebacks, 1, "a refresh with nothing new commits nothing")

        try save([article("a3")], to: try addSource("https://example.org/other.xml"), at: t(2))
        let other = try SearchIndexer(storePath: databasePath)
        XCTAssertEqual(try other.refresh().indexed, 1)
        XCTAssertEqual(other.logWritebacks, 0, "only the update's index thread")
    }

    func testTheEndOfAnUpdatesWritesStartsTheDatabaseFileOnItsWayToTheDisk() throws {
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1_024)
        let source = try addSource()
        try store.inOneTransaction {
            try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: (0..<50).map { article("a\($0)") },
                                validators: CacheValidators(), now: t(1), nextDue: nil)
        }
        XCTAssertEqual(store.fileWritebacks, 0)
        try store.finishBulkWrites()
        XCTAssertEqual(store.fileWritebacks, 1)
        try store.leaveLogForNextRun()
        store = nil
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try allCards().count, 50)
    }

    /// The descriptors read out of SQLite's unix VFS are the files' own, the database file's and
    /// its log's, for the main database and an attached one alike: a wrong reading of SQLite's
    /// structure fails this (tried: the descriptor off by one).
    func testTheDescriptorsFoundAreTheFilesOwn() throws {
        let other = directory.file("other.db").path
        try store.db.prepare("ATTACH DATABASE ?1 AS other").execute([.text(other)])
        try store.db.execute("PRAGMA other.journal_mode = WAL; CREATE TABLE other.t (x); INSERT INTO other.t VALUES (1)")
        for (schema, path) in [("main", databasePath), ("other", other)] {
            for (file, log) in [(FileWriteback.File.database, 0), (.log, 1)] {
                let label = "\(schema) \(file)"
                let descriptor = csqlite_file_descriptor(store.db.handleForExtensions, schema, Int32(log))
                XCTAssertGreaterThanOrEqual(descriptor, 0, label)
                var opened = stat(), named = stat()
                XCTAssertEqual(fstat(descriptor, &opened), 0, label)
                XCTAssertEqual(stat(path + (log == 1 ? "-wal" : ""), &named), 0, label)
                XCTAssertEqual([opened.st_dev, opened.st_ino], [named.st_dev, named.st_ino], label)
                XCTAssertTrue(FileWriteback.start(store.db, file, schema: schema), label)
            }
        }
        for log: Int32 in [0, 1] {
            XCTAssertLessThan(csqlite_file_descriptor(store.db.handleForExtensions, "nowhere", log), 0)
        }
        XCTAssertFalse(FileWriteback.start(store.db, .database, schema: "nowhere"))
        XCTAssertFalse(FileWriteback.start(store.db, .log, schema: "nowhere"))
        let memory = try Database(path: ":memory:")
        XCTAssertFalse(FileWriteback.start(memory, .database), "no file")
        XCTAssertFalse(FileWriteback.start(memory, .log), "no log")
    }

    /// With this connection writing and both writebacks started, another process (the sqlite3
    /// shell) still cannot write: nothing closed a descriptor of the database's files.
    func testStartingTheWritebacksLeavesSQLitesLocksHeld() throws {
        try save([article("a1")], to: try addSource(), at: t(1))
        try store.db.execute("BEGIN IMMEDIATE")
        try store.db.execute("UPDATE sources SET name = 'held'")
        XCTAssertTrue(FileWriteback.start(store.db, .log))
        XCTAssertTrue(FileWriteback.start(store.db, .database))
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
