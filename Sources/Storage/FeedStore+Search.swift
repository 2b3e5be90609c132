import FeedModel

// Full-text search (see `SearchIndex`).
extension FeedStore {
    /// Indexes the cards saved or changed since the last refresh, in one transaction; returns
    /// how many. Cheap when nothing is pending (one indexed read), so every search calls it.
    @discardableResult
    public func refreshSearchIndex() throws -> Int {
        let pending = try db.prepare("SELECT count(*) FROM card_search_pending").queryOne { $0.int(0) } ?? 0
        guard pending > 0 else { return 0 }
        let read = try db.prepare("""
            SELECT c.id, c.title, c.description, c.author
            FROM card_search_pending p JOIN cards c ON c.id = p.card_id
            WHERE p.card_id > ?1 ORDER BY p.card_id LIMIT 256
            """)
        let write = try db.prepare(
            "INSERT OR REPLACE INTO card_search (rowid, title, description, author) VALUES (?1, ?2, ?3, ?4)")
        let convert = descriptionText
        return try db.writeTransaction {
            // In batches, so a large backlog (the first refresh after the migration) never holds
            // every description in memory; each batch is read before it is written.
            var last: Int64 = 0
            var count = 0
            while true {
                let rows = try read.query([.integer(last)]) { row in
                    (row.int64(0), row.string(1), row.string(2), row.string(3))
                }
                guard let tail = rows.last else { break }
                for (id, title, description, author) in rows {
                    try write.execute([.integer(id), SQLValue(title),
                                       SQLValue(SearchIndex.descriptionText(description, convert)), SQLValue(author)])
                }
                count += rows.count
                last = tail.0
            }
            try db.execute("DELETE FROM card_search_pending")
            return count
        }
    }
}
