import FeedModel

// Rows copied as they are from another store (`StoreCopy`): every field a fetch or a person
// set, not only what the update path writes.
extension PostgresStore {
    /// Inserts `source` with all it knows (configuration, validators, feed info, schedule,
    /// failures, marks, counts of skipped cards); its new id. No lease.
    func importSource(_ source: StoredSource) throws -> SourceID {
        let c = source.configuration
        let result = try connection.execute("""
            INSERT INTO sources (url, fetch_url, name, kind, tags, etag, last_modified, feed_title, feed_link,
                                 feed_description, feed_image, refresh_hint_seconds, last_attempt_at, last_success_at,
                                 items_seen_at, last_error, consecutive_failures, next_due_at, disabled_reason,
                                 keep_days, keep_count, created_at, reading_since, isolated_reason, skipped_last,
                                 skipped_total, degraded)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
                    $20, $21, $22, $23, $24, $25, $26, $27)
            RETURNING id
            """, [.text(c.url), SQLValue(source.fetchURL), SQLValue(c.name), .text(c.kind.rawValue), .text(TagList.encode(c.tags)),
                  SQLValue(source.validators.etag), SQLValue(source.validators.lastModified), SQLValue(StoredBounds.title(source.feed.title)),
                  SQLValue(source.feed.link), SQLValue(source.feed.description), SQLValue(source.feed.image),
                  SQLValue(source.feed.refreshHintSeconds), SQLValue(source.lastAttemptAt), SQLValue(source.lastSuccessAt),
                  SQLValue(source.itemsSeenAt), SQLValue(source.lastError), .integer(Int64(source.consecutiveFailures)),
                  SQLValue(source.nextDueAt), SQLValue(source.disabledReason), SQLValue(c.keepDays), SQLValue(c.keepCount),
                  SQLValue(source.createdAt), SQLValue(source.readingSince), SQLValue(source.isolatedReason),
                  .integer(Int64(source.skippedLastFetch)), .integer(Int64(source.skippedTotal)), SQLValue(source.degraded)],
            context: "copying the source \(c.url)")
        return SourceID(rawValue: try result.int64(0, 0))
    }

    /// Inserts `cards` into `sourceID` with their dates and read flags as stored, in one
    /// transaction, in the order given (ids grow in that order, as they did where they come
    /// from, so the orders' id tie breaks stay the same).
    func importCards(_ cards: [StoredCard], to sourceID: SourceID) throws {
        guard !cards.isEmpty else { return }
        try connection.transaction("copying the cards of source \(sourceID)") {
            for stored in cards {
                let card = stored.card
                let enclosures = EnclosureJSON.encode(card.enclosures)
                try connection.execute("""
                    INSERT INTO cards (source_id, card_key, guid, title, description, link, image, published, updated,
                                       author, kind, enclosures, content_hash, first_seen_at, changed_at, last_seen_at,
                                       is_read, sort_date)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::boolean, $18)
                    """, [SQLValue(sourceID), .text(StoredBounds.key(stored.key).rawValue), SQLValue(card.id), SQLValue(StoredBounds.title(card.title)),
                          SQLValue(card.descriptionText), SQLValue(card.link), SQLValue(card.image), SQLValue(card.published),
                          SQLValue(card.updated), SQLValue(card.author), .text(card.kind.rawValue), .text(enclosures),
                          .text(ContentHash.of(card, enclosuresJSON: enclosures)), SQLValue(stored.firstSeenAt),
                          SQLValue(stored.changedAt), SQLValue(stored.lastSeenAt), .text(stored.isRead ? "true" : "false"),
                          SQLValue(stored.sortDate)],
                    context: "copying a card of source \(sourceID)")
            }
            try indexCards(sourceID: sourceID, keys: cards.map { StoredBounds.key($0.key).rawValue })
        }
    }
}
