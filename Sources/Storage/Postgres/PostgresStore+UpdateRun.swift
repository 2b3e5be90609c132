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

    /// Nothing left to a run's end: the title order is an index of the cards here.
    public func finishBulkWrites() throws {}

    /// Nothing either: the server's log is its own.
    public func leaveLogForNextRun() throws {}

    // prune and capCards: PostgresStore+Retention.swift (CardLimiting's requirements too).

    /// The cached entries of `pageURLs` that exist (any age), as FeedStore+PagePreviews.swift;
    /// rows found by the SHA-256 of their URL (migration 5).
    public func pagePreviews(for pageURLs: [String]) throws -> [String: PagePreviewEntry] {
        let urls = pageURLs.filter(URLKey.isStorable)
        guard !urls.isEmpty else { return [:] }
        let result = try connection.execute("""
            SELECT page_url, image_url, checked_at FROM page_previews
            WHERE page_digest = ANY (SELECT feeds_text_digest(u) FROM unnest($1::text[]) AS u)
            """, [PGArray.texts(urls)], context: "looking up page previews")
        var found: [String: PagePreviewEntry] = [:]
        for row in 0..<result.rowCount {
            found[result.string(row, 0) ?? ""] = PagePreviewEntry(image: result.string(row, 1), checkedAt: try result.timestamp(row, 2))
        }
        return found
    }

    /// Records what each page declared (nil: nothing), replacing older entries, in one
    /// statement; a page whose URL `URLKey` refuses is not recorded, as on SQLite.
    public func savePagePreviews(_ entries: [String: String?], checkedAt: Timestamp) throws {
        let kept = Array(entries.filter { URLKey.isStorable($0.key) })
        guard !kept.isEmpty else { return }
        try connection.execute("""
            INSERT INTO page_previews (page_url, image_url, checked_at)
            SELECT e.page_url, e.image_url, $3 FROM unnest($1::text[], $2::text[]) AS e(page_url, image_url)
            ON CONFLICT (page_digest) DO UPDATE SET
                page_url = excluded.page_url, image_url = excluded.image_url, checked_at = excluded.checked_at
            """, [PGArray.texts(kept.map(\.key)), PGArray.texts(kept.map(\.value)), SQLValue(checkedAt)],
            context: "saving page previews")
    }

    /// Inserts `entries` as they are (`StoreCopy`), each with its own time, in one statement.
    func importPagePreviews(_ entries: [(url: String, entry: PagePreviewEntry)]) throws {
        guard !entries.isEmpty else { return }
        try connection.execute("""
            INSERT INTO page_previews (page_url, image_url, checked_at)
            SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
            """, [PGArray.texts(entries.map(\.url)), PGArray.texts(entries.map(\.entry.image)),
                  PGArray.integers(entries.map { $0.entry.checkedAt.secondsSince1970 })],
            context: "copying the page previews")
    }

    func pagePreviewCount() throws -> Int {
        try connection.execute("SELECT count(*) FROM page_previews", context: "counting the page previews").int(0, 0)
    }

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
