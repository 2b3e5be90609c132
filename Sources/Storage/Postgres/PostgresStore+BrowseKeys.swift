import FeedModel

/// A card's place in a listing on PostgreSQL, as FeedStore+Window.swift finds it on SQLite: the
/// order's key of the card read first (one row), then the cards before or after it as disjoint
/// ranges of the key, one per term (the terms before it equal, that term smaller or larger),
/// each a range of the order's index (migrations 1 and 3). A row comparison `(a, b) < (x, y)`
/// would be one range, but the orders mix ascending and descending terms, which it cannot.
/// Every value is a bound parameter; the key's values go back as the text PostgreSQL gave.
struct PGListingKey {
    /// One term of an order's key: its SQL on `cards c JOIN sources s`, its direction, and the
    /// type its value is bound as.
    struct Term {
        let expression: String
        let descending: Bool
        let type: String
    }

    let order: CardOrder
    let terms: [Term]

    init(_ order: CardOrder) {
        self.order = order
        terms = order.keyTerms.map { term in
            switch term.expression {
            case "c.undated", "c.title_key IS NULL": return Term(expression: term.expression, descending: term.descending, type: "boolean")
            case "c.title_key": return Term(expression: term.expression, descending: term.descending, type: "text")
            // The byte order of ASCII lower case, as migration 3 indexes it (PostgresStore.orderBy).
            case "lower(coalesce(s.name, s.feed_title, s.url))":
                return Term(expression: "lower(coalesce(s.name, s.feed_title, s.url) COLLATE \"C\")", descending: term.descending, type: "text")
            default: return Term(expression: term.expression, descending: term.descending, type: "bigint")
            }
        }
    }

    /// The listed cards: with their sources only when a term is the source's.
    var from: String {
        order == .source ? "cards c JOIN sources s ON s.id = c.source_id" : "cards c"
    }

    /// The SELECT of the key of card `id` (`$n` in `filter`), with whether `filter`'s
    /// conditions list it.
    func keySQL(_ filter: inout PGFilter, id: CardID) -> String {
        let listed = filter.conditions.isEmpty ? "true" : filter.conditions.joined(separator: " AND ")
        let card = filter.bind(.integer(id.rawValue))
        return "SELECT \(terms.map(\.expression).joined(separator: ", ")), \(listed) "
            + "FROM cards c JOIN sources s ON s.id = c.source_id WHERE c.id = \(card)"
    }

    /// The cards before (else after) the card whose key is `values` (nil: NULL), as disjoint
    /// ranges, one per term, with the term each starts at: the terms before it equal (`IS NULL`
    /// for a NULL), that term smaller (larger). A range whose term is NULL in the key is empty
    /// (only the untitled cards' title is NULL, and they all share it) and left out. The values
    /// are bound in `filter`.
    func ranges(before: Bool, values: [String?], _ filter: inout PGFilter) -> [(condition: String, term: Int)] {
        terms.indices.compactMap { i in range(i, before: before, values: values, &filter) }
    }

    /// Each range of `ranges` as a statement of its own: `filter` with the values that range
    /// uses bound (PostgreSQL refuses a parameter no statement uses: it has no type).
    func separateRanges(before: Bool, values: [String?], _ filter: PGFilter) -> [(condition: String, term: Int, filter: PGFilter)] {
        terms.indices.compactMap { i in
            var bound = filter
            return range(i, before: before, values: values, &bound).map { ($0.condition, $0.term, bound) }
        }
    }

    private func range(_ i: Int, before: Bool, values: [String?], _ filter: inout PGFilter) -> (condition: String, term: Int)? {
        guard let last = values[i] else { return nil }
        let equal = (0..<i).map { j in
            values[j].map { "(\(terms[j].expression)) = \(filter.bind(.text($0)))::\(terms[j].type)" } ?? "(\(terms[j].expression)) IS NULL"
        }
        let smaller = terms[i].descending != before
        let compared = "(\(terms[i].expression)) \(smaller ? "<" : ">") \(filter.bind(.text(last)))::\(terms[i].type)"
        return ("(" + (equal + [compared]).joined(separator: " AND ") + ")", i)
    }

    /// The listing's order (else its reverse) within a range whose terms before `from` are fixed.
    func rangeOrder(forward: Bool, from: Int) -> String {
        terms.dropFirst(from).map { term in
            term.descending == forward ? term.expression + " DESC" : term.expression
        }.joined(separator: ", ")
    }
}
