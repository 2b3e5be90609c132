import FeedModel

/// How a search in a listing order (any but relevance) finds its cards. Each lists the same
/// cards in the same order (the order's terms, `CardOrder`); they differ in what they read:
/// - `probing`: walk the order's index (or the filter's sources' cards) and test each card
///   against the FTS5 index (an FTS5 query a card, ~30 µs on a million cards): stops after
///   `limit` matches, so it suits a word so common that they come within a few hundred cards;
/// - `selecting`: read the matches' ids into a `CardIDFilter` set first (~0.06 µs a match), then
///   walk the order's index testing each card against the set in memory (~0.15 µs a card, its
///   row read only when it matches), or, `bySource`, the filter's sources' cards by source;
/// - `sorting`: look every match up by id (~1 µs) and sort those the filters let through
///   (~5 µs more each: their whole rows go to the sort): suits a rare word.
/// `choose` compares their costs. Measured on a million cards (bench/scale.sh): `"harbour
/// lanterns"` (4,974 matches) in title order took 30 ms sorted, 2 ms selected; `update` (287,000
/// matches) in newest order took 5 ms probed, 15 ms selected (reading the ids), and the exact
/// count that used to decide between probing and sorting cost 15 ms of its own; `update --sort
/// title --tag blogs` took 680 ms probed (12,678 cards of the tag), 60 ms selected.
enum OrderedSearchPlan: Equatable {
    case probing
    case selecting(bySource: Bool)
    case sorting

    /// Costs in µs, measured as above.
    static let probeCost = 30.0, readCost = 0.06, walkCost = 0.15, rowCost = 1.0, wholeRowCost = 5.0

    /// What `choose` weighs, all but `limit` estimates: `matches` of `cards` cards; `passing` the
    /// cards the filters let through (all without one); `walkable` the entries of the index a
    /// walk reads (the unread cards' own index with --unread in newest or oldest order, all cards
    /// otherwise); `sourceCards` the cards of the filter's sources (nil without a source filter);
    /// `rowFilters`: whether a walk reads a matching card's row to test a filter (sources, read
    /// flag outside its index, date outside the order's index).
    struct Estimate: Equatable {
        var matches: Int64, cards: Int64, passing: Int64, walkable: Int64, sourceCards: Int64?
        var limit: Int?
        var rowFilters: Bool
    }

    /// The cheapest plan. A walk of the order's index reads until `limit` cards match and pass,
    /// about limit / (share matching × share of its entries passing) of them if the words and
    /// the filters are spread evenly, all of them without a limit.
    static func choose(_ e: Estimate) -> OrderedSearchPlan {
        guard e.matches > 0, e.cards > 0 else { return .sorting }
        let n = Double(e.cards), m = Double(min(e.matches, e.cards))
        let passing = Double(max(1, min(e.passing, e.cards))), walkable = Double(max(1, min(e.walkable, e.cards)))
        let walked = e.limit.map { min(walkable, Double(max(1, $0)) / ((m / n) * min(1, passing / walkable))) } ?? walkable
        let filterRows = e.rowFilters ? walked * (m / n) * rowCost : 0
        var costs: [(OrderedSearchPlan, Double)] = [
            (.sorting, m * (rowCost + wholeRowCost * passing / n)),
            (.selecting(bySource: false), readCost * m + walkCost * walked + filterRows),
            // Probing reads a source filter's cards by source (SQLite's choice: the sources are
            // indexed), each probed; else walks the order's index, testing the filters first (a
            // row read each, when they need one) and probing the cards they let through.
            (.probing, e.sourceCards.map { probeCost * Double($0) }
                ?? probeCost * walked * min(1, passing / walkable) + (e.rowFilters ? walked * rowCost : 0)),
        ]
        if let sourceCards = e.sourceCards.map(Double.init) {
            costs.append((.selecting(bySource: true),
                          readCost * m + sourceCards * (walkCost + (m / n) * (rowCost + wholeRowCost))))
        }
        return costs.min { $0.1 < $1.1 }!.0
    }

    /// The newest matches counted to estimate how many there are (`FeedStore.orderedSearchPlan`).
    static let sample = 20_000
}

extension FeedStore {
    /// The plan for a search of `text` (FTS5 syntax) under `query` in `order` (not relevance),
    /// from an estimate of its matches: the newest `OrderedSearchPlan.sample` of them counted
    /// (their exact number when there are fewer; otherwise that many over the span of ids they
    /// cover, scaled to every card: a common word's count is a walk of its whole doclist, 15 ms
    /// for 287,000 matches), and the cards of the filter's sources from their rows' counts.
    func orderedSearchPlan(_ text: String, _ query: CardQuery, _ order: CardOrder) throws -> OrderedSearchPlan {
        let cards = try db.prepare("SELECT max(id) FROM cards").queryOne { $0.int64(0) } ?? 0
        let sampled = try db.prepare("""
            SELECT count(*), min(rowid) FROM (SELECT rowid FROM \(Self.searchTable) WHERE card_search MATCH ?1
                                               ORDER BY rowid DESC LIMIT \(OrderedSearchPlan.sample))
            """).queryOne([.text(text)]) { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
        var matches = sampled.0
        if matches >= Int64(OrderedSearchPlan.sample) {
            let span = max(1, cards - sampled.1 + 1)
            matches = max(matches, Int64((Double(matches) * Double(cards) / Double(span)).rounded()))
        }
        let counts = try filterCounts(query, cards: cards)
        var walkable = cards
        // Newest and oldest walk the unread cards' tables (`DatePart`) with --unread.
        let unreadIndexed = query.unreadOnly && (order == .newest || order == .oldest)
        if unreadIndexed { walkable = try unreadCards() }
        let sources = counts.sourceCards
        let rowFilters = sources != nil || (query.unreadOnly && !unreadIndexed) || (query.since != nil && order != .newest && order != .oldest)
        return OrderedSearchPlan.choose(.init(matches: matches, cards: cards, passing: counts.passing, walkable: walkable,
                                              sourceCards: counts.sourceCards, limit: query.limit, rowFilters: rowFilters))
    }

    /// How many of `cards` cards `query`'s filters let through, and how many its sources have
    /// (nil without a source filter), from the sources' counts (kept by triggers): a tag's or a
    /// source's cards, unread or all; all unread cards with --unread alone. (--since is not
    /// counted: taken as letting every card through.)
    func filterCounts(_ query: CardQuery, cards: Int64) throws -> (passing: Int64, sourceCards: Int64?) {
        guard let sources = query.sourceID.map({ [$0] }) ?? query.taggedSources else {
            return (query.unreadOnly ? try unreadCards() : cards, nil)
        }
        let list = sources.map { String($0.rawValue) }.joined(separator: ",")
        let counted = query.unreadOnly ? "unread_count" : "card_count"
        let counts = try db.prepare("SELECT coalesce(sum(card_count), 0), coalesce(sum(\(counted)), 0) FROM sources WHERE id IN (\(list))")
            .queryOne { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
        return (counts.1, counts.0)
    }

    private func unreadCards() throws -> Int64 {
        try db.prepare("SELECT coalesce(sum(unread_count), 0) FROM sources").queryOne { $0.int64(0) } ?? 0
    }

    /// Whether a filtered relevance search reads the ids its filters let through first (see
    /// `searchRows`: ~0.1 µs an id), or walks the matches testing each on its card's row (~3 µs
    /// a match, a row read): the smaller side first. The matches are counted up to where the
    /// walk would cost as much as the ids (`search quixotrelliph --unread`: 40 rows, where the
    /// 155,000 unread ids took 15 ms).
    func preselectsFilteredIDs(_ text: String, _ query: CardQuery) throws -> Bool {
        try preselects(text, passing: try filteredCount(query))
    }

    private func preselects(_ text: String, passing: Int64) throws -> Bool {
        let cap = Self.preselectionCap(passing: passing)
        let matches = try db.prepare("SELECT count(*) FROM (SELECT 1 FROM \(Self.searchTable) WHERE card_search MATCH ?1 LIMIT \(cap))")
            .queryOne([.text(text)]) { $0.int64(0) } ?? 0
        return matches >= cap
    }

    /// Matches from which a filtered relevance search preselects (`preselectsFilteredIDs`).
    private static func preselectionCap(passing: Int64) -> Int64 {
        Int64((Double(passing) * 0.1 / 3).rounded(.up))
    }

    /// `preselects`, counting the newest matches (a walk of FTS5's doclists backwards, dearer
    /// than forwards: only for a newest-first preselection): nil when there are fewer than the
    /// cap, else the share of the ids from the oldest of them to the newest card that match.
    private func newestMatchShare(_ text: String, passing: Int64) throws -> Double? {
        let cap = Self.preselectionCap(passing: passing)
        let (matches, oldest) = try db.prepare("""
            SELECT count(*), min(rowid) FROM (SELECT rowid FROM \(Self.searchTable) WHERE card_search MATCH ?1
                                               ORDER BY rowid DESC LIMIT \(cap))
            """).queryOne([.text(text)]) { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
        guard matches >= cap else { return nil }
        let newest = try cardIDRange().upperBound
        let (span, overflow) = newest.subtractingReportingOverflow(oldest)
        return overflow ? 0 : Double(matches) / Double(max(1, span.saturatingAdd(1)))
    }

    /// `filterCounts(query).passing`, of the cards there are (max(id) bounds them at no cost).
    private func filteredCount(_ query: CardQuery) throws -> Int64 {
        let cards = try db.prepare("SELECT max(id) FROM cards").queryOne { $0.int64(0) } ?? 0
        return try filterCounts(query, cards: cards).passing
    }

    /// The ids a filtered relevance search preselects (`preselectsFilteredIDs`), or nil when it
    /// does not: more than `preselectionLimit` of them, or few matches. The count of the
    /// filters' cards is exact but for --since (not counted): within the limit, every id is
    /// read with no limit (the cheaper statement); beyond it, none, unless --since may leave
    /// fewer (read up to the limit then; beyond it, none is kept).
    /// Unread cards (of any sources, none dated after --since) are read newest first when their
    /// newest part is expected to hold the window (`Preselection`).
    func preselectedIDs(_ text: String, _ query: CardQuery, window: Int = relevanceWindow) throws -> Preselection? {
        let passing = try filteredCount(query)
        if query.unreadOnly, query.since == nil, Self.mayReadNewestFirst(passing: passing, window: window) {
            guard let share = try newestMatchShare(text, passing: passing) else { return nil }
            if let newestFirst = try unreadNewestFirst(query, passing: passing, matchShare: share, window: window) { return newestFirst }
        } else {
            guard try preselects(text, passing: passing) else { return nil }
        }
        if passing <= Int64(Self.preselectionLimit) { return Preselection(ids: try collectFilteredIDs(query, atMost: nil), older: nil) }
        guard query.since != nil else { return nil }
        let ids = try collectFilteredIDs(query, atMost: Self.preselectionLimit + 1)
        return ids.count <= Self.preselectionLimit ? Preselection(ids: ids, older: nil) : nil
    }

    /// The ids of every card matching `text` (FTS5 syntax), for the `selecting` plan.
    func matchingIDs(_ text: String) throws -> [Int64] {
        try db.prepare("SELECT rowid FROM \(Self.searchTable) WHERE card_search MATCH ?1").query([.text(text)]) { $0.int64(0) }
    }

    /// `body` with `ids` in this connection's `CardIDFilter` (registered at first use), emptied after.
    func withSelectedIDs<T>(_ ids: [Int64], _ body: () throws -> T) throws -> T {
        try withPreselection(Preselection(ids: ids, older: nil), body)
    }

    /// `body` with `preselection` in this connection's `CardIDFilter`, emptied after; its older
    /// ids read when a walk of `body` reaches them. A failure to read them is what throws.
    func withPreselection<T>(_ preselection: Preselection, _ body: () throws -> T) throws -> T {
        let filter = try cardIDFilter ?? CardIDFilter(on: db)
        cardIDFilter = filter
        if let (below, query) = preselection.older {
            filter.select(preselection.ids, olderBelow: below) { [unowned self] in try self.collectUnreadIDs(query, from: nil, below: below) }
        } else {
            filter.select(preselection.ids)
        }
        defer { filter.select([]) }
        do {
            return try body()
        } catch {
            throw filter.failure ?? error
        }
    }
}
