import FeedModel

// Retention: forgetting old cards.
extension FeedStore {
    /// Deletes read cards past their source's retention and returns how many went.
    ///
    /// A card goes when it is **read**, is **not listed by the source any more** (it was not
    /// in the latest delivered batch), and either
    /// - both its sort date and its last sighting are older than `keep_days` (source's value,
    ///   else `defaultKeepDays`), or
    /// - it ranks beyond `keep_count` (source's value, else `defaultKeepCount`) in the source's
    ///   newest-first order (the newest are kept).
    ///
    /// Never unread cards; never cards the source still lists, because deleting one would make
    /// the next fetch bring it back as new and unread. Consequently `keep_count` cannot shrink a
    /// source below the size of its feed. nil defaults mean no limit of that kind.
    ///
    /// The sources some retention applies to are pruned a group at a time, each group's cards
    /// (`pruneGroupCards` at most, but for a bigger single source) in a transaction of its own:
    /// one statement over every card kept its statement journal in memory (the update's bulk
    /// settings keep temporary files there): 924 MB of peak memory for the first prune of years
    /// of cards (312,000 of 1,014,000 over 5,000 sources, issue 21), and the write lock held
    /// throughout.
    /// A card's rank is within its source, so grouping by source decides each card as before.
    @discardableResult
    public func prune(now: Timestamp, defaultKeepDays: Int?, defaultKeepCount: Int? = nil) throws -> Int {
        try prune(now: now, defaultKeepDays: defaultKeepDays, defaultKeepCount: defaultKeepCount, groupCards: Self.pruneGroupCards)
    }

    /// `prune` with groups of `groupCards` cards (tests: any grouping decides the same).
    func prune(now: Timestamp, defaultKeepDays: Int?, defaultKeepCount: Int?, groupCards: Int) throws -> Int {
        let limits = [SQLValue(defaultKeepDays), SQLValue(defaultKeepCount)]
        let sources = try db.prepare("""
            SELECT id, card_count FROM sources
            WHERE coalesce(keep_days, ?1) IS NOT NULL OR coalesce(keep_count, ?2) IS NOT NULL
            ORDER BY id
            """).query(limits) { ($0.int64(0), $0.int(1)) }
        var groups: [ClosedRange<Int64>] = []
        var first: Int64?, cards = 0
        for (id, count) in sources {
            if first == nil { first = id }
            // Counts from the database are summed without trapping (a hand-edited one may be huge).
            let (sum, overflow) = cards.addingReportingOverflow(max(0, count))
            cards = overflow ? Int.max : sum
            if cards >= groupCards, let start = first {
                groups.append(start...id)
                (first, cards) = (nil, 0)
            }
        }
        if let start = first, let last = sources.last { groups.append(start...last.0) }
        let statement = try db.prepare("""
            DELETE FROM cards WHERE id IN (
                SELECT r.id
                FROM (SELECT id, source_id, is_read, sort_date, last_seen_at,
                             row_number() OVER (PARTITION BY source_id
                                                ORDER BY sort_date DESC, id DESC) AS rank
                      FROM cards
                      -- Only sources some retention applies to: ranking every card of every
                      -- source ran after each update even when nothing could go.
                      WHERE source_id IN (SELECT id FROM sources
                                          WHERE (coalesce(keep_days, ?2) IS NOT NULL
                                                 OR coalesce(keep_count, ?3) IS NOT NULL)
                                            AND id BETWEEN ?4 AND ?5)) r
                JOIN sources s ON s.id = r.source_id
                WHERE r.is_read = 1
                  AND (s.items_seen_at IS NULL OR r.last_seen_at < s.items_seen_at)
                  AND ((coalesce(s.keep_days, ?2) IS NOT NULL
                        AND max(r.sort_date, r.last_seen_at) < ?1 - coalesce(s.keep_days, ?2) * 86400)
                    OR (coalesce(s.keep_count, ?3) IS NOT NULL AND r.rank > coalesce(s.keep_count, ?3)))
            )
            """)
        var deleted = 0
        for group in groups {
            deleted += try db.writeTransaction {
                try statement.execute([SQLValue(now), SQLValue(defaultKeepDays), SQLValue(defaultKeepCount),
                                       SQLValue(group.lowerBound), SQLValue(group.upperBound)])
                return db.changes
            }
        }
        return deleted
    }

    /// The cards (by the sources' counts) of one group of `prune`: its statement journal holds
    /// the pages the group's deletes change, a few MB.
    static let pruneGroupCards = 5_000
}

// The per-source card cap (`max-cards=`, issue 15): a feed of fresh guids at every fetch must
// not grow the database and every listing without end.
extension FeedStore {
    /// Deletes cards of `sourceID` beyond `max`, and says how many of each kind went: first its
    /// **read** cards the source no longer lists, oldest first (by sort date); only if that is
    /// not enough, its **unread** cards the source no longer lists, oldest first (newsboat's
    /// `max-items` drops old items whatever their state too; here the caller reports it, so
    /// no unread card goes unannounced). Cards the source still lists (its latest delivered
    /// batch) never go, since the next fetch would bring them back as new and unread: a source
    /// therefore keeps at least its feed's items (which `max-items=` bounds).
    public func capCards(sourceID: SourceID, max: Int) throws -> (read: Int, unread: Int) {
        // Cached: `feeds update` calls this after every source it saves.
        let count = try cachedStatement("SELECT count(*) FROM cards WHERE source_id = ?1")
        let delete = try cachedStatement("""
            DELETE FROM cards WHERE id IN (
                SELECT c.id FROM cards c JOIN sources s ON s.id = c.source_id
                WHERE c.source_id = ?1 AND c.is_read = ?2
                  AND (s.items_seen_at IS NULL OR c.last_seen_at < s.items_seen_at)
                ORDER BY c.sort_date, c.id
                LIMIT ?3)
            """)
        return try db.writeTransaction {
            let total = try count.queryOne([SQLValue(sourceID.rawValue)]) { $0.int(0) } ?? 0
            guard total > max else { return (0, 0) }
            try delete.execute([SQLValue(sourceID.rawValue), SQLValue(1), SQLValue(total - max)])
            let read = db.changes
            guard total - read > max else { return (read, 0) }
            try delete.execute([SQLValue(sourceID.rawValue), SQLValue(0), SQLValue(total - read - max)])
            return (read, db.changes)
        }
    }
}
