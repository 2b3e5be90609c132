import FeedModel

// The windows of a listing `feeds browse` reads, on PostgreSQL: FeedStore+Window.swift's
// methods in PostgreSQL's terms, listing the same cards in the same order with the same places.
// None reads every id of a listing: a slice is OFFSET on the order's index (ids only, then the
// slice's rows by id), a place one count per range of the key (`PGListingKey`), the cards
// around a card and the next unread one keyset reads from its key. Measured on 100,000 cards
// (one source, PostgreSQL 15 on loopback, this 2-core machine shared with other builds): a
// slice of 256 at offset 50,000 12.6 ms, a place in the middle (both sides counted) 29.6 ms,
// the count 19.4 ms, 128 cards' ids around a card 1.5 ms, the next unread card 0.6 ms; all
// index-only scans. SQLite counts its pages' cells instead of walking: PostgreSQL's counts
// are the slow part, and are read only when a listing changes (a key, a new order, a commit).
extension PostgresStore: BrowseStore {
    public func listingCount(_ query: CardQuery) throws -> Int {
        try cardCount(query)
    }

    public func listingWindow(_ query: CardQuery, order: CardOrder, offset: Int, limit: Int) throws -> [StoredCard] {
        let (sql, values) = windowSQL(try resolvingTag(query), order: order, offset: offset, limit: limit)
        let result = try connection.execute(sql, values, context: "reading a slice of the listing")
        return try cards(ids: try result.rows { CardID(rawValue: try result.int64($0, 0)) })
    }

    public func listingPlace(of id: CardID, _ query: CardQuery, order: CardOrder,
                             counting: Bool = true) throws -> (position: Int, total: Int)? {
        let query = try resolvingTag(query)
        let key = PGListingKey(order)
        guard let values = try listedKey(of: id, query, key) else { return nil }
        let (sql, parameters) = placeSQL(query, key: key, values: values, counting: counting)
        let result = try connection.execute(sql, parameters, context: "finding a card's place in the listing")
        let (before, after) = (try result.int(0, 0), try result.int(0, 1))
        return (before, counting ? before + 1 + after : 0)
    }

    public func listingAround(_ id: CardID, _ query: CardQuery, order: CardOrder, before: Int, after: Int) throws -> [StoredCard] {
        let query = try resolvingTag(query)
        let key = PGListingKey(order)
        guard let values = try listedKey(of: id, query, key) else { return [] }
        func ids(_ forward: Bool, _ wanted: Int) throws -> [CardID] {
            var found: [CardID] = []
            // Nearest range first, each walked in the listing's order (or its reverse) until enough.
            for (sql, parameters) in rangeSQL(query, key: key, values: values, forward: forward) where found.count < wanted {
                let result = try connection.execute(sql, parameters + [.integer(Int64(wanted - found.count))],
                                                    context: "reading the cards around a card")
                found += try result.rows { CardID(rawValue: try result.int64($0, 0)) }
            }
            return found
        }
        return try cards(ids: ids(false, max(0, before)).reversed() + [id] + ids(true, max(0, after)))
    }

    public func unreadPosition(from id: CardID, forward: Bool, _ query: CardQuery, order: CardOrder) throws -> Int? {
        let query = try resolvingTag(query)
        let key = PGListingKey(order)
        // The card's key whether it is listed or not (as on SQLite): the edge of a slice read.
        guard let values = try listedKey(of: id, CardQuery(), key) else { return nil }
        var unread = query
        unread.unreadOnly = true
        for (sql, parameters) in rangeSQL(unread, key: key, values: values, forward: forward) {
            let result = try connection.execute(sql, parameters + [.integer(1)], context: "finding the next unread card")
            if result.rowCount > 0 {
                return try listingPlace(of: CardID(rawValue: try result.int64(0, 0)), query, order: order, counting: false)?.position
            }
        }
        return nil
    }

    public func searchListingWindow(_ text: String, query: CardQuery, order: CardOrder) throws -> OrderedSearchListing {
        OrderedSearchListing(try searchListing(text, query: query, order: order))
    }

    public func firstUnread(among ids: ArraySlice<CardID>, last: Bool = false) throws -> Int? {
        guard !ids.isEmpty else { return nil }
        let result = try connection.execute("""
            SELECT j.position - 1 FROM unnest($1::bigint[]) WITH ORDINALITY AS j(id, position)
            JOIN cards c ON c.id = j.id
            WHERE NOT c.is_read ORDER BY j.position \(last ? "DESC" : "") LIMIT 1
            """, [.text("{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}")], context: "finding an unread card")
        guard result.rowCount > 0 else { return nil }
        return ids.startIndex + (try result.int(0, 0))
    }

    // MARK: - The statements (internal: the tests EXPLAIN them)

    /// The ids of a slice of the listing of `query` (its tag resolved): the order's index
    /// walked with OFFSET, ids only (the rows skipped are never read).
    func windowSQL(_ query: CardQuery, order: CardOrder, offset: Int, limit: Int) -> (sql: String, values: [SQLValue]) {
        var filter = Self.cardFilter(query)
        let size = filter.bind(.integer(Int64(max(0, limit))))
        let skip = filter.bind(.integer(Int64(max(0, offset))))
        return ("""
            SELECT c.id FROM \(PGListingKey(order).from) \(filter.whereClause)
            ORDER BY \(Self.orderBy(order)) LIMIT \(size) OFFSET \(skip)
            """, filter.values)
    }

    /// The counts of the listed cards before and (`counting`) after the card whose key is
    /// `values`: one count per range of the key, each a range of the order's index.
    func placeSQL(_ query: CardQuery, key: PGListingKey, values: [String?], counting: Bool) -> (sql: String, values: [SQLValue]) {
        var filter = Self.cardFilter(query)
        let conditions = filter.conditions
        func count(before: Bool) -> String {
            let ranges = key.ranges(before: before, values: values, &filter)
            guard !ranges.isEmpty else { return "0" }
            return ranges.map { range in
                "(SELECT count(*) FROM \(key.from) WHERE \((conditions + [range.condition]).joined(separator: " AND ")))"
            }.joined(separator: " + ")
        }
        let sql = "SELECT " + count(before: true) + ", " + (counting ? count(before: false) : "0")
        return (sql, filter.values)
    }

    /// The reads of the listed cards after (else before) the card whose key is `values`, the
    /// nearest range first, each in the listing's order (else its reverse) on the order's index;
    /// each takes its LIMIT as one more parameter, the last.
    func rangeSQL(_ query: CardQuery, key: PGListingKey, values: [String?], forward: Bool) -> [(sql: String, values: [SQLValue])] {
        let filter = Self.cardFilter(query)
        return key.separateRanges(before: !forward, values: values, filter).reversed().map { range in
            ("""
                SELECT c.id FROM \(key.from) WHERE \((filter.conditions + [range.condition]).joined(separator: " AND "))
                ORDER BY \(key.rangeOrder(forward: forward, from: range.term)) LIMIT $\(range.filter.values.count + 1)
                """, range.filter.values)
        }
    }

    /// The values of `key`'s terms for card `id` when `query` lists it, else nil.
    func listedKey(of id: CardID, _ query: CardQuery, _ key: PGListingKey) throws -> [String?]? {
        var filter = Self.cardFilter(query)
        let sql = key.keySQL(&filter, id: id)
        let result = try connection.execute(sql, filter.values, context: "reading a card's key in the listing")
        guard result.rowCount > 0, try result.bool(0, key.terms.count) else { return nil }
        return key.terms.indices.map { result.string(0, $0) }
    }
}
