import XCTest
import CSQLite
import FeedModel
@testable import Storage

/// The end of an update starts the database file's pages, copied there by its checkpoint, on
/// their way to the disk (`DatabaseFileWriteback`), through SQLite's own descriptor of the file,
/// which it never closes (closing one would drop SQLite's locks on the file).
final class DatabaseFileWritebackTests: StoreTestCase {
    func testTheEndOfAnUpdatesWritesStartsTheDatabaseFileOnItsWayToTheDisk() throws {
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1_024)
        let source = try addSource()
        try store.inOneTransaction {
            try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: (0..<50).map { article("a\($0)") },
                                validators: CacheValidators(), now: t(1), nextDue: nil)
        }
        XCTAssertEqual(store.fileWritebacks, 0, "not after each batch: the log's pages are what a batch writes")
        try store.finishBulkWrites()
        XCTAssertEqual(store.fileWritebacks, 1)
        try store.leaveLogForNextRun()
        store = nil
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try allCards().count, 50)
    }

    /// The descriptor read out of SQLite's unix VFS is the file's, for the main database and for
    /// an attached one alike: a wrong reading of SQLite's structure fails this.
    func testTheDescriptorFoundIsTheDatabaseFilesOwn() throws {
        let other = directory.file("other.db").path
        try store.db.prepare("ATTACH DATABASE ?1 AS other").execute([.text(other)])
        try store.db.execute("CREATE TABLE other.t (x); INSERT INTO other.t VALUES (1)")
        for (schema, path) in [("main", databasePath), ("other", other)] {
            let descriptor = csqlite_database_descriptor(store.db.handleForExtensions, schema)
            XCTAssertGreaterThanOrEqual(descriptor, 0, schema)
            var opened = stat(), named = stat()
            XCTAssertEqual(fstat(descriptor, &opened), 0)
            XCTAssertEqual(stat(path, &named), 0)
            XCTAssertEqual([opened.st_dev, opened.st_ino], [named.st_dev, named.st_ino], schema)
            XCTAssertTrue(DatabaseFileWriteback.start(store.db, schema: schema), schema)
        }
        XCTAssertLessThan(csqlite_database_descriptor(store.db.handleForExtensions, "nowhere"), 0)
        XCTAssertFalse(DatabaseFileWriteback.start(store.db, schema: "nowhere"))
        XCTAssertFalse(DatabaseFileWriteback.start(try Database(path: ":memory:")), "no file")
    }

    /// With this connection writing and the writeback started, another process (the sqlite3
    /// shell) still cannot write: nothing closed a descriptor of the file.
    func testStartingTheWritebackLeavesSQLitesLocksHeld() throws {
        try save([article("a1")], to: try addSource(), at: t(1))
        try store.db.execute("BEGIN IMMEDIATE")
        try store.db.execute("UPDATE sources SET name = 'held'")
        XCTAssertTrue(DatabaseFileWriteback.start(store.db))
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
