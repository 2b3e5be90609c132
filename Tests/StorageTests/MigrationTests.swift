import XCTest
import FeedModel
import TestSupport
@testable import Storage

final class MigrationTests: StoreTestCase {
    func testFreshDatabaseIsAtCurrentVersionAndStamped() throws {
        XCTAssertEqual(try store.databaseSchemaVersion(), FeedStore.schemaVersion)
        XCTAssertEqual(FeedStore.schemaVersion, Schema.migrations.count)
        let applicationID = try store.db.prepare("PRAGMA application_id").queryOne { $0.int64(0) }
        XCTAssertEqual(applicationID, Int64(Schema.applicationID))
    }

    func testConnectionSettings() throws {
        XCTAssertEqual(try store.db.prepare("PRAGMA journal_mode").queryOne { $0.string(0) }, "wal")
        XCTAssertEqual(try store.db.prepare("PRAGMA foreign_keys").queryOne { $0.int(0) }, 1)
        XCTAssertEqual(try store.db.prepare("PRAGMA synchronous").queryOne { $0.int(0) }, 1)  // NORMAL
        XCTAssertEqual(try store.db.prepare("PRAGMA busy_timeout").queryOne { $0.int(0) }, 5000)
    }

    func testReopeningKeepsDataAndDoesNotMigrateAgain() throws {
        let source = try addSource()
        try save([article("a")], to: source, at: t(1))
        store = nil
        let reopened = try FeedStore(path: databasePath)
        XCTAssertEqual(try reopened.databaseSchemaVersion(), FeedStore.schemaVersion)
        XCTAssertEqual(try reopened.cards().map(\.card.id), ["a"])
    }

    func testOpeningCreatesMissingParentFolders() throws {
        let path = directory.file("a/b/c/feeds.db").path
        let nested = try FeedStore(path: path)
        XCTAssertEqual(nested.path, path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testDatabaseFromNewerFeedsIsRefused() throws {
        try store.db.execute("PRAGMA user_version = \(FeedStore.schemaVersion + 1)")
        store = nil
        XCTAssertThrowsError(try FeedStore(path: databasePath)) { error in
            XCTAssertEqual(error as? StorageError, .newerSchema(path: databasePath, found: FeedStore.schemaVersion + 1,
                                                                 supported: FeedStore.schemaVersion))
            XCTAssertTrue("\(error)".contains("use a newer feeds"))
        }
    }

    func testAppendedMigrationRunsOnceAndKeepsData() throws {
        let source = try addSource()
        try save([article("a")], to: source, at: t(1))
        let longer = Schema.migrations + ["CREATE TABLE image_cache (url TEXT PRIMARY KEY) STRICT"]
        try Migrator.migrate(store.db, migrations: longer)
        try Migrator.migrate(store.db, migrations: longer)  // nothing left to do: no error
        XCTAssertEqual(try store.databaseSchemaVersion(), Schema.migrations.count + 1)
        XCTAssertEqual(try allCards().count, 1)
        XCTAssertThrowsError(try Migrator.migrate(store.db)) { error in
            guard case .newerSchema = error as? StorageError else { return XCTFail("unexpected \(error)") }
        }
    }

    func testFailingMigrationLeavesTheVersionAndSchemaAsTheyWere() throws {
        let broken = Schema.migrations + ["CREATE TABLE half_done (x INTEGER); SELECT no_such_function();"]
        XCTAssertThrowsError(try Migrator.migrate(store.db, migrations: broken))
        XCTAssertEqual(try store.databaseSchemaVersion(), Schema.migrations.count)
        let leftovers = try store.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'")
            .queryOne { $0.int(0) }
        XCTAssertEqual(leftovers, 0)
    }

    func testKindChecksRejectUnknownValues() throws {
        XCTAssertThrowsError(try store.db.execute(
            "INSERT INTO sources (url, kind, created_at) VALUES ('x', 'podcast', 0)")) { error in
            guard case .constraintViolated = error as? StorageError else { return XCTFail("\(error)") }
        }
        let source = try addSource()
        XCTAssertThrowsError(try store.db.execute("""
            INSERT INTO cards (source_id, card_key, kind, content_hash, first_seen_at, changed_at,
                               last_seen_at, sort_date)
            VALUES (\(source.rawValue), 'k', 'video', 'h', 0, 0, 0, 0)
            """))
    }

    func testReadFlagMustBeZeroOrOne() throws {
        let source = try addSource()
        try save([article("a")], to: source, at: t(1))
        XCTAssertThrowsError(try store.db.execute("UPDATE cards SET is_read = 2"))
    }

    func testCardKeyIsUniquePerSource() throws {
        let source = try addSource()
        try save([article("a")], to: source, at: t(1))
        XCTAssertThrowsError(try store.db.execute("""
            INSERT INTO cards (source_id, card_key, kind, content_hash, first_seen_at, changed_at,
                               last_seen_at, sort_date)
            SELECT source_id, card_key, kind, 'x', 0, 0, 0, 0 FROM cards
            """)) { error in
            guard case .constraintViolated(_, let reason) = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("UNIQUE"), reason)
        }
    }

    func testCardsNeedAnExistingSource() throws {
        XCTAssertThrowsError(try store.db.execute("""
            INSERT INTO cards (source_id, card_key, kind, content_hash, first_seen_at, changed_at,
                               last_seen_at, sort_date)
            VALUES (999, 'k', 'article', 'h', 0, 0, 0, 0)
            """)) { error in
            guard case .constraintViolated(_, let reason) = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("FOREIGN KEY"), reason)
        }
    }

    func testRemovingASourceRemovesItsCards() throws {
        let kept = try addSource("https://a.example/feed")
        let removed = try addSource("https://b.example/feed")
        try save([article("1"), article("2")], to: removed, at: t(1))
        try save([article("3")], to: kept, at: t(1))
        XCTAssertTrue(try store.removeSource(removed))
        XCTAssertFalse(try store.removeSource(removed))
        XCTAssertEqual(try allCards().map(\.card.id), ["3"])
        XCTAssertNil(try store.source(id: removed))
    }

    func testEnclosuresMustBeAJSONArray() throws {
        let source = try addSource()
        try save([article("a")], to: source, at: t(1))
        XCTAssertThrowsError(try store.db.execute("UPDATE cards SET enclosures = '{\"url\":1}'"))
        XCTAssertThrowsError(try store.db.execute("UPDATE cards SET enclosures = 'not json'"))
    }
}
