import FeedModel

// A window of a listing: what `feeds browse` reads of a listing of any length. It never reads
// every id of a listing: a card's place is one count over the order's index, the cards around
// it one read with OFFSET on that index, the next unread card one read of the order's key.
extension FeedStore {
    /// How many cards `cards(query, order:)` lists (its limit aside).
    public func listingCount(_ query: CardQuery) throws -> Int {
        try countCards(try resolvingTag(query))
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
        let walks = KeyWalks(order, query)
        func count(before: Bool) -> String {
            walks.ranges(before: before).map(\.condition).flatMap { range in
                walks.walks(joiningCards: !conditions.whereClause.isEmpty).map { walk in
                    "(SELECT count(*) FROM \(walks.keyed(id, walk.from)) \(walk.whereClause(conditions.whereClause, range)))"
                }
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
        let walks = KeyWalks(order, query)
        func ids(_ forward: Bool, _ wanted: Int) throws -> [CardID] {
            var found: [CardID] = []
            // Nearest range first (see `unreadPosition`), each walked in order until enough.
            for range in walks.ranges(before: !forward).reversed() where found.count < wanted {
                let sql = walks.rangeWalk(id, filter.whereClause, range, forward: forward, limit: wanted - found.count)
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
        var unread = query
        unread.unreadOnly = true
        let walks = KeyWalks(order, unread)
        for range in walks.ranges(before: !forward).reversed() {
            let sql = walks.rangeWalk(id, filter.whereClause, range, forward: forward, limit: 1)
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
}

/// The walks of an order's key that a window reads (`listingPlace`, `listingAround`,
/// `unreadPosition`): the order's index of the cards, or for `title` each of its two tables
/// (migration 16: `FeedStore.titleTables`), or in a date order over every source each part of
/// the cards by date (migrations 19 and 20: `DatePart`), whose rows are merged by their key.
private struct KeyWalks {
    /// The key's terms as the walks compare them, term by term.
    let terms: [(expression: String, descending: Bool)]
    /// The expressions on `c` (and `s`) of the same values: the key of the card a window is around.
    let cardTerms: [String]
    let order: CardOrder
    /// The parts of the cards by date walked apart (a date order over every source: the three,
    /// or the two unread ones), else nil: one walk, of whatever index SQLite takes.
    let dateParts: [DatePart]?

    /// One walk: its tables, and the condition joining the title table `t` to the cards `c`
    /// (or choosing a part of the cards by date).
    struct Walk {
        let from: String
        let joined: String?

        /// `conditions` (a WHERE clause or nothing), the walk's join and `range`, as one WHERE clause.
        func whereClause(_ conditions: String, _ range: String) -> String {
            (conditions.isEmpty ? "WHERE " : conditions + " AND ") + (joined.map { $0 + " AND " } ?? "") + range
        }
    }

    init(_ order: CardOrder, _ query: CardQuery) {
        self.order = order
        let allSources = query.sourceID == nil && query.tag == nil
        dateParts = allSources && order.walksCardsByDate(searching: false)
            ? DatePart.parts(unreadOnly: query.unreadOnly) : nil
        if order == .title {
            terms = FeedStore.titleTerms.map { ($0.table, $0.descending) }
            cardTerms = FeedStore.titleTerms.map(\.card)
        } else {
            terms = order.keyTerms
            cardTerms = order.keyTerms.map(\.expression)
        }
    }

    /// The walks, with the cards `c` when the conditions test them (a title table alone holds
    /// the key and the id: counting or listing ids without conditions reads no card row).
    func walks(joiningCards: Bool) -> [Walk] {
        // The parts' entries alone: the conditions of a window test their columns only.
        if let dateParts { return dateParts.map { Walk(from: $0.keys, joined: $0.condition) } }
        guard order == .title else {
            return [Walk(from: order == .source ? "cards c JOIN sources s ON s.id = c.source_id" : "cards c", joined: nil)]
        }
        return FeedStore.titleTables.map {
            joiningCards ? Walk(from: FeedStore.titleFrom($0, "cards c"), joined: "c.id = t.id") : Walk(from: "\($0) t", joined: nil)
        }
    }

    /// The id column of a walk's rows.
    var id: String { order == .title ? "t.id" : "c.id" }

    /// A walk's tables beside `k`, the key of the card `id` (an id from the store, written
    /// into the statement).
    func keyed(_ id: CardID, _ from: String) -> String {
        let key = cardTerms.enumerated().map { "\($0.element) AS k\($0.offset)" }.joined(separator: ", ")
        return "(SELECT \(key) FROM cards c JOIN sources s ON s.id = c.source_id WHERE c.id = \(id.rawValue)) k, \(from)"
    }

    /// The cards before (else after) card `k`, as disjoint ranges of the key, one per term:
    /// the terms before it equal (`IS`: NULL equals NULL), that term smaller (larger).
    /// Together: the key smaller (larger), term by term.
    /// A term of `CardOrder.twoValued` (0 or 1) is compared by equality: `c.undated > k.k0` is
    /// `c.undated = 1 AND k.k0 = 0`, so that the range is one value of the index's first column
    /// and the rest of the key can come from a backwards walk (`oldest` on the cards by date).
    func ranges(before: Bool) -> [(condition: String, term: Int)] {
        terms.indices.map { i in
            // In parentheses: `title_key IS NULL < k` would compare title_key with `NULL < k`.
            let equal = (0..<i).map { "(\(terms[$0].expression)) IS k.k\($0)" }
            let smaller = terms[i].descending != before
            let beyond = CardOrder.twoValued.contains(terms[i].expression)
                ? "(\(terms[i].expression)) = \(smaller ? 0 : 1) AND k.k\(i) = \(smaller ? 1 : 0)"
                : "(\(terms[i].expression)) \(smaller ? "<" : ">") k.k\(i)"
            return ("(" + (equal + [beyond]).joined(separator: " AND ") + ")", i)
        }
    }

    /// The ids of the listed cards (`conditions`) in `range` around card `id`, at most `limit`,
    /// nearest first: in the listing's order (else its reverse) by the key's terms from the
    /// range's own on; ordering by the terms before it too made SQLite sort the range (`IS` is
    /// not an equality its ORDER BY optimisation sees), where the index gives the rest in order.
    /// With two walks, each walk's rows with their key, merged by it (MERGE (UNION ALL)).
    func rangeWalk(_ id: CardID, _ conditions: String, _ range: (condition: String, term: Int), forward: Bool,
                   limit: Int) -> String {
        let order = terms.enumerated().dropFirst(range.term)
        func direction(_ term: (expression: String, descending: Bool)) -> String { term.descending == forward ? " DESC" : "" }
        let walks = walks(joiningCards: !conditions.isEmpty)
        guard walks.count > 1 else {
            let orderBy = order.map { $0.element.expression + direction($0.element) }.joined(separator: ", ")
            return "SELECT \(self.id) FROM \(keyed(id, walks[0].from)) \(walks[0].whereClause(conditions, range.condition)) "
                + "ORDER BY \(orderBy) LIMIT \(limit)"
        }
        let key = order.map { "\($0.element.expression) AS w\($0.offset)" }.joined(separator: ", ")
        let selects = walks.map { "SELECT \(self.id), \(key) FROM \(keyed(id, $0.from)) \($0.whereClause(conditions, range.condition))" }
        let orderBy = order.map { "w\($0.offset)" + direction($0.element) }.joined(separator: ", ")
        return selects.joined(separator: "\nUNION ALL\n") + "\nORDER BY \(orderBy) LIMIT \(limit)"
    }
}
