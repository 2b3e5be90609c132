import FeedModel

// Fetch results: what `feeds update` records after each request. Each method is one
// transaction, so cards and fetch state always agree, whatever moment the process dies.
extension FeedStore {
    /// Saves a successful fetch (a 200): the cards and the source's new state, together.
    ///
    /// - Each card is matched by (source, key): `keys[i]` when given (search results use
    ///   `CardKey.forSearchResult`), else `cards[i].key`. A new key is inserted; a known key with
    ///   different content is rewritten in place, keeping its id, `firstSeenAt` and read flag; a
    ///   known key with the same content only gets `lastSeenAt = now`.
    /// - A key repeated within `cards` counts once and the **first** occurrence wins: feeds list
    ///   newest first, so the first copy is the current one.
    /// - The source gets `validators` (replacing the old ones, also by nil: validators belong to
    ///   the response that delivered the content), the feed info, `lastSuccessAt = now`,
    ///   `nextDueAt = nextDue`, and its error and failure count cleared.
    @discardableResult
    public func saveFetch(sourceID: SourceID, feed: FeedInfo, cards: [Card], keys: [CardKey]? = nil,
                          validators: CacheValidators, now: Timestamp, nextDue: Timestamp?) throws -> SaveSummary {
        try saveFetch(sourceID: sourceID, feed: feed, prepared: PreparedCards(cards, keys: keys),
                      validators: validators, now: now, nextDue: nextDue)
    }

    /// `saveFetch` of cards prepared elsewhere (another thread, say): the same rules. When they
    /// carry their search text, the new cards' index rows are kept for the next
    /// refresh of the search index once the transaction has committed.
    @discardableResult
    /// `skipped`: the cards the source's skip/keep rules kept out of this fetch (counted for
    /// `feeds sources`: the last fetch's, and a running total held below 2^62).
    public func saveFetch(sourceID: SourceID, feed: FeedInfo, prepared: PreparedCards,
                          validators: CacheValidators, now: Timestamp, nextDue: Timestamp?, skipped: Int = 0) throws -> SaveSummary {
        let feed = StoredBounds.feed(feed)  // its title is the source order's key
        let updateSource = try cachedStatement("""
            UPDATE sources SET
                etag = ?2, last_modified = ?3, feed_title = ?4, feed_link = ?5,
                feed_description = ?6, feed_image = ?7, refresh_hint_seconds = ?8,
                last_attempt_at = ?9, last_success_at = ?9, items_seen_at = ?9,
                last_error = NULL, consecutive_failures = 0, next_due_at = ?10,
                reading_since = NULL, isolated_reason = NULL,
                skipped_last = ?11, skipped_total = min(skipped_total, 4611686018427387904) + ?11
            WHERE id = ?1
            """)
        let writer = try CardWriter(db, prepare: cachedStatement)
        var indexed: [SearchRow] = []
        let summary = try db.writeTransaction {
            try updateSource.execute([
                SQLValue(sourceID), SQLValue(validators.etag), SQLValue(validators.lastModified),
                SQLValue(feed.title), SQLValue(feed.link), SQLValue(feed.description),
                // A zero or negative hint means nothing; dropping it beats failing the CHECK and the save.
                SQLValue(feed.image), SQLValue(feed.refreshHintSeconds.flatMap { $0 > 0 ? $0 : nil }),
                SQLValue(now), SQLValue(nextDue), .integer(Int64(max(0, skipped))),
            ])
            guard db.changes > 0 else { throw StorageError.noSuchSource(id: sourceID) }
            var summary = SaveSummary()
            for entry in prepared.entries {
                let (outcome, id) = try writer.save(entry.card, key: entry.key, enclosures: entry.enclosuresJSON,
                                                    hash: entry.hash, sourceID: sourceID, now: now)
                switch outcome {
                case .inserted: summary.new += 1
                case .updated: summary.updated += 1
                case .unchanged: summary.unchanged += 1
                }
                if outcome == .inserted {
                    // Without text the row is nil: the refresh reads the card instead. (A changed
                    // card is logged by a trigger and always read back: see `SearchIndexer`.)
                    indexed.append(SearchRow(id: id, title: entry.card.title, text: entry.searchText, author: entry.card.author,
                                             fromMemory: prepared.hasSearchText))
                }
            }
            return summary
        }
        // Only now: rows of a rolled-back transaction must never reach the index (their ids
        // would be given to other cards).
        // In a batch, once the batch has (see `inOneTransaction`).
        for row in indexed {
            if batchRows != nil { batchRows?.append((row.id, row.fromMemory ? row : nil)) } else { searchBacklog.byID[row.id] = row.fromMemory ? row : nil }
        }
        return summary
    }

    /// Records whether the last saved document was degraded (see `StoredSource.degraded`).
    public func recordDegraded(sourceID: SourceID, note: String?) throws {
        try updateSource(sourceID, "degraded = ?2", [SQLValue(note)])
    }

    /// Records a 304 Not Modified: a success that changes no card. Validators the response
    /// carried replace the stored ones field by field; nil fields keep what is stored.
    public func recordNotModified(sourceID: SourceID, validators: CacheValidators = CacheValidators(),
                                  now: Timestamp, nextDue: Timestamp?) throws {
        try updateSource(sourceID, """
            last_attempt_at = ?2, last_success_at = ?2, last_error = NULL,
            consecutive_failures = 0, next_due_at = ?3,
            etag = coalesce(?4, etag), last_modified = coalesce(?5, last_modified),
            reading_since = NULL, isolated_reason = NULL
            """, [SQLValue(now), SQLValue(nextDue), SQLValue(validators.etag), SQLValue(validators.lastModified)])
    }

    /// Records a failed fetch. Cards and validators stay; the failure count grows by one and
    /// is returned, so the caller can back off or give up. (Held below 10^9: a count an older
    /// version or a hand edit left near 2^63 must not overflow into a REAL the STRICT table refuses.)
    @discardableResult
    public func recordFailure(sourceID: SourceID, message: String, now: Timestamp, nextDue: Timestamp?) throws -> Int {
        let statement = try cachedStatement("""
            UPDATE sources SET last_attempt_at = ?2, last_error = ?3,
                consecutive_failures = min(consecutive_failures, 1000000000) + 1, next_due_at = ?4,
                reading_since = NULL
            WHERE id = ?1
            RETURNING consecutive_failures
            """)
        return try db.writeTransaction {
            let failures = try statement.queryOne([SQLValue(sourceID), SQLValue(now), .text(message), SQLValue(nextDue)]) {
                $0.int(0)
            }
            guard let failures else { throw StorageError.noSuchSource(id: sourceID) }
            return failures
        }
    }

    /// Marks the source as being read by this run, from its response until the outcome is
    /// recorded (`saveFetch`, `recordNotModified` and `recordFailure` clear the mark): should
    /// the run die in between, the next one finds the mark (`interruptedSources`).
    ///
    /// `releasing`: sources whose reading is over although their outcome is not recorded yet
    /// (parsed, waiting to be saved with others in one transaction): their marks are cleared in
    /// the same transaction, so a crash elsewhere is not taken for theirs. (Their outcome is
    /// then lost with the run, and they are fetched again by the next one: nothing was saved.)
    public func markReading(sourceID: SourceID, now: Timestamp, releasing: [SourceID] = []) throws {
        guard !releasing.isEmpty else { return try updateSource(sourceID, "reading_since = ?2", [SQLValue(now)]) }
        let mark = try cachedStatement("UPDATE sources SET reading_since = ?2 WHERE id = ?1")
        let release = try cachedStatement("UPDATE sources SET reading_since = NULL WHERE id = ?1")
        try db.writeTransaction {
            for id in releasing { try release.execute([SQLValue(id)]) }
            try mark.execute([SQLValue(sourceID), SQLValue(now)])
            guard db.changes > 0 else { throw StorageError.noSuchSource(id: sourceID) }
        }
    }

    /// The sources a run was reading when it stopped (their mark still set).
    public func interruptedSources() throws -> [SourceID] {
        try db.prepare("SELECT id FROM sources WHERE reading_since IS NOT NULL ORDER BY id").query { SourceID(rawValue: $0.int64(0)) }
    }

    /// From now on the source is fetched last, alone, in a process of its own, until a success.
    public func isolate(sourceID: SourceID, reason: String) throws {
        try updateSource(sourceID, "isolated_reason = ?2, reading_since = NULL", [.text(reason)])
    }

    /// Stops fetching the source for good (410 Gone, for example) until `enable` is called.
    public func disable(sourceID: SourceID, reason: String) throws {
        try updateSource(sourceID, "disabled_reason = ?2", [.text(reason)])
    }

    /// Makes a disabled source fetchable again, due at once, with a clean failure count.
    public func enable(sourceID: SourceID) throws {
        try updateSource(sourceID, "disabled_reason = NULL, consecutive_failures = 0, next_due_at = NULL", [])
    }

    /// Records a permanent redirect: later fetches go to `url` (nil, or the configured URL
    /// itself, goes back to the configured URL). The stored validators are dropped because they
    /// belong to the old address.
    public func updateFetchURL(sourceID: SourceID, to url: String?) throws {
        try updateSource(sourceID, """
            fetch_url = nullif(?2, url), etag = NULL, last_modified = NULL
            """, [SQLValue(url)])
    }

    /// One UPDATE of the source row `?1` in its own transaction; `?2…` are `values`.
    private func updateSource(_ id: SourceID, _ assignments: String, _ values: [SQLValue]) throws {
        let statement = try cachedStatement("UPDATE sources SET \(assignments) WHERE id = ?1")
        try db.writeTransaction {
            try statement.execute([SQLValue(id)] + values)
            guard db.changes > 0 else { throw StorageError.noSuchSource(id: id) }
        }
    }
}
