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

    // markReading(sourceID:now:releasing:): PostgresStore+Fetching.swift (one statement).

    /// One transaction around the outcomes of a batch of sources (a BEGIN and a COMMIT, and the
    /// server's commit, once per batch instead of per source): the writes' own transactions
    /// join it. When one of them failed, the whole batch is rolled back and this throws, so the
    /// runner writes each outcome on its own, as SQLite's batch does (`PGConnection.transaction`).
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction("saving a batch of outcomes", body)
    }

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
