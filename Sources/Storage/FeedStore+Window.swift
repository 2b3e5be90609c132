import FeedModel

// A window of a listing: what `feeds browse` reads of a listing of any length. It never reads
// every id of a listing: a card's place is one count over the order's index, the cards around
// it one read with OFFSET on that index, the next unread card one read of the order's key.
extension FeedStore {
    /// How many cards `cards(query, order:)` lists (its limit aside).
    public func listingCount(_ query: CardQuery) throws -> Int {
        let filter = Self.cardFilter(try resolvingTag(query))
        // The cards alone: every card has its source (a foreign key), so no join is needed.
        return try db.prepare("SELECT count(*) FROM cards c \(filter.whereClause)").queryOne(filter.values) { $0.int(0) } ?? 0
    }

    /// The `limit` cards of `cards(query, order:)` from its `offset`-th on (`query`'s limit aside).
    public func listingWindow(_ query: CardQuery, order: CardOrder, offset: Int, limit: Int) throws -> [StoredCard] {
        var query = try resolvingTag(query)
        query.limit = max(0, limit)
        let listing = Self.listing(query, order: order)
        return try readCards(listing.sql + " OFFSET \(max(0, offset))", listing.values)
    }

    /// The place of the card `id` in `cards(query, order:)`, or nil when it is not listed: the
    /// number of listed cards whose key in `order` is smaller than its key.
    public func listingPosition(of id: CardID, _ query: CardQuery, order: CardOrder) throws -> Int? {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        filter.add("c.id = ?", .integer(id.rawValue))
        let listed = try db.prepare("SELECT count(*) FROM cards c \(filter.whereClause)").queryOne(filter.values) { $0.int(0) } ?? 0
        guard listed > 0 else { return nil }
        var before = Self.cardFilter(query)
        before.add(Self.keyComparison(order, before: true))
        let sql = "SELECT count(*) FROM \(Self.keyedFrom(order, id)) \(before.whereClause)"
        return try db.prepare(sql).queryOne(before.values) { $0.int(0) } ?? 0
    }

    /// The place in `cards(query, order:)` of the first unread card after (or the last before)
    /// the card `id`, or nil when there is none.
    public func unreadPosition(from id: CardID, forward: Bool, _ query: CardQuery, order: CardOrder) throws -> Int? {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        filter.add("c.is_read = 0")
        filter.add(Self.keyComparison(order, before: !forward))
        let orderBy = order.keyTerms.map { term in
            term.descending == forward ? term.expression + " DESC" : term.expression
        }.joined(separator: ", ")
        let sql = "SELECT c.id FROM \(Self.keyedFrom(order, id)) \(filter.whereClause) ORDER BY \(orderBy) LIMIT 1"
        guard let found = try db.prepare(sql).queryOne(filter.values, { CardID(rawValue: $0.int64(0)) }) else { return nil }
        return try listingPosition(of: found, query, order: order)
    }

    /// The ids of a search's listing (`search(_:query:order:)`), in its order: at most the
    /// relevance window, or the matches.
    public func searchListing(_ text: String, query: CardQuery, order: CardOrder) throws -> [CardID] {
        try searchRows(text, query: query, order: order, window: Self.relevanceWindow, columns: "c.id") { sql, values in
            try self.db.prepare(sql).query(values) { CardID(rawValue: $0.int64(0)) }
        }
    }

    /// The index in `ids` of the first (or, `last`, the last) unread card among them.
    public func firstUnread(among ids: ArraySlice<CardID>, last: Bool = false) throws -> Int? {
        guard !ids.isEmpty else { return nil }
        let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        let found = try db.prepare("""
            SELECT j.key FROM json_each(?1) j JOIN cards c ON c.id = j.value
            WHERE c.is_read = 0 ORDER BY j.key \(last ? "DESC" : "") LIMIT 1
            """).queryOne([.text(list)]) { $0.int(0) }
        return found.map { ids.startIndex + $0 }
    }

    /// The listed cards `c` (with their sources when the order needs them) beside `k`, the
    /// order's key of the card `id` (an id from the store, written into the statement).
    private static func keyedFrom(_ order: CardOrder, _ id: CardID) -> String {
        let terms = order.keyTerms.enumerated().map { "\($0.element.expression) AS k\($0.offset)" }.joined(separator: ", ")
        let cards = order == .source ? "cards c JOIN sources s ON s.id = c.source_id" : "cards c"
        return "(SELECT \(terms) FROM cards c JOIN sources s ON s.id = c.source_id WHERE c.id = \(id.rawValue)) k, \(cards)"
    }

    /// Whether card `c` comes before (else after) card `k` in `order`: its key smaller (larger),
    /// term by term, equal terms (`IS`: NULL equals NULL) passed on to the next.
    private static func keyComparison(_ order: CardOrder, before: Bool) -> String {
        let terms = order.keyTerms
        return "(" + terms.indices.map { i in
            // In parentheses: `title_key IS NULL < k` would compare title_key with `NULL < k`.
            let equal = (0..<i).map { "(\(terms[$0].expression)) IS k.k\($0)" }
            let smaller = terms[i].descending != before
            return "(" + (equal + ["(\(terms[i].expression)) \(smaller ? "<" : ">") k.k\(i)"]).joined(separator: " AND ") + ")"
        }.joined(separator: " OR ") + ")"
    }
}
