import XCTest
import TestSupport
@testable import Storage

/// The PostgreSQL schema's migrations: applied once, in one transaction, by whichever worker
/// comes first; refused on somebody else's database or a newer schema.
final class PostgresMigrationTests: PostgresTestCase {
    private func versions(_ connection: PGConnection) throws -> [Int] {
        let result = try connection.execute("SELECT version FROM feeds_schema ORDER BY version", context: "test")
        return try result.rows { try result.int($0, 0) }
    }

    func testAFreshDatabaseGetsTheWholeSchemaWithItsIdentityKeys() throws {
        let store = try PostgresStore(address: databaseURL)
        XCTAssertEqual(try store.databaseSchemaVersion(), PostgresStore.schemaVersion)
        XCTAssertEqual(try versions(store.connection), Array(1...PostgresStore.schemaVersion))
        let unique = try store.connection.execute("""
            SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE contype = 'u' AND connamespace = 'public'::regnamespace ORDER BY 1, 2
            """, context: "test")
        let keys = try unique.rows { "\(unique.string($0, 0) ?? "") \(unique.string($0, 1) ?? "")" }
        XCTAssertEqual(keys, ["cards UNIQUE (source_id, card_key)", "sources UNIQUE (url)"])
    }

    func testOpeningAgainChangesNothingAndKeepsTheData() throws {
        let first = try PostgresStore(address: databaseURL)
        let id = try first.upsertSource(SourceConfiguration(url: "https://example.org/feed.xml"), now: t(0))
        let second = try PostgresStore(address: databaseURL)
        XCTAssertEqual(try versions(second.connection), Array(1...PostgresStore.schemaVersion))
        XCTAssertEqual(try second.sources().map(\.id), [id])
    }

    func testWorkersStartingTogetherMigrateOnce() throws {
        let url = databaseURL!
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do { _ = try PostgresStore(address: url) } catch { errors.withLock { $0.append("\(error)") } }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        XCTAssertEqual(try versions(PGConnection(address: url)), Array(1...PostgresStore.schemaVersion))
    }

    func testADatabaseOfAnotherProgramIsRefusedAndLeftAlone() throws {
        let connection = try PGConnection(address: databaseURL)
        try connection.executeScript("CREATE TABLE invoices (id integer)", context: "test")
        XCTAssertThrowsError(try PostgresStore(address: databaseURL)) { error in
            guard case PostgresError.notAFeedsDatabase(_, let reason)? = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "it has 1 table feeds did not create")
            XCTAssertTrue(error.localizedDescription.contains("is not a feeds database"), error.localizedDescription)
        }
        let tables = try connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", context: "test")
        XCTAssertEqual(try tables.rows { tables.string($0, 0) }, ["invoices"])
    }

    func testANewerSchemaIsRefused() throws {
        _ = try PostgresStore(address: databaseURL)
        let connection = try PGConnection(address: databaseURL)
        let newer = PostgresStore.schemaVersion + 1
        try connection.execute("INSERT INTO feeds_schema VALUES ($1)", [.integer(Int64(newer))], context: "test")
        XCTAssertThrowsError(try PostgresStore(address: databaseURL)) { error in
            XCTAssertEqual(error as? PostgresError,
                           .newerSchema(server: connection.server, found: newer, supported: PostgresStore.schemaVersion))
        }
    }

    func testALongerListAppliesOnlyTheNewMigrations() throws {
        _ = try PostgresStore(address: databaseURL)
        let connection = try PGConnection(address: databaseURL)
        let longer = PostgresSchema.migrations + ["CREATE TABLE extra (x integer)"]
        try PostgresMigrator.migrate(connection, migrations: longer)
        try PostgresMigrator.migrate(connection, migrations: longer)
        XCTAssertEqual(try versions(connection), Array(1...longer.count))
        XCTAssertEqual(try connection.execute("SELECT count(*) FROM extra", context: "test").int(0, 0), 0)
    }

    func testAFailingMigrationLeavesTheSchemaAsItWas() throws {
        _ = try PostgresStore(address: databaseURL)
        let connection = try PGConnection(address: databaseURL)
        let broken = PostgresSchema.migrations + ["CREATE TABLE half (x integer); SELECT no_such_function()"]
        XCTAssertThrowsError(try PostgresMigrator.migrate(connection, migrations: broken)) { error in
            guard case PostgresError.server(_, _, _, let context)? = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(context, "applying migration \(broken.count)")
        }
        XCTAssertEqual(try versions(connection), Array(1...PostgresStore.schemaVersion))
        XCTAssertEqual(try connection.execute("SELECT to_regclass('half') IS NULL", context: "test").bool(0, 0), true)
    }
}
