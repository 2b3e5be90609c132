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
        // The ids first, from the order's index alone: OFFSET skips its rows without reading
        // the cards' rows (reading whole rows, skipping 100,000 cards took 150 ms), then the
        // slice's rows by id.
        let listing = Self.listing(query, order: order, columns: "c.id", joinSources: query.tag != nil)
        let ids = try db.prepare(listing.sql + " OFFSET \(max(0, offset))").query(listing.values) { CardID(rawValue: $0.int64(0)) }
        return try cards(ids: ids)
    }

    /// The place of the card `id` in `cards(query, order:)`, or nil when it is not listed: the
    /// number of listed cards whose key in `order` is smaller than its key.
    public func listingPosition(of id: CardID, _ query: CardQuery, order: CardOrder) throws -> Int? {
        try listingPlace(of: id, query, order: order, counting: false)?.position
    }

    /// The place of the card `id` in `cards(query, order:)` and, `counting`, how many cards the
    /// listing has (else 0); nil when it is not listed. Counting the cards after it too walks
    /// the index once where `listingCount` and then `listingPosition` walked it up to twice.
    public func listingPlace(of id: CardID, _ query: CardQuery, order: CardOrder,
                             counting: Bool = true) throws -> (position: Int, total: Int)? {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        filter.add("c.id = ?", .integer(id.rawValue))
        let listed = try db.prepare("SELECT count(*) FROM cards c \(filter.whereClause)").queryOne(filter.values) { $0.int(0) } ?? 0
        guard listed > 0 else { return nil }
        // One count per term of the key, each a range of the order's index; one count of the
        // terms OR-ed made SQLite collect the rowids of every card before (20 ms for 55,000).
        let conditions = Self.cardFilter(query)
        func count(before: Bool) -> String {
            Self.keyRanges(order, before: before).map(\.condition).map { range in
                "(SELECT count(*) FROM \(Self.keyedFrom(order, id)) \(conditions.whereClause.isEmpty ? "WHERE" : conditions.whereClause + " AND") \(range))"
            }.joined(separator: " + ")
        }
        // Unfiltered, the listing's length is SQLite's count of the table's entries (it reads
        // the pages' cell counts, no row: 0.05 ms for 100,000 cards), so only the cards before
        // are walked: on average half the index, where both sides walked all of it.
        let whole = counting && conditions.whereClause.isEmpty
        let sql = "SELECT " + count(before: true) + ", " + (counting && !whole ? count(before: false) : "0")
        guard let (before, after) = try db.prepare(sql).queryOne(conditions.values, { ($0.int(0), $0.int(1)) }) else { return nil }
        if whole { return (before, try db.prepare("SELECT count(*) FROM cards").queryOne { $0.int(0) } ?? 0) }
        return (before, counting ? before + 1 + after : 0)
    }

    /// The cards of `cards(query, order:)` around the listed card `id`: at most `before` cards
    /// before it, it, at most `after` cards after it, in the listing's order (empty when it is
    /// not listed). Keyset reads from the card's key on the order's index: no OFFSET walk.
    public func listingAround(_ id: CardID, _ query: CardQuery, order: CardOrder, before: Int, after: Int) throws -> [StoredCard] {
        let query = try resolvingTag(query)
        let filter = Self.cardFilter(query)
        let whereClause = filter.whereClause.isEmpty ? "WHERE" : filter.whereClause + " AND"
        func ids(_ forward: Bool, _ wanted: Int) throws -> [CardID] {
            var found: [CardID] = []
            // Nearest range first (see `unreadPosition`), each walked in order until enough.
            for range in Self.keyRanges(order, before: !forward).reversed() where found.count < wanted {
                let orderBy = Self.rangeOrder(order, forward: forward, from: range.term)
                let sql = "SELECT c.id FROM \(Self.keyedFrom(order, id)) \(whereClause) \(range.condition) ORDER BY \(orderBy) LIMIT \(wanted - found.count)"
                found += try db.prepare(sql).query(filter.values) { CardID(rawValue: $0.int64(0)) }
            }
            return found
        }
        var listed = filter
        listed.add("c.id = ?", .integer(id.rawValue))
        guard try db.prepare("SELECT count(*) FROM cards c \(listed.whereClause)").queryOne(listed.values, { $0.int(0) }) ?? 0 > 0 else { return [] }
        return try cards(ids: ids(false, max(0, before)).reversed() + [id] + ids(true, max(0, after)))
    }

    /// The place in `cards(query, order:)` of the first unread card after (or the last before)
    /// the card `id`, or nil when there is none.
    public func unreadPosition(from id: CardID, forward: Bool, _ query: CardQuery, order: CardOrder) throws -> Int? {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        filter.add("c.is_read = 0")
        // The ranges of the key nearest the card first (same terms but the last, then same
        // terms but the last two…): the first card found in them is the nearest; each is
        // walked in the listing's order on the order's index.
        for range in Self.keyRanges(order, before: !forward).reversed() {
            let orderBy = Self.rangeOrder(order, forward: forward, from: range.term)
            let sql = "SELECT c.id FROM \(Self.keyedFrom(order, id)) \(filter.whereClause) AND \(range.condition) ORDER BY \(orderBy) LIMIT 1"
            if let found = try db.prepare(sql).queryOne(filter.values, { CardID(rawValue: $0.int64(0)) }) {
                return try listingPosition(of: found, query, order: order)
            }
        }
        return nil
    }

    /// The ids of a search's listing (`search(_:query:order:)`), in its order: at most the
    /// relevance window, or the matches (all of `searchListingWindow`).
    public func searchListing(_ text: String, query: CardQuery, order: CardOrder) throws -> [CardID] {
        try searchListingWindow(text, query: query, order: order).all()
    }

    /// A number that changes when another connection (a `feeds update` meanwhile) committed
    /// to the database since this one last read it: `PRAGMA data_version`, one read of this
    /// connection's state, no lock and no page read. This connection's own writes leave it.
    public func dataVersion() throws -> Int64 {
        try db.prepare("PRAGMA data_version").queryOne { $0.int64(0) } ?? 0
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

    /// The cards `c` before (else after) card `k` in `order`, as disjoint ranges of the key,
    /// one per term: the terms before it equal (`IS`: NULL equals NULL), that term smaller
    /// (larger). Together: the key smaller (larger), term by term.
    /// A term of `CardOrder.twoValued` (0 or 1) is compared by equality: `c.undated > k.k0` is
    /// `c.undated = 1 AND k.k0 = 0`, so that the range is one value of the index's first column
    /// and the rest of the key can come from a backwards walk (`oldest` on `cards_by_date`).
    private static func keyRanges(_ order: CardOrder, before: Bool) -> [(condition: String, term: Int)] {
        let terms = order.keyTerms
        return terms.indices.map { i in
            // In parentheses: `title_key IS NULL < k` would compare title_key with `NULL < k`.
            let equal = (0..<i).map { "(\(terms[$0].expression)) IS k.k\($0)" }
            let smaller = terms[i].descending != before
            let beyond = CardOrder.twoValued.contains(terms[i].expression)
                ? "(\(terms[i].expression)) = \(smaller ? 0 : 1) AND k.k\(i) = \(smaller ? 1 : 0)"
                : "(\(terms[i].expression)) \(smaller ? "<" : ">") k.k\(i)"
            return ("(" + (equal + [beyond]).joined(separator: " AND ") + ")", i)
        }
    }

    /// The listing's order (else its reverse) within a range of `keyRanges` whose terms before
    /// `from` are fixed: ordering by them too made SQLite sort the range (`IS` is not an
    /// equality its ORDER BY optimisation sees), where the index gives the rest in order.
    private static func rangeOrder(_ order: CardOrder, forward: Bool, from: Int) -> String {
        order.keyTerms.dropFirst(from).map { term in
            term.descending == forward ? term.expression + " DESC" : term.expression
        }.joined(separator: ", ")
    }
}
