import FeedModel

// Reading cards.
extension FeedStore {
    /// Cards matching `query`, in `order` (see `CardOrder` for the exact tie breaks).
    /// `.relevance` ranks search matches; a plain listing has none and lists in `.newest` order.
    public func cards(_ query: CardQuery = CardQuery(), order: CardOrder = .default) throws -> [StoredCard] {
        let query = try resolvingTag(query)
        let walk = try walksOrderIndex(query, order)
        // Not walked, the cards of a tag's sources (any order but source), or of one source in
        // oldest or title order, are sorted: by their keys alone.
        let sorted = query.tag != nil ? order != .source : query.sourceID != nil && (order == .oldest || order == .title)
        let listing = Self.listing(query, order: order, walkingOrderIndex: walk, sortingKeys: !walk && sorted)
        return try readCards(listing.sql, listing.values)
    }

    /// Whether a limited listing of some sources (a tag's, or one) walks the order's index,
    /// testing each card's source, rather than reading those sources' cards by source and
    /// sorting them (what SQLite chooses, as it knows no sizes). Sorting costs a row read per
    /// card of those sources (`read --tag news --sort title`: 100,000 cards, 210 ms of CPU);
    /// walking, a row read per card of the index until `limit` of theirs are found, about
    /// limit × cards / theirs. So: walk when they have more than √(limit × cards) cards (7,000
    /// of a million for 50), counted up to there only. `source` with a tag always walks: sources
    /// by name, each tested against the tag (5,000 tests at most), each tagged one's cards by its
    /// index, until `limit` are found; one source in `source` or `newest` order reads its index, no sort.
    private func walksOrderIndex(_ query: CardQuery, _ order: CardOrder) throws -> Bool {
        guard let limit = query.limit, query.sourceID != nil || query.tag != nil else { return false }
        if order == .source { return query.tag != nil }
        // One source in newest order: its own index (cards_source_by_date) is in that order.
        if query.tag == nil && order == .newest { return false }
        // max(id) bounds the number of cards from above at no cost (ids only grow).
        let cards = try db.prepare("SELECT max(id) FROM cards").queryOne { $0.int64(0) } ?? 0
        // In Double: the product of two numbers from the database may be beyond Int64.
        let threshold = Int64(min(1e12, max(1, (Double(max(1, limit)) * Double(max(0, cards))).squareRoot())))
        let filter = Self.cardFilter(query)
        let theirs = try db.prepare("SELECT count(*) FROM (SELECT 1 FROM cards c \(filter.whereClause) LIMIT \(threshold + 1))")
            .queryOne(filter.values) { $0.int64(0) } ?? 0
        return theirs > threshold
    }

    /// Cards matching both `query` and the full-text search `text` (title, description text and
    /// author; see `SearchIndex`), in `order`; `.relevance` (the default) puts the best bm25
    /// match first, then the `newest` order.
    ///
    /// `text` is FTS5 query syntax: words (all must match: implicit AND), `"a phrase"`, `pref*`,
    /// `AND`/`OR`/`NOT` (upper case), parentheses, `title:word`, `author:word`,
    /// `description:word`. Case and diacritics are folded ("cafe" finds "Café"). A query SQLite
    /// cannot parse, or a blank one, throws `StorageError.badSearchQuery` with the reason.
    ///
    /// Relevance ranks at most the newest `relevanceWindow` matches (by save order) of the query
    /// and its filters: bm25 is computed for every ranked match (~2 µs each here), so a word found
    /// in 70,000 cards would cost ~160 ms; the window keeps a search under ~20 ms whatever the
    /// word, at the price of not ranking a very common word's older matches.
    public func search(_ text: String, query: CardQuery = CardQuery(), order: CardOrder = .relevance) throws -> [StoredCard] {
        try search(text, query: query, order: order, window: Self.relevanceWindow)
    }

    /// The ids and read flags of the cards of a listing (`cards(_:order:)`), or of a search when
    /// `search` is given (`search(_:query:order:)`), in its order (a few bytes a card, no text
    /// read), its rows read by `cards(ids:)`. It reads every id: `feeds browse` reads windows of
    /// a listing instead (FeedStore+Window.swift).
    public func listingIDs(_ query: CardQuery, order: CardOrder, search: String? = nil) throws -> [ListedCard] {
        let query = try resolvingTag(query)
        // The ids alone: the order's index covers them (30 ms for 100,000 cards), where reading
        // `is_read` too looked every card's row up (150-270 ms). The read flags come from the
        // partial index of unread cards instead, and the join with the sources is left out
        // when nothing needs it (every card has its source: a foreign key).
        let read: (String, [SQLValue]) throws -> [CardID] = { sql, values in
            try self.db.prepare(sql).query(values) { CardID(rawValue: $0.int64(0)) }
        }
        let ids: [CardID]
        if let search {
            ids = try searchRows(search, query: query, order: order, window: Self.relevanceWindow, columns: "c.id", read: read)
        } else {
            let listing = Self.listing(query, order: order, columns: "c.id", joinSources: query.tag != nil)
            ids = try read(listing.sql, listing.values)
        }
        let unread = Set(try db.prepare("SELECT id FROM cards WHERE is_read = 0").query([]) { $0.int64(0) })
        return ids.map { ListedCard(id: $0, isRead: !unread.contains($0.rawValue)) }
    }

    /// The cards with these ids, in the order of `ids` (ids of no card are left out).
    public func cards(ids: [CardID]) throws -> [StoredCard] {
        guard !ids.isEmpty else { return [] }
        // A JSON array in one parameter: any number of ids without SQLite's variable limit.
        let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        let found = try readCards("""
            SELECT \(Self.cardColumns)
            FROM cards c JOIN sources s ON s.id = c.source_id
            WHERE c.id IN (SELECT value FROM json_each(?1))
            """, [.text(list)])
        var byID: [CardID: StoredCard] = [:]
        for card in found { byID[card.id] = card }
        return ids.compactMap { byID[$0] }
    }

    /// The FTS5 table, in the index file attached as `search` (see `attachSearchIndex`).
    static let searchTable = "\(SearchIndexer.attachedName).card_search"

    /// How many of the newest matches `.relevance` ranks.
    public static let relevanceWindow = 5_000

    /// `search(_:query:order:)` with the relevance window as a parameter (the tests use a small one).
    func search(_ text: String, query: CardQuery, order: CardOrder, window: Int) throws -> [StoredCard] {
        try searchRows(text, query: query, order: order, window: window, columns: Self.cardColumns, read: readCards)
    }

    /// A search's rows of `columns`, read by `read`: whole cards, or the ids of a listing.
    /// `scoresOnly`: the relevance window's rows alone, `id, score` by rowid (see `listing`).
    func searchRows<Row>(_ text: String, query: CardQuery, order: CardOrder, window: Int, columns: String,
                                 scoresOnly: Bool = false,
                                 read: (String, [SQLValue]) throws -> [Row]) throws -> [Row] {
        let query = try resolvingTag(query)
        guard !text.allSatisfy(\.isWhitespace) else {
            throw StorageError.badSearchQuery(query: text, reason: "it is empty; give at least one word")
        }
        let person = text
        let text = try SearchQuery.fts5(person)
        do {
            try refreshSearchIndex()
        } catch StorageError.locked {
            // An update holding the write lock past the busy timeout: search what is indexed;
            // the update indexes its cards when it ends.
        }
        try attachSearchIndex()
        do {
            if order == .relevance, query.hasFilters, let preselection = try preselectedIDs(text, query, window: window) {
                // The cards passing the filters first (from their indexes), when they are few,
                // then the window over the matches tests each against that set (see
                // `CardIDFilter`), starting at the newest of them. Many cards passing, or few
                // matches (`preselectedIDs`): the window's walk reads their rows. Unread cards
                // read newest first: the oldest of them is not known, so no lower bound.
                let ids = preselection.ids
                guard let newest = ids.max(), let oldest = ids.min() else { return [Row]() }
                let cards = try cardIDRange()
                let walk = PreselectedWalk.bounds((preselection.older == nil ? oldest : cards.lowerBound)...newest, cards: cards)
                return try withPreselection(preselection) {
                    let listing = Self.listing(query, order: order, search: text, window: window,
                                               preselected: walk, columns: columns, scoresOnly: scoresOnly)
                    return try read(listing.sql, listing.values)
                }
            }
            // A listing order: probing, selecting or sorting the matches (`OrderedSearchPlan`).
            let plan = order == .relevance ? nil : try orderedSearchPlan(text, query, order)
            if case let .selecting(bySource) = plan {
                return try withSelectedIDs(try matchingIDs(text)) {
                    let listing = Self.listing(query, order: order, search: text, selectedMatches: true,
                                               columns: columns, walkingOrderIndex: !bySource)
                    return try read(listing.sql, listing.values)
                }
            }
            let listing = Self.listing(query, order: order, search: text, walk: plan == .probing,
                                       window: window, columns: columns, scoresOnly: scoresOnly)
            return try read(listing.sql, listing.values)
        } catch StorageError.sqlite(_, let code, let message, _) where code & 0xff == 1 /* SQLITE_ERROR */ {
            // The SQL is ours and fixed, so a plain SQL error here comes from the search text:
            // "fts5: syntax error near …", "no such column: foo" (from `foo:bar`)…
            throw StorageError.badSearchQuery(query: person, reason: message)
        }
    }

    /// Filtered cards up to which a relevance search preselects them (`CardIDFilter`): reading
    /// 20,000 ids from an index and testing matches against them costs a few milliseconds, and
    /// 150,000 (the unread cards of a million) about 15 ms, where the walk reading each match's
    /// row for the filter took 100 ms (unread) to 470 ms (a tag of 2 % of the cards).
    static let preselectionLimit = 250_000

    /// The ids of (at most `atMost` of) the cards `query`'s filters let through (its limit
    /// aside), for `CardIDFilter`.
    static func filteredIDs(_ query: CardQuery, atMost: Int) -> (sql: String, values: [SQLValue]) {
        let filter = cardFilter(query)
        // An index of cards alone answers every filter (a tag is a list of source ids by now).
        return ("\(selectingCards("c.id AS id", query, filter)) LIMIT \(max(0, atMost))", filter.values)
    }

    /// The ids `query`'s filters let through (its limit aside), all of them, or at most
    /// `atMost` of them, aggregated by `feeds_card_collect` (`CardIDFilter.collect`): an
    /// aggregate takes only the rows its WHERE lets through. Without `atMost` the ids are
    /// aggregated as the index gives them; a limit needs them in a subquery (~15 % more).
    func collectFilteredIDs(_ query: CardQuery, atMost: Int?) throws -> [Int64] {
        let filter = try cardIDFilter ?? CardIDFilter(on: db)
        cardIDFilter = filter
        let sql: String, values: [SQLValue]
        if let atMost {
            let selection = Self.filteredIDs(query, atMost: atMost)
            (sql, values) = ("SELECT \(CardIDFilter.collectName)(id) FROM (\(selection.sql))", selection.values)
        } else {
            // A single SELECT is flattened into the aggregate by SQLite: the ids as its index
            // gives them, as when the aggregate read the cards itself.
            let conditions = Self.cardFilter(query)
            (sql, values) = ("SELECT \(CardIDFilter.collectName)(id) FROM (\(Self.selectingCards("c.id AS id", query, conditions)))",
                             conditions.values)
        }
        let statement = try db.prepare(sql)
        return try filter.collect { _ = try statement.queryOne(values) { $0.int64(0) } }
    }

    /// The lowest and highest card ids (0...0 without cards): two lookups at the ends of the
    /// table's b-tree (one SELECT of both would scan it).
    func cardIDRange() throws -> ClosedRange<Int64> {
        let ends = try db.prepare("SELECT (SELECT min(id) FROM cards), (SELECT max(id) FROM cards)")
            .queryOne { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
        return min(ends.0, ends.1)...ends.1
    }

    /// Always true (`undated` is generated as 0 or 1), written before a condition on `sort_date`
    /// alone so that SQLite reads it as two ranges of each index of the cards by date
    /// (`DatePart`: their key begins with `undated`), one for each value, instead of every
    /// card: no index begins with the date since migration 18. Not where a source or tag filter
    /// lets the indexes by source range over the date instead (`cardFilter`).
    static let eitherDating = "c.undated IN (0, 1)"

    /// Whether `query`'s filters take a range of dates (`--since`) of every source's cards: no
    /// one index holds them by date since migration 19 (`DatePart`; the unread ones alone since
    /// migration 20), so such a selection is a range of each part (`selectingCards`), where as
    /// one SELECT SQLite would read every card.
    static func rangesDateParts(_ query: CardQuery) -> Bool {
        query.since != nil && query.sourceID == nil && query.tag == nil
    }

    /// `SELECT columns FROM cards c` with `filter` (of `query`), unordered: over the parts of
    /// the cards by date when `rangesDateParts` (a compound SELECT; name the columns), their
    /// entries alone (`DatePart.keys`: `columns` and the filters read their columns only).
    static func selectingCards(_ columns: String, _ query: CardQuery, _ filter: CardFilter) -> String {
        guard rangesDateParts(query) else { return "SELECT \(columns) FROM cards c \(filter.whereClause)" }
        return DatePart.parts(unreadOnly: query.unreadOnly)
            .map { "SELECT \(columns) FROM \($0.keys) \(filter.whereClause) AND \($0.condition)" }
            .joined(separator: "\nUNION ALL\n")
    }

    /// How many cards `query`'s filters (its limit aside) let through: counted on the cards alone
    /// (every card has its source: a foreign key).
    func countCards(_ query: CardQuery) throws -> Int {
        let counting = Self.countingCards(query)
        return try db.prepare(counting.sql).queryOne(counting.values) { $0.int(0) } ?? 0
    }

    /// `countCards`' SELECT; internal so that a test can EXPLAIN it.
    static func countingCards(_ query: CardQuery) -> (sql: String, values: [SQLValue]) {
        let filter = cardFilter(query)
        return (rangesDateParts(query) ? "SELECT count(*) FROM (\(selectingCards("1", query, filter)))"
                : "SELECT count(*) FROM cards c \(filter.whereClause)", filter.values)
    }

    /// The conditions of `query`'s filters, on `cards c` joined with `sources s`.
    /// `unindexedSources`: the source conditions written so that SQLite does not read the cards
    /// by source (`+c.source_id`), for a listing that walks its order's index instead; in
    /// `source` order the tag is tested on the sources (`+s.id`), walked by name.
    /// `first`: a condition tested before the others (a cheap one, on the index walked).
    static func cardFilter(_ query: CardQuery, unindexedSources: Bool = false, order: CardOrder? = nil,
                           first: String? = nil) -> CardFilter {
        var filter = CardFilter()
        if let first { filter.add(first) }
        let column = unindexedSources ? "+c.source_id" : "c.source_id"
        if let sourceID = query.sourceID { filter.add("\(column) = ?", SQLValue(sourceID)) }
        if query.tag != nil {
            // Ids are integers from the store: written into the statement, never text from outside.
            // A tag of no source: `IN (NULL)`, true of no card as `IN ()` is, but where SQLite
            // plans `IN ()` as false it can no longer tell that a partial index answers the
            // rest (`INDEXED BY` one of `DatePart`'s: "no query solution").
            let ids = (query.taggedSources ?? []).map { String($0.rawValue) }.joined(separator: ",")
            filter.add("\(unindexedSources && order == .source ? "+s.id" : column) IN (\(ids.isEmpty ? "NULL" : ids))")
        }
        if query.unreadOnly { filter.add("c.is_read = 0") }
        if let since = query.since {
            // Some sources' cards: their indexes by source range over the date (a range of
            // the cards by date would read every source's cards of the range, `source_id` being
            // in its entries).
            let someSources = query.sourceID != nil || query.tag != nil
            filter.add(someSources ? "c.sort_date >= ?" : "\(Self.eitherDating) AND c.sort_date >= ?", SQLValue(since))
        }
        return filter
    }

    /// The SELECT (and its parameters) of a listing, optionally of search matches only, in a
    /// listing order by one of the plans of `OrderedSearchPlan`: `walk` (probing),
    /// `selectedMatches` (the matches' ids set by the caller in `CardIDFilter`, the order's index
    /// walked), neither (sorting); internal so tests can EXPLAIN it. `preselected`: a relevance search
    /// whose filters are applied through `CardIDFilter` (its ids set by the caller, all within
    /// the walk's bounds) rather than by reading each match's card row. `scoresOnly`: of a relevance
    /// search, the window's `id, score` rows alone, unsorted (`SearchListing` sorts them).
    /// `walkingOrderIndex`: a listing of some sources' cards walks the order's index (see
    /// `walksOrderIndex`). `sortingKeys`: a limited listing that SQLite sorts (some sources'
    /// cards) sorts the cards' ids and keys, then reads the `limit` rows: sorting whole rows
    /// (descriptions included) of a source's 5,000 cards cost 40 ms.
    static func listing(_ query: CardQuery, order: CardOrder, search: String? = nil, walk: Bool = false,
                        selectedMatches: Bool = false, window: Int = relevanceWindow, preselected: PreselectedWalk? = nil,
                        columns: String = cardColumns, joinSources: Bool = true, scoresOnly: Bool = false,
                        walkingOrderIndex: Bool = false, sortingKeys: Bool = false) -> (sql: String, values: [SQLValue]) {
        let preselecting = preselected != nil && search != nil && order == .relevance && query.hasFilters
        // Selected matches: the set tested first (in the index walked, no row read); walking the
        // order's index (`walkingOrderIndex`), the sources are tested on the walk too (SQLite
        // would read their cards by source and sort them).
        let selecting = selectedMatches && search != nil && order != .relevance
        // In title order the walk is of the title tables `t` (see `titleListing`): conditions
        // on the id alone test theirs, before any card row is read.
        let titleWalk = order == .title
            && walksTitles(query, search: search, walk: walk, selecting: selecting, walkingOrderIndex: walkingOrderIndex)
        let id = titleWalk ? "t.id" : "c.id"
        var filter = preselecting ? CardFilter() : cardFilter(
            query, unindexedSources: walkingOrderIndex && (search == nil || selecting), order: order,
            first: selecting ? "\(CardIDFilter.functionName)(\(id))" : nil)
        if preselecting, let walk = preselected {
            // The bounds that pay (`PreselectedWalk`) let FTS5 start its walk at the newest
            // selected id, or stop it below the oldest.
            if let upper = walk.upper { filter.add("card_search.rowid <= ?", .integer(upper)) }
            if let lower = walk.lower { filter.add("card_search.rowid >= ?", .integer(lower)) }
            filter.add("\(CardIDFilter.functionName)(card_search.rowid)")
        }
        var from = "cards c JOIN sources s ON s.id = c.source_id"
        if !joinSources && search == nil && order != .source && query.tag == nil {
            // Columns and filters of the cards alone (`listingIDs`): the order's index covers them.
            from = "cards c"
        }
        if order == .source {
            // CROSS JOIN fixes the loop order SQLite would otherwise choose by cost (the unread
            // index, then a sort): sources by name outside, each source's cards by index inside.
            from = "sources s CROSS JOIN cards c ON c.source_id = s.id"
        }
        var orderBy = order.orderBy
        var values: [SQLValue]
        var limitClause = ""
        if let search, order == .relevance {
            // The window: the newest `window` matches of the query and its filters, walked in
            // rowid order (the FTS5 doclist backwards), each with its bm25 score; bm25 is
            // computed for the rows the window returns only, and only they are sorted. Without
            // filters the window reads the FTS5 index alone (every indexed row is a card: the
            // refresh before each search removed the words of deleted ones), so no card row is
            // read for ranking.
            let filtered = !filter.whereClause.isEmpty && !preselecting
            filter.add("card_search MATCH ?", .text(search))
            let joins = filtered ? "JOIN cards c ON c.id = card_search.rowid JOIN sources s ON s.id = c.source_id" : ""
            let matches = """
                SELECT card_search.rowid AS id, \(SearchIndex.relevance) AS score
                FROM \(searchTable) \(joins)
                \(filter.whereClause)
                ORDER BY card_search.rowid DESC LIMIT \(max(1, window))
                """
            if scoresOnly { return (matches, filter.values) }
            // The outer queries keep the parameters (the window uses them) but no conditions.
            filter.moveConditionsOut()
            values = filter.values
            orderBy = "m.score, " + CardOrder.newestOrderBy
            if let limit = query.limit {
                // Limited: the tie break needs each candidate's card row (its dates), and the
                // listing needs whole rows (descriptions): both for as few rows as possible.
                // `cut` is the limit-th best score (a sort of the scores alone); only matches
                // scoring at least as well can be listed, so only their dates are read, and
                // only the `limit` winners are read whole. Same cards as sorting the window.
                values.append(.integer(Int64(max(0, limit))))
                let n = "?\(values.count)"
                from = """
                    (WITH ranked AS MATERIALIZED (\(matches)),
                          cut AS (SELECT score FROM ranked ORDER BY score LIMIT 1 OFFSET \(n) - 1)
                     SELECT m.id, m.score FROM ranked m JOIN cards c ON c.id = m.id
                     WHERE m.score <= coalesce((SELECT score FROM cut), m.score)
                     ORDER BY \(orderBy) LIMIT \(n)) m
                    JOIN cards c ON c.id = m.id JOIN sources s ON s.id = c.source_id
                    """
            } else {
                from = "(\(matches)) m JOIN cards c ON c.id = m.id JOIN sources s ON s.id = c.source_id"
            }
        } else {
            if search != nil, selecting {
                // The matches are the set tested first (see `first` above).
            } else if let search {
                if walk {
                    // The order's index, each card tested against the FTS5 index by rowid.
                    filter.add("EXISTS (SELECT 1 FROM \(searchTable) WHERE card_search MATCH ? AND card_search.rowid = \(id))",
                               .text(search))
                } else {
                    // The matches looked up by id, and only they sorted.
                    filter.add("c.id IN (SELECT rowid FROM \(searchTable) WHERE card_search MATCH ?)", .text(search))
                }
            }
            values = filter.values
            if let limit = query.limit {
                values.append(.integer(Int64(max(0, limit))))
                limitClause = " LIMIT ?\(values.count)"
            }
        }
        var whereClause = filter.whereClause
        let arms = Self.dateArms(query, order: order, walksDates: Self.walksDates(
            query, order: order, search: search, walk: walk, selecting: selecting, walkingOrderIndex: walkingOrderIndex))
        if sortingKeys, search == nil, !limitClause.isEmpty, order != .source, !whereClause.isEmpty {
            // The conditions and the order's terms are on the cards alone (`order` is not source).
            whereClause = "WHERE c.id IN (SELECT c.id FROM cards c \(whereClause) ORDER BY \(orderBy)\(limitClause))"
        } else if arms.count > 1 {
            return (mergedListing(columns: columns, from: from, whereClause: whereClause, limitClause: limitClause,
                                  order: order, arms: arms), values)
        } else if titleWalk {
            return (titleListing(columns: columns, from: from, whereClause: whereClause, limitClause: limitClause), values)
        }
        let sql = """
            SELECT \(columns)
            FROM \(from)
            \(whereClause)
            ORDER BY \(orderBy)\(limitClause)
            """
        return (sql, values)
    }

    /// Whether a listing in a date order (`newest`, `oldest`, `relevance` without a search)
    /// walks the cards by date: all cards, or some sources' cards walked on the order's index
    /// (`walkingOrderIndex`), or search matches probed or selected on it. Not one source's
    /// cards (its own index), a tag's few (read by source, sorted), nor matches looked up by id
    /// and sorted.
    static func walksDates(_ query: CardQuery, order: CardOrder, search: String?, walk: Bool, selecting: Bool,
                           walkingOrderIndex: Bool) -> Bool {
        guard order.walksCardsByDate(searching: search != nil) else { return false }
        let someSources = query.sourceID != nil || query.tag != nil
        if search == nil { return !someSources || walkingOrderIndex }
        return selecting ? walkingOrderIndex : walk && !someSources
    }

    /// One walk of a listing that merges walks (`dateArms`): the part of the cards by date it
    /// reads, if any, and its own condition.
    struct DateArm {
        let part: DatePart?
        let condition: String

        /// `from` (a listing's FROM clause) as this walk reads it: with the part's cards.
        func from(_ from: String) -> String { part?.replacingCards(in: from) ?? from }
    }

    /// The walks a listing in `order` merges (one: no merge): for `oldest` one per `undated`
    /// value, the parts of the cards by date being read backwards (their key is the `newest`
    /// order: a backwards walk of one would list the undated cards first); and, `walksDates`,
    /// one per part of the cards by date (`DatePart`: the three, or the two unread ones), each
    /// a walk in the order.
    static func dateArms(_ query: CardQuery, order: CardOrder, walksDates: Bool) -> [DateArm] {
        let undated: [String?] = order == .oldest ? ["c.undated = 0", "c.undated = 1"] : [nil]
        let parts: [DatePart?] = walksDates ? DatePart.parts(unreadOnly: query.unreadOnly) : [nil]
        return undated.flatMap { u in
            parts.map { p in DateArm(part: p, condition: [u, p?.condition].compactMap { $0 }.joined(separator: " AND ")) }
        }
    }

    /// A listing as walks merged by SQLite (a compound SELECT ordered by the order's key:
    /// MERGE (UNION ALL), no sort), each walk the conditions and one of `arms` (its part's
    /// cards in `from`). The key's columns come after `columns` (the readers of a listing read
    /// its first columns only); the conditions' parameters are numbered, so every walk uses
    /// the same values.
    static func mergedListing(columns: String, from: String, whereClause: String, limitClause: String,
                              order: CardOrder, arms: [DateArm]) -> String {
        let terms = order.keyTerms.enumerated()
        let key = terms.map { "\($0.element.expression) AS order_k\($0.offset)" }.joined(separator: ", ")
        let walks = arms.map { arm in
            "SELECT \(columns), \(key) FROM \(arm.from(from)) \(whereClause.isEmpty ? "WHERE" : whereClause + " AND") \(arm.condition)"
        }
        let orderBy = terms.map { "order_k\($0.offset)" + ($0.element.descending ? " DESC" : "") }.joined(separator: ", ")
        return walks.joined(separator: "\nUNION ALL\n") + "\nORDER BY \(orderBy)\(limitClause)"
    }

    /// Every card, grouped by the UTC day of its sort date, newest day first; within a day in
    /// the `newest` order (dated cards first). One card at a time: memory does not grow with
    /// the number of cards (SQLite sorts on disk when it must). The archive pages are written
    /// from this.
    /// `query`'s filters (its limit aside) narrow the cards (`feeds html --tag`).
    public func eachCardByDay(_ query: CardQuery = CardQuery(), _ body: (StoredCard) throws -> Void) throws {
        let filter = Self.cardFilter(try resolvingTag(query))
        let statement = try db.prepare("""
            SELECT c.id, c.card_key, c.guid, c.title, c.description, c.link, c.image, c.published,
                   c.updated, c.author, c.kind, c.enclosures, c.source_id,
                   coalesce(s.name, s.feed_title, s.url), c.is_read, c.first_seen_at, c.changed_at,
                   c.last_seen_at, c.sort_date
            FROM cards c JOIN sources s ON s.id = c.source_id
            \(filter.whereClause)
            ORDER BY \(Self.dayOfSortDate) DESC, \(CardOrder.newestOrderBy)
            """)
        let enclosures = try EnclosureReader(db)
        try statement.each(filter.values) { row in try body(try cardFromRow(row, enclosures)) }
    }

    /// The cards of one UTC day (`day`: its first second) that `query`'s filters let through,
    /// newest first (the order of `eachCardByDay`), one at a time: nothing sorted, nothing held.
    public func eachCardOfDay(_ day: Timestamp, _ query: CardQuery = CardQuery(), _ body: (StoredCard) throws -> Void) throws {
        var filter = Self.cardFilter(try resolvingTag(query))
        let start = day.secondsSince1970
        filter.add("c.sort_date >= ?", .integer(start))
        filter.add("c.sort_date < ?", .integer(start.addingReportingOverflow(86_400).overflow ? Int64.max : start + 86_400))
        let enclosures = try EnclosureReader(db)
        // Dated cards, then undated ones (`CardOrder.newestOrderBy`): each the parts of the
        // cards by date (`DatePart`) over the day's range, merged on the key.
        let parts = DatePart.parts(unreadOnly: query.unreadOnly)
        for undated in [Int64(0), 1] {
            var part = filter
            part.add("c.undated = ?", .integer(undated))
            let walks = parts.map { date in
                """
                SELECT \(Self.cardColumns), c.sort_date AS day_k0, c.id AS day_k1
                FROM \(date.indexed(date.cards)) JOIN sources s ON s.id = c.source_id
                \(part.whereClause) AND \(date.condition)
                """
            }
            let statement = try db.prepare(walks.joined(separator: "\nUNION ALL\n") + "\nORDER BY day_k0 DESC, day_k1 DESC")
            try statement.each(part.values) { row in try body(try cardFromRow(row, enclosures)) }
        }
    }

    /// How many cards each UTC day (its first second) has, newest day first; of the cards
    /// `query`'s filters let through.
    public func cardCountsByDay(_ query: CardQuery = CardQuery()) throws -> [(day: Timestamp, count: Int)] {
        let filter = Self.cardFilter(try resolvingTag(query))
        return try db.prepare("""
            SELECT \(Self.dayOfSortDate) AS day, count(*) FROM cards c \(filter.whereClause) GROUP BY day ORDER BY day DESC
            """).query(filter.values) { row in (Timestamp(secondsSince1970: row.int64(0).saturatingMultiply(86_400)), row.int(1)) }  // a stored date may be anything
    }

    /// Cards matching `query` (its limit ignored), counted.
    public func cardCount(_ query: CardQuery) throws -> Int {
        try countCards(try resolvingTag(query))
    }

    /// The UTC day number of a card's sort date (floor division: also right before 1970).
    static let dayOfSortDate = "((c.sort_date - ((c.sort_date % 86400) + 86400) % 86400) / 86400)"

    /// One card by id, or nil.
    public func card(id: CardID) throws -> StoredCard? {
        try readCards("""
            SELECT c.id, c.card_key, c.guid, c.title, c.description, c.link, c.image, c.published,
                   c.updated, c.author, c.kind, c.enclosures, c.source_id,
                   coalesce(s.name, s.feed_title, s.url), c.is_read, c.first_seen_at, c.changed_at,
                   c.last_seen_at, c.sort_date
            FROM cards c JOIN sources s ON s.id = c.source_id
            WHERE c.id = ?1
            """, [.integer(id.rawValue)]).first
    }

    /// The columns of a listing's rows, decoded by `cardFromRow`.
    static let cardColumns = """
        c.id, c.card_key, c.guid, c.title, c.description, c.link, c.image, c.published,
               c.updated, c.author, c.kind, c.enclosures, c.source_id,
               coalesce(s.name, s.feed_title, s.url), c.is_read, c.first_seen_at, c.changed_at,
               c.last_seen_at, c.sort_date
        """

    /// Runs a SELECT of the listing's columns (see `listing`) and decodes the rows.
    func readCards(_ sql: String, _ values: [SQLValue]) throws -> [StoredCard] {
        let statement = try db.prepare(sql)
        let enclosures = try EnclosureReader(db)
        return try statement.query(values) { row in try cardFromRow(row, enclosures) }
    }

    /// A row of the listing's columns (see `listing`) as a card.
    private func cardFromRow(_ row: Row, _ enclosures: EnclosureReader) throws -> StoredCard {
        let card = Card(
            id: row.string(2), title: row.string(3), description: row.string(4), link: row.string(5),
            image: row.string(6), published: row.optionalTimestamp(7), updated: row.optionalTimestamp(8),
            author: row.string(9), enclosures: try enclosures.decode(row.string(11) ?? "[]"),
            kind: Card.Kind(rawValue: row.string(10) ?? "") ?? .article)
        return StoredCard(
            id: CardID(rawValue: row.int64(0)), card: card, key: CardKey(rawValue: row.string(1) ?? ""),
            sourceID: SourceID(rawValue: row.int64(12)), sourceName: row.string(13) ?? "",
            isRead: row.bool(14), firstSeenAt: row.timestamp(15), changedAt: row.timestamp(16),
            lastSeenAt: row.timestamp(17), sortDate: row.timestamp(18))
    }

}

/// A WHERE clause built from conditions with one `?` each, numbered as they are added, so the
/// SQL text holds no user data.
struct CardFilter {
    private(set) var conditions: [String] = []
    private(set) var values: [SQLValue] = []

    /// Forgets the conditions, keeping the values: for a query whose conditions moved into a
    /// subquery that still uses the numbered parameters.
    mutating func moveConditionsOut() { conditions = [] }

    mutating func add(_ condition: String, _ value: SQLValue? = nil) {
        guard let value else { conditions.append(condition); return }
        values.append(value)
        conditions.append(condition.replacingPlaceholder(with: "?\(values.count)"))
    }

    var whereClause: String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }
}

private extension String {
    /// Replaces the single `?` of a condition with a numbered parameter.
    func replacingPlaceholder(with numbered: String) -> String {
        guard let mark = firstIndex(of: "?") else { return self }
        return self[..<mark] + numbered + self[index(after: mark)...]
    }
}

extension FeedStore {
    /// `query` with the sources its tag names found (`TagMatch`: case aside, in every script).
    /// Every public listing resolves its query through this before building SQL.
    func resolvingTag(_ query: CardQuery) throws -> CardQuery {
        guard let tag = query.tag, query.taggedSources == nil else { return query }
        var resolved = query
        let key = TagList.Key(tag)
        resolved.taggedSources = try db.prepare("SELECT id, tags FROM sources").query { row -> SourceID? in
            // Tags of ASCII are tested on their bytes: decoding 5,000 sources' tags into
            // Strings to compare them was 4 % of a search by tag.
            let matches = row.withText(1) { key.matches(ascii: $0) } ?? TagMatch.matches(TagList.decode(row.string(1) ?? ""), tag)
            return matches ? SourceID(rawValue: row.int64(0)) : nil
        }.compactMap { $0 }
        return resolved
    }
}
