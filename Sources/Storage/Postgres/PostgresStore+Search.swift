import FeedModel

// Full-text search on PostgreSQL (migration 4): `card_search` holds each card's words as a
// tsvector (`PostgresSearchText.vector`, from `SearchWords`), under a GIN index; a query is a
// tsquery bound as a parameter (`PostgresSearchText.tsquery`).
//
// Relevance: ts_rank with the fields' weights (title 10, author 5, description 1, as SQLite's
// bm25(10.0, 1.0, 5.0)), higher is better; equal ranks in the `newest` order, as on SQLite.
// ts_rank is not bm25: it counts how often the query's words occur in the card, weighted by
// field, with no inverse document frequency (a rare word does not outweigh a common one) and
// no length normalisation (a long card with the word twice outranks a short one with it once,
// where bm25 may prefer the short one). So the same matches may come in another order of
// relevance than on SQLite; the set ranked is the same (the newest `relevanceWindow` matches
// under the filters), and so is the order among equal scores.
extension PostgresStore: CardSearchStore {
    public func search(_ text: String, query: CardQuery, order: CardOrder) throws -> [StoredCard] {
        try search(text, query: query, order: order, window: FeedStore.relevanceWindow)
    }

    public func searchListing(_ text: String, query: CardQuery, order: CardOrder) throws -> [CardID] {
        try searchListing(text, query: query, order: order, window: FeedStore.relevanceWindow)
    }

    public func searchCount(_ text: String, query: CardQuery) throws -> Int {
        var filter = Self.cardFilter(try resolvingTag(query))
        let words = filter.bind(.text(try PostgresSearchText.tsquery(text, words: searchWords())))
        filter.add("c.id IN (SELECT w.card_id FROM card_search w WHERE w.words @@ \(words)::tsquery)")
        return try connection.execute("SELECT count(*) FROM cards c \(filter.whereClause)", filter.values,
                                      context: "counting search matches").int(0, 0)
    }

    /// `search` with the relevance window as a parameter (the tests use a small one).
    func search(_ text: String, query: CardQuery, order: CardOrder, window: Int) throws -> [StoredCard] {
        let (sql, values) = try searchSQL(text, query: query, order: order, window: window, columns: Self.cardColumns)
        return try readCards(sql, values, context: "searching")
    }

    func searchListing(_ text: String, query: CardQuery, order: CardOrder, window: Int) throws -> [CardID] {
        let (sql, values) = try searchSQL(text, query: query, order: order, window: window, columns: "c.id")
        let result = try connection.execute(sql, values, context: "searching")
        return try result.rows { CardID(rawValue: try result.int64($0, 0)) }
    }

    /// The SELECT of a search's rows of `columns` (of `cards c JOIN sources s`); internal so
    /// tests can EXPLAIN it. Relevance: the window (the newest `window` matches under the
    /// filters, by id from the GIN index's matches), ranked afterwards: ts_rank is computed for
    /// the window's rows only. Other orders: the matches under the filters in the order's terms.
    func searchSQL(_ text: String, query: CardQuery, order: CardOrder, window: Int,
                   columns: String) throws -> (sql: String, values: [SQLValue]) {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        let words = filter.bind(.text(try PostgresSearchText.tsquery(text, words: searchWords())))
        var limit = ""
        guard order == .relevance else {
            filter.add("c.id IN (SELECT w.card_id FROM card_search w WHERE w.words @@ \(words)::tsquery)")
            if let count = query.limit { limit = " LIMIT " + filter.bind(.integer(Int64(max(0, count)))) }
            return ("""
                SELECT \(columns) FROM cards c JOIN sources s ON s.id = c.source_id
                \(filter.whereClause) ORDER BY \(Self.orderBy(order))\(limit)
                """, filter.values)
        }
        filter.add("w.words @@ \(words)::tsquery")
        let size = filter.bind(.integer(Int64(max(1, window))))
        if let count = query.limit { limit = " LIMIT " + filter.bind(.integer(Int64(max(0, count)))) }
        // The card rows are joined in the window only when a filter needs them.
        let join = query.hasFilters ? "JOIN cards c ON c.id = w.card_id" : ""
        return ("""
            WITH m AS MATERIALIZED (
                SELECT w.card_id AS id FROM card_search w \(join)
                \(filter.whereClause)
                ORDER BY w.card_id DESC LIMIT \(size))
            SELECT \(columns) FROM m
            JOIN card_search w ON w.card_id = m.id
            JOIN cards c ON c.id = m.id JOIN sources s ON s.id = c.source_id
            ORDER BY ts_rank('\(PostgresSearchText.rankWeights)', w.words, \(words)::tsquery) DESC, \(CardOrder.newestOrderBy)\(limit)
            """, filter.values)
    }

    /// This store's tokenizer (`SearchWords`), made once.
    func searchWords() throws -> SearchWords {
        if let made = searchWordsIfMade { return made }
        let made = try SearchWords()
        searchWordsIfMade = made
        return made
    }

    // MARK: - Keeping the index current

    /// Writes the search rows of the cards of `sourceID` with these keys (new or changed), as
    /// the cards are now: their title, description text (`descriptionText`, cut as on SQLite)
    /// and author through `SearchWords`. In the caller's transaction.
    func indexCards(sourceID: SourceID, keys: [String]) throws {
        guard !keys.isEmpty else { return }
        let result = try connection.execute("""
            SELECT id, title, description, author FROM cards WHERE source_id = $1 AND card_key = ANY($2::text[])
            """, [SQLValue(sourceID), PGArray.texts(keys)], context: "reading the cards of source \(sourceID) to index")
        try writeSearchRows(result)
    }

    /// Indexes the cards that have no search row (a database from before migration 4), a
    /// thousand at a time, each batch its own transaction. Returns how many were indexed.
    @discardableResult
    public func indexUnindexedCards() throws -> Int {
        var total = 0
        while true {
            let indexed = try connection.transaction("indexing cards for search") { () -> Int in
                let result = try connection.execute("""
                    SELECT c.id, c.title, c.description, c.author FROM cards c
                    WHERE NOT EXISTS (SELECT 1 FROM card_search w WHERE w.card_id = c.id)
                    ORDER BY c.id LIMIT 1000
                    """, context: "finding cards to index")
                try writeSearchRows(result)
                return result.rowCount
            }
            total += indexed
            if indexed < 1000 { return total }
        }
    }

    /// Rows of `id, title, description, author` written to `card_search` in one statement.
    private func writeSearchRows(_ result: PGResult) throws {
        guard result.rowCount > 0 else { return }
        let ids = try result.rows { try result.int64($0, 0) }
        let cards = result.rowsUnchecked { row in (title: result.string(row, 1), description: result.string(row, 2), author: result.string(row, 3)) }
        try writeSearchRows(ids: ids, cards)
    }

    /// The search rows of the cards `ids`, from their fields as stored (the caller's values,
    /// U+0000 made U+FFFD as binding them did: `PGText.parameter`), in one statement.
    func writeSearchRows(ids: [Int64], _ cards: [(title: String?, description: String?, author: String?)]) throws {
        guard !ids.isEmpty else { return }
        let fields = cards.map { card in
            SearchWords.Fields(title: card.title.map(PGText.withoutNUL),
                               author: card.author.map(PGText.withoutNUL),
                               description: SearchIndex.descriptionText(card.description.map(PGText.withoutNUL), descriptionText))
        }
        let vectors = try searchWords().words(fields).map(PostgresSearchText.vector)
        try connection.execute("""
            INSERT INTO card_search (card_id, words)
            SELECT i.id, i.words::tsvector FROM unnest($1::bigint[], $2::text[]) AS i(id, words)
            ON CONFLICT (card_id) DO UPDATE SET words = excluded.words
            """, [PGArray.integers(ids), PGArray.texts(vectors)], context: "writing the search index")
    }
}

private extension PGResult {
    func rowsUnchecked<T>(_ map: (Int) -> T) -> [T] { (0..<rowCount).map(map) }
}
