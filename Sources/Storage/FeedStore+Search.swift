import FeedModel

// Full-text search (see `SearchIndex`).
extension FeedStore {
    /// Indexes the cards saved or changed since the last refresh, in one transaction; returns
    /// how many. Cheap when nothing is waiting (two indexed reads), so every search calls it.
    @discardableResult
    public func refreshSearchIndex() throws -> Int {
        let waiting = try db.prepare("""
            SELECT (SELECT coalesce(max(id), 0) FROM cards) > (SELECT indexed_through FROM card_search_state)
                   OR EXISTS (SELECT 1 FROM card_search_pending)
            """)
        guard try waiting.queryOne([], { $0.bool(0) }) == true else {
            searchBacklog = [:]  // indexed already (by a search in another process, say)
            return 0
        }
        // New cards (above the mark), then queued ones; each in batches, so a large backlog
        // (the first refresh after the migration) never holds every description in memory.
        // 64 rows: descriptions are read whole, and the update's peak memory is a goal.
        let new = try db.prepare("""
            SELECT id, title, description, author FROM cards
            WHERE id > (SELECT indexed_through FROM card_search_state) AND id > ?1
            ORDER BY id LIMIT 64
            """)
        let queued = try db.prepare("""
            SELECT c.id, c.title, c.description, c.author
            FROM card_search_pending p JOIN cards c ON c.id = p.card_id
            WHERE p.card_id > ?1 ORDER BY p.card_id LIMIT 64
            """)
        let write = try db.prepare(
            "INSERT OR REPLACE INTO card_search (rowid, title, description, author) VALUES (?1, ?2, ?3, ?4)")
        // A backlog row is written only while its card exists (another process may have
        // deleted it since), and leaves the queue of changed cards. (Not one INSERT … SELECT …
        // WHERE EXISTS: into FTS5 that measured three times slower than a lookup and a plain
        // INSERT … VALUES.)
        let exists = try db.prepare("SELECT 1 FROM cards WHERE id = ?1")
        let unqueue = try db.prepare("DELETE FROM card_search_pending WHERE card_id = ?1")
        let bounds = try db.prepare("""
            SELECT (SELECT indexed_through FROM card_search_state), (SELECT coalesce(max(id), 0) FROM cards)
            """)
        let convert = descriptionText
        let backlog = searchBacklog
        searchBacklog = [:]
        return try db.writeTransaction {
            var count = 0
            for row in backlog.values.sorted(by: { $0.id < $1.id }) {
                guard try exists.queryOne([.integer(row.id)], { _ in true }) == true else { continue }
                try write.execute([.integer(row.id), SQLValue(row.title), SQLValue(row.text), SQLValue(row.author)])
                try unqueue.execute([.integer(row.id)])
                count += 1
            }
            // The new cards need reading only when the backlog does not hold all of them (cards
            // saved by another connection, or before a failed refresh): ids are distinct, so as
            // many backlog ids in (mark, max] as there are ids in that range means all of them.
            let (mark, maxID) = try bounds.queryOne { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
            let coveredNew = Int64(backlog.keys.filter { $0 > mark && $0 <= maxID }.count) == maxID - mark
            for source in coveredNew ? [queued] : [new, queued] {
                var last: Int64 = 0
                while true {
                    // Each batch is read completely before it is written.
                    let rows = try source.query([.integer(last)]) { row in
                        (row.int64(0), row.string(1), row.string(2), row.string(3))
                    }
                    guard let tail = rows.last else { break }
                    for (id, title, description, author) in rows where backlog[id] == nil {
                        try write.execute([.integer(id), SQLValue(title),
                                           SQLValue(SearchIndex.descriptionText(description, convert)), SQLValue(author)])
                        count += 1
                    }
                    last = tail.0
                }
            }
            try db.execute("""
                DELETE FROM card_search_pending;
                UPDATE card_search_state SET indexed_through = (SELECT coalesce(max(id), 0) FROM cards);
                """)
            return count
        }
    }
}
