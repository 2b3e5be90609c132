/// Brings a PostgreSQL database to `PostgresSchema.currentVersion`, all pending migrations in
/// one transaction (PostgreSQL's DDL is transactional: a failure leaves the old schema whole),
/// and refuses databases that hold other tables or a newer schema.
enum PostgresMigrator {
    /// `migrations` is a parameter only so tests can run a longer list than the shipped one.
    static func migrate(_ connection: PGConnection, migrations: [String] = PostgresSchema.migrations) throws {
        let target = migrations.count
        // A quick look first: a database already current needs no lock (every worker's start).
        if try appliedVersion(connection) == target { return }
        // Workers starting together: the second waits here, then finds the work done. A session
        // lock taken before the transaction, not a transaction's lock inside it: the server
        // reads the other's committed catalog only from a transaction begun after that commit
        // (a lock inside would leave this session its stale "no such table" and have it refuse
        // the database as somebody else's).
        try connection.execute("SELECT pg_advisory_lock($1)", [.integer(PostgresSchema.migrationLock)],
                               context: "waiting for another feeds's migration")
        defer {
            _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [.integer(PostgresSchema.migrationLock)],
                                        context: "ending the migration")
        }
        try connection.transaction("migrating the schema") {
            var version: Int
            if let applied = try appliedVersion(connection) {
                version = applied
            } else {
                try checkEmpty(connection)
                try connection.executeScript("CREATE TABLE feeds_schema (version integer PRIMARY KEY CHECK (version > 0))",
                                             context: "creating the schema's version table")
                version = 0
            }
            guard version <= target else {
                throw PostgresError.newerSchema(server: connection.server, found: version, supported: target)
            }
            while version < target {
                try connection.executeScript(migrations[version], context: "applying migration \(version + 1)")
                version += 1
                try connection.execute("INSERT INTO feeds_schema (version) VALUES ($1)", [.integer(Int64(version))],
                                       context: "recording migration \(version)")
            }
        }
    }

    /// The highest migration applied, nil when the database has no `feeds_schema` table.
    static func appliedVersion(_ connection: PGConnection) throws -> Int? {
        let exists = try connection.execute("""
            SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
                           WHERE schemaname = current_schema() AND tablename = 'feeds_schema')
            """, context: "looking for the schema's version table")
        guard try exists.bool(0, 0) else { return nil }
        return try connection.execute("SELECT coalesce(max(version), 0) FROM feeds_schema",
                                      context: "reading the schema version").int(0, 0)
    }

    /// Tables without our version table belong to somebody else: migrating would scribble
    /// our tables among theirs.
    private static func checkEmpty(_ connection: PGConnection) throws {
        let tables = try connection.execute(
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()",
            context: "looking for tables of another program").int(0, 0)
        guard tables == 0 else {
            throw PostgresError.notAFeedsDatabase(
                server: connection.server, reason: "it has \(tables) table\(tables == 1 ? "" : "s") feeds did not create")
        }
    }
}
