import FeedModel

// Fetch results on PostgreSQL: the rules of FeedStore+Fetching.swift, each method one
// transaction.
extension PostgresStore: FetchStateStore {
    /// The source's row is updated first, which locks it until the commit: two workers saving
    /// the same source (a lease that expired under a slow fetch) take turns, and the second
    /// finds the first's cards. Each card is inserted with ON CONFLICT on the identity key
    /// (source, card key), so a fetch saved twice adds no card: its cards are then unchanged
    /// (only seen again) or, if the content differs, rewritten in place.
    @discardableResult
    public func saveFetch(sourceID: SourceID, feed: FeedInfo, prepared: PreparedCards,
                          validators: CacheValidators, now: Timestamp, nextDue: Timestamp?, skipped: Int = 0) throws -> SaveSummary {
        try connection.transaction("saving a fetch of source \(sourceID)") {
            let updated = try connection.execute("""
                UPDATE sources SET
                    etag = $2, last_modified = $3, feed_title = $4, feed_link = $5,
                    feed_description = $6, feed_image = $7, refresh_hint_seconds = $8,
                    last_attempt_at = $9, last_success_at = $9, items_seen_at = $9,
                    last_error = NULL, consecutive_failures = 0, next_due_at = $10,
                    reading_since = NULL, isolated_reason = NULL,
                    skipped_last = $11, skipped_total = least(skipped_total, 4611686018427387904) + $11
                WHERE id = $1
                """, [SQLValue(sourceID), SQLValue(validators.etag), SQLValue(validators.lastModified),
                      SQLValue(feed.title), SQLValue(feed.link), SQLValue(feed.description),
                      // A zero or negative hint means nothing; dropping it beats failing the CHECK and the save.
                      SQLValue(feed.image), SQLValue(feed.refreshHintSeconds.flatMap { $0 > 0 ? $0 : nil }),
                      SQLValue(now), SQLValue(nextDue), .integer(Int64(max(0, skipped)))],
                context: "saving a fetch of source \(sourceID)")
            guard updated.changedRows > 0 else { throw StorageError.noSuchSource(id: sourceID) }
            var summary = SaveSummary()
            for entry in prepared.entries {
                switch try saveCard(entry, sourceID: sourceID, now: now) {
                case .inserted: summary.new += 1
                case .updated: summary.updated += 1
                case .unchanged: summary.unchanged += 1
                }
            }
            return summary
        }
    }

    /// One card: inserted when its key is new, rewritten when its content hash differs (id,
    /// first sighting and read flag kept), else only seen again. $1 source, $2 key, $3…$13 the
    /// content as `CardWriter` binds it, $14 now.
    private func saveCard(_ entry: PreparedCards.Entry, sourceID: SourceID, now: Timestamp) throws -> CardWriter.Outcome {
        let card = entry.card
        let values: [SQLValue] = [
            SQLValue(sourceID), .text(entry.key.rawValue),
            SQLValue(card.id), SQLValue(card.title), SQLValue(card.descriptionText), SQLValue(card.link),
            SQLValue(card.image), SQLValue(card.published), SQLValue(card.updated), SQLValue(card.author),
            .text(card.kind.rawValue), .text(entry.enclosuresJSON), .text(entry.hash), SQLValue(now),
        ]
        let context = "saving a card of source \(sourceID)"
        let inserted = try connection.execute("""
            INSERT INTO cards (source_id, card_key, guid, title, description, link, image, published,
                               updated, author, kind, enclosures, content_hash,
                               first_seen_at, changed_at, last_seen_at, sort_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $14,
                    coalesce($8::bigint, $9::bigint, $14::bigint))
            ON CONFLICT (source_id, card_key) DO NOTHING
            """, values, context: context)
        if inserted.changedRows > 0 { return .inserted }
        let rewritten = try connection.execute("""
            UPDATE cards SET guid = $3, title = $4, description = $5, link = $6, image = $7,
                published = $8, updated = $9, author = $10, kind = $11, enclosures = $12,
                content_hash = $13, changed_at = $14, last_seen_at = $14,
                sort_date = coalesce($8::bigint, $9::bigint, first_seen_at)
            WHERE source_id = $1 AND card_key = $2 AND content_hash <> $13
            """, values, context: context)
        if rewritten.changedRows > 0 { return .updated }
        try connection.execute("UPDATE cards SET last_seen_at = $3 WHERE source_id = $1 AND card_key = $2",
                               [SQLValue(sourceID), .text(entry.key.rawValue), SQLValue(now)], context: context)
        return .unchanged
    }

    public func recordDegraded(sourceID: SourceID, note: String?) throws {
        try updateSource(sourceID, "degraded = $2", [SQLValue(note)], context: "recording the document's state")
    }

    public func recordNotModified(sourceID: SourceID, validators: CacheValidators = CacheValidators(),
                                  now: Timestamp, nextDue: Timestamp?) throws {
        try updateSource(sourceID, """
            last_attempt_at = $2, last_success_at = $2, last_error = NULL,
            consecutive_failures = 0, next_due_at = $3,
            etag = coalesce($4, etag), last_modified = coalesce($5, last_modified),
            reading_since = NULL, isolated_reason = NULL
            """, [SQLValue(now), SQLValue(nextDue), SQLValue(validators.etag), SQLValue(validators.lastModified)],
            context: "recording a 304")
    }

    @discardableResult
    public func recordFailure(sourceID: SourceID, message: String, now: Timestamp, nextDue: Timestamp?) throws -> Int {
        let result = try connection.execute("""
            UPDATE sources SET last_attempt_at = $2, last_error = $3,
                consecutive_failures = least(consecutive_failures, 1000000000) + 1, next_due_at = $4,
                reading_since = NULL
            WHERE id = $1
            RETURNING consecutive_failures
            """, [SQLValue(sourceID), SQLValue(now), .text(message), SQLValue(nextDue)],
            context: "recording a failure of source \(sourceID)")
        guard result.rowCount > 0 else { throw StorageError.noSuchSource(id: sourceID) }
        return try result.int(0, 0)
    }

    public func markReading(sourceID: SourceID, now: Timestamp) throws {
        try updateSource(sourceID, "reading_since = $2", [SQLValue(now)], context: "marking the reading")
    }

    public func interruptedSources() throws -> [SourceID] {
        let result = try connection.execute("SELECT id FROM sources WHERE reading_since IS NOT NULL ORDER BY id",
                                            context: "listing the interrupted sources")
        return try result.rows { SourceID(rawValue: try result.int64($0, 0)) }
    }

    public func isolate(sourceID: SourceID, reason: String) throws {
        try updateSource(sourceID, "isolated_reason = $2, reading_since = NULL", [.text(reason)], context: "isolating")
    }

    public func disable(sourceID: SourceID, reason: String) throws {
        try updateSource(sourceID, "disabled_reason = $2", [.text(reason)], context: "disabling")
    }

    public func enable(sourceID: SourceID) throws {
        try updateSource(sourceID, "disabled_reason = NULL, consecutive_failures = 0, next_due_at = NULL", [], context: "enabling")
    }

    public func updateFetchURL(sourceID: SourceID, to url: String?) throws {
        try updateSource(sourceID, "fetch_url = nullif($2, url), etag = NULL, last_modified = NULL", [SQLValue(url)],
                         context: "recording a redirect")
    }
}
