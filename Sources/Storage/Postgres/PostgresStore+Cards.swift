import FeedModel

// Reading cards on PostgreSQL: the listings of FeedStore+Cards.swift (search aside), each
// order walking its index of migrations 1 and 3.
extension PostgresStore: CardReadingStore {
    public func cards(_ query: CardQuery, order: CardOrder) throws -> [StoredCard] {
        let query = try resolvingTag(query)
        var filter = Self.cardFilter(query)
        var limit = ""
        if let count = query.limit { limit = " LIMIT " + filter.bind(.integer(Int64(max(0, count)))) }
        return try readCards("""
            SELECT \(Self.cardColumns) FROM cards c JOIN sources s ON s.id = c.source_id
            \(filter.whereClause) ORDER BY \(Self.orderBy(order))\(limit)
            """, filter.values, context: "listing cards")
    }

    public func cards(ids: [CardID]) throws -> [StoredCard] {
        guard !ids.isEmpty else { return [] }
        let list = "{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}"
        let found = try readCards("""
            SELECT \(Self.cardColumns) FROM cards c JOIN sources s ON s.id = c.source_id
            WHERE c.id = ANY($1::bigint[])
            """, [.text(list)], context: "reading cards by id")
        var byID: [CardID: StoredCard] = [:]
        for card in found { byID[card.id] = card }
        return ids.compactMap { byID[$0] }
    }

    public func card(id: CardID) throws -> StoredCard? {
        try cards(ids: [id]).first
    }

    public func cardCount(_ query: CardQuery) throws -> Int {
        let filter = Self.cardFilter(try resolvingTag(query))
        return try connection.execute("SELECT count(*) FROM cards c \(filter.whereClause)", filter.values,
                                      context: "counting cards").int(0, 0)
    }

    @discardableResult
    public func setRead(_ read: Bool, _ selection: CardSelection) throws -> Int {
        var values: [SQLValue] = [read ? .text("true") : .text("false")]
        let condition: String
        switch selection {
        case .cards(let ids):
            condition = "id = ANY($2::bigint[])"
            values.append(.text("{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}"))
        case .source(let id):
            condition = "source_id = $2"
            values.append(SQLValue(id))
        case .all:
            condition = "true"
        case .before(let date):
            condition = "sort_date < $2"
            values.append(SQLValue(date))
        case .dated(let since, let before):
            // NULL bounds are open, as on SQLite.
            condition = "($2::bigint IS NULL OR sort_date >= $2::bigint) AND ($3::bigint IS NULL OR sort_date < $3::bigint)"
            values.append(SQLValue(since))
            values.append(SQLValue(before))
        }
        return try connection.execute("UPDATE cards SET is_read = $1::boolean WHERE is_read <> $1::boolean AND \(condition)", values,
                                      context: read ? "marking cards read" : "marking cards unread").changedRows
    }

    // MARK: - Listing SQL

    /// The ORDER BY of `order` in PostgreSQL's terms: `CardOrder.keyTerms` with the `source`
    /// order's name key as migration 3 indexes it (byte order, ASCII lower case: SQLite's).
    static func orderBy(_ order: CardOrder) -> String {
        order.keyTerms.map { term in
            let expression = term.expression == "lower(coalesce(s.name, s.feed_title, s.url))"
                ? "lower(coalesce(s.name, s.feed_title, s.url) COLLATE \"C\")" : term.expression
            return term.descending ? expression + " DESC" : expression
        }.joined(separator: ", ")
    }

    /// The conditions of `query`'s filters, on `cards c`, with numbered parameters.
    static func cardFilter(_ query: CardQuery) -> PGFilter {
        var filter = PGFilter()
        if let sourceID = query.sourceID {
            let id = filter.bind(SQLValue(sourceID))
            filter.add("c.source_id = \(id)")
        }
        if query.tag != nil {
            let ids = filter.bind(.text("{" + (query.taggedSources ?? []).map { String($0.rawValue) }.joined(separator: ",") + "}"))
            filter.add("c.source_id = ANY(\(ids)::bigint[])")
        }
        if query.unreadOnly { filter.add("NOT c.is_read") }
        if let since = query.since {
            let date = filter.bind(SQLValue(since))
            filter.add("c.sort_date >= \(date)")
        }
        return filter
    }

    /// `query` with the sources its tag names (`TagMatch`, as `FeedStore.resolvingTag`).
    func resolvingTag(_ query: CardQuery) throws -> CardQuery {
        guard let tag = query.tag, query.taggedSources == nil else { return query }
        let result = try connection.execute("SELECT id, tags FROM sources", context: "finding the sources of a tag")
        var resolved = query
        resolved.taggedSources = try result.rows { (SourceID(rawValue: try result.int64($0, 0)), TagList.decode(result.string($0, 1) ?? "")) }
            .filter { TagMatch.matches($0.1, tag) }.map(\.0)
        return resolved
    }

    static let cardColumns = """
        c.id, c.card_key, c.guid, c.title, c.description, c.link, c.image, c.published,
               c.updated, c.author, c.kind, c.enclosures::text, c.source_id,
               coalesce(s.name, s.feed_title, s.url), c.is_read, c.first_seen_at, c.changed_at,
               c.last_seen_at, c.sort_date
        """

    /// Runs a SELECT of `cardColumns` and decodes its rows, the enclosures of all of them read
    /// in one more query (PostgreSQL's own JSON functions, as SQLite's `EnclosureReader`).
    func readCards(_ sql: String, _ values: [SQLValue], context: String) throws -> [StoredCard] {
        let result = try connection.execute(sql, values, context: context)
        var withEnclosures: [Int64] = []
        var cards = try result.rows { row -> StoredCard in
            let id = try result.int64(row, 0)
            if result.string(row, 11) != "[]" { withEnclosures.append(id) }
            let card = Card(
                id: result.string(row, 2), title: result.string(row, 3), description: result.string(row, 4),
                link: result.string(row, 5), image: result.string(row, 6), published: try result.optionalTimestamp(row, 7),
                updated: try result.optionalTimestamp(row, 8), author: result.string(row, 9), enclosures: [],
                kind: Card.Kind(rawValue: result.string(row, 10) ?? "") ?? .article)
            return StoredCard(
                id: CardID(rawValue: id), card: card, key: CardKey(rawValue: result.string(row, 1) ?? ""),
                sourceID: SourceID(rawValue: try result.int64(row, 12)), sourceName: result.string(row, 13) ?? "",
                isRead: try result.bool(row, 14), firstSeenAt: try result.timestamp(row, 15),
                changedAt: try result.timestamp(row, 16), lastSeenAt: try result.timestamp(row, 17),
                sortDate: try result.timestamp(row, 18))
        }
        guard !withEnclosures.isEmpty else { return cards }
        let enclosures = try connection.execute("""
            SELECT c.id, e.value->>'url', e.value->>'type', e.value->>'length'
            FROM cards c, json_array_elements(c.enclosures) WITH ORDINALITY AS e(value, position)
            WHERE c.id = ANY($1::bigint[])
            ORDER BY c.id, e.position
            """, [.text("{" + withEnclosures.map(String.init).joined(separator: ",") + "}")], context: "reading enclosures")
        var byCard: [Int64: [Enclosure]] = [:]
        for row in 0..<enclosures.rowCount {
            // A length too large for Int64 (only a hand edit could store one) reads as unknown.
            byCard[try enclosures.int64(row, 0), default: []].append(
                Enclosure(url: enclosures.string(row, 1) ?? "", type: enclosures.string(row, 2),
                          length: enclosures.string(row, 3).flatMap { Int64($0) }))
        }
        for index in cards.indices { cards[index].card.enclosures = byCard[cards[index].id.rawValue] ?? [] }
        return cards
    }
}

/// A WHERE clause whose values are bound as $1, $2 ... in the order they are added.
struct PGFilter {
    private(set) var conditions: [String] = []
    private(set) var values: [SQLValue] = []

    /// Adds `value` and returns its placeholder.
    mutating func bind(_ value: SQLValue) -> String {
        values.append(value)
        return "$\(values.count)"
    }

    mutating func add(_ condition: String) { conditions.append(condition) }

    var whereClause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}
