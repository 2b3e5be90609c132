import FeedModel

extension FeedStore {
    /// How many cards match `query`'s filters (its limit ignored) and the search `text`: the
    /// matches looked up by id under the filters (`searchRows`' plan for an unlimited listing in
    /// an order other than relevance), counted; errors as `search(_:query:order:)`'s.
    public func searchCount(_ text: String, query: CardQuery) throws -> Int {
        var unlimited = query
        unlimited.limit = nil
        return try searchRows(text, query: unlimited, order: .newest, window: Self.relevanceWindow, columns: "count(*)") { sql, values in
            try self.db.prepare(sql).query(values) { $0.int(0) }
        }.reduce(0, +)  // a count per walk where the listing merges walks (`FeedStore.dateArms`)
    }
}
