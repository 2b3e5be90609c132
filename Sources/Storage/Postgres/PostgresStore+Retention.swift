import FeedModel

// Retention on PostgreSQL: FeedStore+Retention.swift's rules and statements in PostgreSQL's
// dialect (greatest for SQLite's two-argument max), each call one transaction. The deleted
// cards' search rows go with them (ON DELETE CASCADE).
extension PostgresStore: CardRetentionStore {
    @discardableResult
    public func prune(now: Timestamp, defaultKeepDays: Int?, defaultKeepCount: Int?) throws -> Int {
        try connection.execute("""
            DELETE FROM cards WHERE id IN (
                SELECT r.id
                FROM (SELECT id, source_id, is_read, sort_date, last_seen_at,
                             row_number() OVER (PARTITION BY source_id ORDER BY sort_date DESC, id DESC) AS rank
                      FROM cards
                      WHERE source_id IN (SELECT id FROM sources
                                          WHERE coalesce(keep_days, $2::bigint) IS NOT NULL
                                             OR coalesce(keep_count, $3::bigint) IS NOT NULL)) r
                JOIN sources s ON s.id = r.source_id
                WHERE r.is_read
                  AND (s.items_seen_at IS NULL OR r.last_seen_at < s.items_seen_at)
                  AND ((coalesce(s.keep_days, $2::bigint) IS NOT NULL
                        AND greatest(r.sort_date, r.last_seen_at) < $1::bigint - coalesce(s.keep_days, $2::bigint) * 86400)
                    OR (coalesce(s.keep_count, $3::bigint) IS NOT NULL AND r.rank > coalesce(s.keep_count, $3::bigint)))
            )
            """, [SQLValue(now), SQLValue(defaultKeepDays), SQLValue(defaultKeepCount)],
            context: "pruning old cards").changedRows
    }

    public func capCards(sourceID: SourceID, max: Int) throws -> (read: Int, unread: Int) {
        try connection.transaction("capping the cards of source \(sourceID)") {
            // The source's row locked first, as a save does: a worker saving it meanwhile waits.
            let total = try connection.execute("""
                SELECT (SELECT count(*) FROM cards WHERE source_id = $1) FROM sources WHERE id = $1 FOR UPDATE
                """, [SQLValue(sourceID)], context: "counting the cards of source \(sourceID)")
            guard total.rowCount > 0 else { return (0, 0) }
            let count = try total.int(0, 0)
            guard count > max else { return (0, 0) }
            func delete(read: Bool, _ atMost: Int) throws -> Int {
                try connection.execute("""
                    DELETE FROM cards WHERE id IN (
                        SELECT c.id FROM cards c JOIN sources s ON s.id = c.source_id
                        WHERE c.source_id = $1 AND c.is_read = $2::boolean
                          AND (s.items_seen_at IS NULL OR c.last_seen_at < s.items_seen_at)
                        ORDER BY c.sort_date, c.id
                        LIMIT $3)
                    """, [SQLValue(sourceID), .text(read ? "true" : "false"), .integer(Int64(atMost))],
                    context: "capping the cards of source \(sourceID)").changedRows
            }
            let read = try delete(read: true, count - max)
            guard count - read > max else { return (read, 0) }
            return (read, try delete(read: false, count - read - max))
        }
    }
}
