/// Brings a database to `Schema.currentVersion`, one migration per transaction, and refuses
/// files that are not feeds databases or were written by a newer feeds.
enum Migrator {
    /// `migrations` is a parameter only so tests can run a longer list than the shipped one.
    static func migrate(_ db: Database, migrations: [String] = Schema.migrations) throws {
        try checkIdentity(db)
        let target = migrations.count
        var version = try userVersion(db)
        guard version <= target else { throw newer(db, version, target) }
        while version < target {
            try db.writeTransaction {
                // Read again under the write lock: another process may have migrated while we
                // waited for it, and running a migration twice would fail on CREATE TABLE.
                version = try userVersion(db)
                guard version < target else { return }
                try db.execute(migrations[version])
                if version == 0 {
                    try db.execute("PRAGMA application_id = \(Schema.applicationID)")
                }
                version += 1
                // user_version lives in the file header, which is written in the transaction:
                // a crash leaves the old version and the old schema together.
                try db.execute("PRAGMA user_version = \(version)")
            }
            guard version <= target else { throw newer(db, version, target) }
        }
    }

    /// Migration 1 stamps the file with `Schema.applicationID`. Any other stamp, or tables
    /// without our stamp, means somebody else's database: migrating it would scribble our
    /// tables into it.
    ///
    /// Both read by one statement, so from one snapshot: read apart, another `feeds` making the
    /// file at the same moment could commit migration 1 between them (no stamp read, then its
    /// tables counted), and this one would call our own new database somebody else's (seen once
    /// in a clean checkout's `make test`, two openers of a new file together).
    private static func checkIdentity(_ db: Database) throws {
        let (applicationID, objects) = try db.prepare("""
            SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema)
            """).queryOne { ($0.int64(0), $0.int(1)) } ?? (0, 0)
        guard applicationID != Int64(Schema.applicationID) else { return }
        if applicationID != 0 {
            throw StorageError.notAFeedsDatabase(
                path: db.path, reason: "it is an SQLite database of another program")
        }
        if objects > 0 {
            throw StorageError.notAFeedsDatabase(
                path: db.path, reason: "it is an SQLite database with tables feeds did not create")
        }
    }

    private static func userVersion(_ db: Database) throws -> Int {
        try db.prepare("PRAGMA user_version").queryOne { $0.int(0) } ?? 0
    }

    private static func newer(_ db: Database, _ version: Int, _ supported: Int) -> StorageError {
        .newerSchema(path: db.path, found: version, supported: supported)
    }
}
