import FeedModel

// What the update's runner needs besides the update path (UpdateRunStore.swift), on PostgreSQL.
extension PostgresStore: UpdateSelecting, UpdateBatching, CardLimiting, PagePreviewStore, SearchIndexFeeding {
    public func sources(counting: Bool) throws -> [StoredSource] {
        try PostgresSourceReader.read(connection, where: "true", [], counts: counting, context: "listing the sources")
    }

    public func dueSources(at now: Timestamp, counting: Bool) throws -> [StoredSource] {
        try PostgresSourceReader.read(connection, where: "s.disabled_reason IS NULL AND (s.next_due_at IS NULL OR s.next_due_at <= $1)",
                                      [SQLValue(now)], counts: counting, context: "listing the due sources")
    }

    public func markReading(sourceID: SourceID, now: Timestamp, releasing: [SourceID]) throws {
        guard !releasing.isEmpty else { return try markReading(sourceID: sourceID, now: now) }
        try connection.transaction("marking the reading of source \(sourceID)") {
            let (condition, fence) = fenceCondition(2)
            try connection.execute("UPDATE sources SET reading_since = NULL WHERE id = ANY($1::bigint[])\(condition)",
                                   [PGArray.ids(releasing), fence], context: "clearing reading marks")
            try markReading(sourceID: sourceID, now: now)
        }
    }

    /// Each write is its own transaction already (and one worker's session is its own): `body`
    /// runs as it is.
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T { try body() }

    /// The server's own settings hold; nothing to tune per session.
    public func tuneForBulkWrites(checkpointPages: Int, cacheKiB: Int) throws {}

    // prune and capCards: PostgresStore+Retention.swift (CardLimiting's requirements too).

    /// Not kept on PostgreSQL yet: every run looks the pages up again.
    public func pagePreviews(for pageURLs: [String]) throws -> [String: PagePreviewEntry] { [:] }
    public func savePagePreviews(_ entries: [String: String?], checkedAt: Timestamp) throws {}

    /// No index file to feed: PostgreSQL's search is its own (PostgresStore+Search*.swift).
    public var searchIndexPath: String? { nil }
    public func takeSearchRows() -> SearchRows { SearchRows() }
    public func forgetSearchChanges(through seq: Int64) throws {}
}

extension PostgresStore {
    /// Enabled sources due at `now`, leased by other workers or by none: the work left, for a
    /// worker that ends when there is none (`--exit-when-idle`) rather than when the rest is
    /// someone else's. Those `worker` itself holds are left out: it holds them because it does
    /// not fetch them (sources its sources file does not list).
    public func dueCount(at now: Timestamp, notHeldBy worker: String) throws -> Int {
        try connection.execute("""
            SELECT count(*) FROM sources
            WHERE disabled_reason IS NULL AND (next_due_at IS NULL OR next_due_at <= $1)
              AND (lease_owner IS DISTINCT FROM $2 OR lease_until <= $1)
            """, [SQLValue(now), .text(worker)], context: "counting the due sources").int(0, 0)
    }
}
