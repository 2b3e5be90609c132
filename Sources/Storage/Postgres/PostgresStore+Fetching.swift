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
        let feed = StoredBounds.feed(feed)  // its title is the source order's key
        return try connection.transaction("saving a fetch of source \(sourceID)") {
            let updated = try connection.execute("""
                UPDATE sources SET
                    etag = $2, last_modified = $3, feed_title = $4, feed_link = $5,
                    feed_description = $6, feed_image = $7, refresh_hint_seconds = $8,
                    last_attempt_at = $9, last_success_at = $9, items_seen_at = $9,
                    last_error = NULL, consecutive_failures = 0, next_due_at = $10,
                    reading_since = NULL, isolated_reason = NULL, lease_takeovers = 0,
                    skipped_last = $11, skipped_total = least(skipped_total, 4611686018427387904) + $11
                WHERE id = $1\(fenceCondition(12).sql)
                """, [SQLValue(sourceID), SQLValue(validators.etag), SQLValue(validators.lastModified),
                      SQLValue(feed.title), SQLValue(feed.link), SQLValue(feed.description),
                      // A zero or negative hint means nothing; dropping it beats failing the CHECK and the save.
                      SQLValue(feed.image), SQLValue(feed.refreshHintSeconds.flatMap { $0 > 0 ? $0 : nil }),
                      SQLValue(now), SQLValue(nextDue), .integer(Int64(max(0, skipped))), fenceCondition(12).value],
                context: "saving a fetch of source \(sourceID)")
            guard updated.changedRows > 0 else { throw try unchangedSourceError(sourceID) }
            return try saveCards(prepared, sourceID: sourceID, now: now)
        }
    }

    /// The fetch's cards in one statement whatever their number (one per card and outcome took
    /// 0.4 s for 1,000 unchanged cards on loopback; three, one per outcome, were two round trips
    /// more per feed), the cards as arrays (`unnest`), three writes in it: the unchanged ones
    /// (same key, same hash) only seen again, the changed ones rewritten in place (id, first
    /// sighting and read flag kept), the new ones inserted with ON CONFLICT on the identity key.
    /// The three read the cards as they were before the statement, so each card is counted
    /// once: a key matches at most one of the two updates, and an existing key makes the
    /// insert do nothing. Then the search rows of the changed and new ones, from the fields
    /// just written (one more statement, none when nothing changed).
    private func saveCards(_ prepared: PreparedCards, sourceID: SourceID, now: Timestamp) throws -> SaveSummary {
        let entries = prepared.entries
        guard !entries.isEmpty else { return SaveSummary() }
        let context = "saving the cards of source \(sourceID)"
        // $3… the cards' columns, one array each; $1 the source, $2 now.
        let columns: [SQLValue] = [
            PGArray.texts(entries.map { $0.key.rawValue }),
            PGArray.texts(entries.map(\.card.id)), PGArray.texts(entries.map(\.card.title)),
            PGArray.texts(entries.map { $0.card.descriptionText?.string }), PGArray.texts(entries.map(\.card.link)),
            PGArray.texts(entries.map(\.card.image)),
            PGArray.integers(entries.map { $0.card.published?.secondsSince1970 }),
            PGArray.integers(entries.map { $0.card.updated?.secondsSince1970 }),
            PGArray.texts(entries.map(\.card.author)), PGArray.texts(entries.map(\.card.kind.rawValue)),
            PGArray.texts(entries.map(\.enclosuresJSON)), PGArray.texts(entries.map(\.hash)),
        ]
        let written = try connection.execute("""
            WITH i AS (
                SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[],
                                     $10::bigint[], $11::text[], $12::text[], $13::text[], $14::text[]) WITH ORDINALITY
                    AS i(card_key, guid, title, description, link, image, published, updated, author, kind,
                         enclosures, content_hash, position)
            ), unchanged AS (
                UPDATE cards c SET last_seen_at = $2
                FROM i WHERE c.source_id = $1 AND c.card_key = i.card_key AND c.content_hash = i.content_hash
                RETURNING c.id
            ), changed AS (
                UPDATE cards c SET guid = i.guid, title = i.title, description = i.description, link = i.link,
                    image = i.image, published = i.published, updated = i.updated, author = i.author, kind = i.kind,
                    enclosures = i.enclosures::json, content_hash = i.content_hash, changed_at = greatest($2, c.changed_at + 1),
                    last_seen_at = $2, sort_date = coalesce(i.published, i.updated, c.first_seen_at)
                FROM i WHERE c.source_id = $1 AND c.card_key = i.card_key AND c.content_hash <> i.content_hash
                RETURNING c.id, i.position
            ), added AS (
                -- In the fetch's order, so ids grow as the cards were listed (as SQLite numbers them).
                INSERT INTO cards (source_id, card_key, guid, title, description, link, image, published,
                                   updated, author, kind, enclosures, content_hash,
                                   first_seen_at, changed_at, last_seen_at, sort_date)
                SELECT $1, i.card_key, i.guid, i.title, i.description, i.link, i.image, i.published, i.updated,
                       i.author, i.kind, i.enclosures::json, i.content_hash, $2, $2, $2, coalesce(i.published, i.updated, $2)
                FROM i ORDER BY i.position
                ON CONFLICT (source_id, card_key) DO NOTHING
                RETURNING id, card_key
            )
            SELECT 'u', count(*), NULL::bigint FROM unchanged
            UNION ALL SELECT 'c', id, position FROM changed
            UNION ALL SELECT 'n', a.id, i.position FROM added a JOIN i ON i.card_key = a.card_key
            """, [SQLValue(sourceID), SQLValue(now)] + columns, context: context)
        var summary = SaveSummary()
        var ids: [Int64] = []
        var cards: [(title: String?, description: String?, author: String?)] = []
        for row in 0..<written.rowCount {
            switch written.string(row, 0) {
            case "u":
                summary.unchanged = try written.int(row, 1)
                continue
            case "c": summary.updated += 1
            default: summary.new += 1
            }
            // position is 1-based (WITH ORDINALITY) and within the entries the statement was given.
            let position = try written.int(row, 2)
            guard position >= 1, position <= entries.count else { continue }
            let entry = entries[position - 1]
            ids.append(try written.int64(row, 1))
            cards.append((entry.card.title, entry.card.descriptionText?.string, entry.card.author))
        }
        // The search rows of the new and changed cards (PostgresStore+Search.swift).
        try writeSearchRows(ids: ids, cards)
        return summary
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
            reading_since = NULL, isolated_reason = NULL, lease_takeovers = 0
            """, [SQLValue(now), SQLValue(nextDue), SQLValue(validators.etag), SQLValue(validators.lastModified)],
            context: "recording a 304")
    }

    @discardableResult
    public func recordFailure(sourceID: SourceID, message: String, now: Timestamp, nextDue: Timestamp?) throws -> Int {
        let result = try connection.execute("""
            UPDATE sources SET last_attempt_at = $2, last_error = $3,
                consecutive_failures = least(consecutive_failures, 1000000000) + 1, next_due_at = $4,
                reading_since = NULL, lease_takeovers = 0
            WHERE id = $1\(fenceCondition(5).sql)
            RETURNING consecutive_failures
            """, [SQLValue(sourceID), SQLValue(now), .text(message), SQLValue(nextDue), fenceCondition(5).value],
            context: "recording a failure of source \(sourceID)")
        guard result.rowCount > 0 else { throw try unchangedSourceError(sourceID) }
        return try result.int(0, 0)
    }

    public func markReading(sourceID: SourceID, now: Timestamp) throws {
        try markReading(sourceID: sourceID, now: now, releasing: [])
    }

    /// One statement: the mark of `sourceID`, the marks of `releasing` cleared (parsed, their
    /// outcomes waiting to be written), and the host slots given back since the last statement
    /// deleted (`releaseHostSlot`). Held back by the fence as a whole (the mark's lease lost:
    /// `leaseLost`, nothing written); a source of `releasing` another worker holds keeps its mark.
    public func markReading(sourceID: SourceID, now: Timestamp, releasing: [SourceID]) throws {
        let slots = releasedSlots
        let (condition, fence) = fenceCondition(5)
        let marked = try connection.execute("""
            WITH freed AS (DELETE FROM host_slots WHERE cardinality($4::bigint[]) > 0 AND id = ANY($4::bigint[]))
            UPDATE sources SET reading_since = CASE WHEN id = $1 THEN $2::bigint END
            WHERE (id = $1 OR id = ANY($3::bigint[]))\(condition)
            RETURNING id
            """, [SQLValue(sourceID), SQLValue(now), PGArray.ids(releasing), PGArray.integers(slots), fence],
            context: "marking the reading of source \(sourceID)")
        guard try marked.rows({ try marked.int64($0, 0) }).contains(sourceID.rawValue) else { throw try unchangedSourceError(sourceID) }
        releasedSlots.removeFirst(min(slots.count, releasedSlots.count))
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
        // A person's command (naming a disabled source), not a fetch's outcome: never fenced.
        try updateSource(sourceID, "disabled_reason = NULL, consecutive_failures = 0, next_due_at = NULL", [], fenced: false,
                         context: "enabling")
    }

    public func updateFetchURL(sourceID: SourceID, to url: String?) throws {
        try updateSource(sourceID, "fetch_url = nullif($2, url), etag = NULL, last_modified = NULL", [SQLValue(url)],
                         context: "recording a redirect")
    }
}
