import FeedModel

/// The store on PostgreSQL: the same interface as `FeedStore` (`SourceStore`,
/// `FetchStateStore`), for a team or a service whose update workers run on several machines,
/// plus the leases (`SourceLeasing`) that keep those workers apart.
///
/// One `PostgresStore` is one session, for one thread. Each public method is one statement or
/// one transaction, so a worker killed at any moment leaves the database as it was before or
/// after the call. The store never reads the clock: every time is a parameter (the server's
/// clock is never used either, so every worker's `now` means the same as on SQLite).
public final class PostgresStore {
    let connection: PGConnection

    /// `postgresql://user@host:port/database` (never the password).
    public var server: String { connection.server }

    /// Connects to `address` (`postgres://user@host:port/database`, or a libpq `key=value`
    /// string) and migrates the database to the current schema. Throws `PostgresError`:
    /// `.badAddress`, `.cannotConnect`, `.notAFeedsDatabase` for a database with other tables,
    /// `.newerSchema` for one a newer feeds migrated.
    public init(address: String) throws {
        connection = try PGConnection(address: address)
        let before = try PostgresMigrator.appliedVersion(connection) ?? 0
        try PostgresMigrator.migrate(connection)
        // A database of cards from before the search index (migration 4): their words now.
        if before > 0, before < 4 { try indexUnindexedCards() }
    }

    /// Turns a description into the text to search (`FeedStore.descriptionText`: the
    /// Aggregator sets Markup's converter); nil: the description as stored.
    public var descriptionText: ((String) -> String)?

    /// SQLite's tokenizer for the search index (`SearchWords`), made on the first use.
    var searchWordsIfMade: SearchWords?

    /// Statements this session has sent the server, each a round trip: `feeds update --worker`
    /// says them per source with FEEDS_COUNT_STATEMENTS=1 (what bench/workers.sh reports).
    public var statementsSent: Int { connection.statementsSent }

    /// The schema version of the database (equals `PostgresStore.schemaVersion` once open).
    public func databaseSchemaVersion() throws -> Int {
        try PostgresMigrator.appliedVersion(connection) ?? 0
    }

    /// The schema version this program creates.
    public static var schemaVersion: Int { PostgresSchema.currentVersion }

    /// A worker's name, set by the worker: from then on this session records a fetch's outcome
    /// (a save, a 304, a failure, a redirect, marks) only for sources whose lease that worker
    /// still holds, or held until it expired with nobody taking it since; otherwise
    /// `PostgresError.leaseLost`, and nothing is written. A worker that a slow fetch kept past
    /// its lease then cannot overwrite what the worker that took the source over saved. Nil
    /// (`feeds update` from cron, a person's commands): no condition.
    public var fence: String?

    /// Host slots given back (`releaseHostSlot`) that the next statement about hosts or
    /// reading marks deletes (PostgresStore+Hosts.swift).
    var releasedSlots: [Int64] = []

    /// The condition of `fence` on `sources` with the fence bound as parameter `$n`.
    func fenceCondition(_ n: Int) -> (sql: String, value: SQLValue) {
        (" AND ($\(n)::text IS NULL OR lease_owner = $\(n)::text)", SQLValue(fence))
    }

    /// Why an UPDATE of source `id` changed no row: it is not there, or the fence held it back.
    func unchangedSourceError(_ id: SourceID) throws -> Error {
        guard let fence else { return StorageError.noSuchSource(id: id) }
        let exists = try connection.execute("SELECT lease_owner FROM sources WHERE id = $1", [SQLValue(id)],
                                            context: "looking up source \(id)")
        guard exists.rowCount > 0 else { return StorageError.noSuchSource(id: id) }
        return PostgresError.leaseLost(server: server, source: id.rawValue, worker: fence, holder: exists.string(0, 0))
    }

    /// One UPDATE of the source row $1 in its own transaction; $2… are `values`; held back by
    /// the fence unless `fenced` is false.
    func updateSource(_ id: SourceID, _ assignments: String, _ values: [SQLValue], fenced: Bool = true, context: String) throws {
        let (condition, fenceValue) = fenced ? fenceCondition(values.count + 2) : ("", SQLValue.null)
        let result = try connection.execute("UPDATE sources SET \(assignments) WHERE id = $1\(condition)",
                                            [SQLValue(id)] + values + (fenced ? [fenceValue] : []),
                                            context: "\(context) of source \(id)")
        guard result.changedRows > 0 else { throw try unchangedSourceError(id) }
    }
}

/// Maps `sources` rows (and their card counts) to `StoredSource`: `SourceReader`'s columns, in
/// PostgreSQL's dialect.
enum PostgresSourceReader {
    /// `with`: a WITH clause the condition may name (the lease's UPDATE: one round trip).
    static func read(_ connection: PGConnection, with prefix: String = "", where condition: String, _ values: [SQLValue],
                     counts: Bool = true, context: String) throws -> [StoredSource] {
        let countColumns = counts ? """
                   (SELECT count(*) FROM cards c WHERE c.source_id = s.id),
                   (SELECT count(*) FROM cards c WHERE c.source_id = s.id AND NOT c.is_read)
            """ : "0, 0"
        let result = try connection.execute(prefix + SourceReader.select(countColumns: countColumns, where: condition),
                                            values, context: context)
        return try result.rows { row in
            StoredSource(
                id: SourceID(rawValue: try result.int64(row, 0)),
                configuration: SourceConfiguration(
                    url: result.string(row, 1) ?? "", name: result.string(row, 3),
                    kind: SourceKind(rawValue: result.string(row, 4) ?? "") ?? .feed,
                    tags: TagList.decode(result.string(row, 5) ?? ""),
                    keepDays: try result.optionalInt(row, 20), keepCount: try result.optionalInt(row, 21)),
                fetchURL: result.string(row, 2),
                feed: FeedInfo(title: result.string(row, 8), link: result.string(row, 9),
                               description: result.string(row, 10), image: result.string(row, 11),
                               refreshHintSeconds: try result.optionalInt(row, 12)),
                validators: CacheValidators(etag: result.string(row, 6), lastModified: result.string(row, 7)),
                lastAttemptAt: try result.optionalTimestamp(row, 13),
                lastSuccessAt: try result.optionalTimestamp(row, 14),
                itemsSeenAt: try result.optionalTimestamp(row, 15),
                lastError: result.string(row, 16),
                consecutiveFailures: try result.int(row, 17),
                nextDueAt: try result.optionalTimestamp(row, 18),
                disabledReason: result.string(row, 19),
                isolatedReason: result.string(row, 25),
                readingSince: try result.optionalTimestamp(row, 26),
                createdAt: try result.timestamp(row, 22),
                cardCount: try result.int(row, 23),
                unreadCount: try result.int(row, 24),
                skippedLastFetch: try result.int(row, 27),
                skippedTotal: try result.int(row, 28),
                degraded: result.string(row, 29))
        }
    }
}

/// Lists as one bound parameter: PostgreSQL's array literal (`{1,2,NULL}`, `{"a","b\\"c"}`).
enum PGArray {
    static func ids<S: Sequence>(_ ids: S) -> SQLValue where S.Element == SourceID {
        .text("{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}")
    }

    static func integers(_ values: [Int64?]) -> SQLValue {
        .text("{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}")
    }

    /// Every element quoted (so NULL, blanks, commas and braces are plain text) with its
    /// backslashes and double quotes escaped; nil is NULL. (U+0000 becomes U+FFFD when the
    /// whole literal is bound: `PGText.parameter`.)
    static func texts(_ values: [String?]) -> SQLValue {
        // Bytes, not scalars: appending a String scalar by scalar was a fifth of a worker's CPU
        // (perf, 60 KB feeds). The two escaped characters are ASCII, so never inside a
        // multi-byte sequence, and the bytes stay the values' valid UTF-8.
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(values.reduce(2) { $0 &+ ($1?.utf8.count ?? 4) &+ 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            guard let value else { literal += "NULL".utf8; continue }
            literal.append(quote)
            for byte in value.utf8 {
                if byte == backslash || byte == quote { literal.append(backslash) }
                literal.append(byte)
            }
            literal.append(quote)
        }
        literal.append(UInt8(ascii: "}"))
        return .text(String(decoding: literal, as: UTF8.self))
    }
}
