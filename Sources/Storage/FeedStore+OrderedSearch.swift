import FeedModel

/// How a search in a listing order (any but relevance) finds its cards. Each lists the same
/// cards in the same order (the order's terms, `CardOrder`); they differ in what they read:
/// - `probing`: walk the order's index and test each card against the FTS5 index (an FTS5
///   query a card, ~30 µs on a million cards): stops after `limit` matches, so it suits a word
///   so common that they come within a few hundred cards;
/// - `selecting`: read the matches' ids into a `CardIDFilter` set first (~0.1 µs a match), then
///   walk the order's index testing each card against the set in memory (~0.15 µs a card,
///   its row read only when it matches): suits the words in between;
/// - `sorting`: look every match up by id and sort them (~5 µs a match: a row read for the
///   order's key): suits a rare word.
/// `choose` compares their costs. Measured on a million cards (bench/scale.sh): `"harbour
/// lanterns"` (4,974 matches) in title order took 30 ms sorted, 2 ms selected; `update` (287,000
/// matches) in newest order took 5 ms probed, 15 ms selected (reading the ids), and the exact
/// count that used to decide between probing and sorting cost 15 ms of its own.
enum OrderedSearchPlan: Equatable {
    case probing, selecting, sorting

    /// Costs in µs, measured as above.
    static let probeCost = 30.0, readCost = 0.1, walkCost = 0.15, sortCost = 5.0

    /// The cheapest plan for `matches` matches (an estimate, see `FeedStore.orderedSearchPlan`)
    /// among `cards` cards, of which `passing` pass the source filters (all without one), when
    /// `limit` cards are wanted (nil: all). A walk of the order's index reads until `limit` cards
    /// match and pass, about limit × cards / (matches × passing / cards) of them, if the words
    /// are spread evenly; without a limit it reads every card.
    static func choose(matches: Int64, cards: Int64, passing: Int64, limit: Int?) -> OrderedSearchPlan {
        guard matches > 0, cards > 0 else { return .sorting }
        let m = Double(matches), n = Double(cards), passing = Double(max(1, min(passing, cards)))
        let walked = limit.map { min(n, Double(max(1, $0)) * n / (m * passing / n)) } ?? n
        let costs: [(OrderedSearchPlan, Double)] = [
            (.sorting, sortCost * m),
            (.selecting, readCost * m + walkCost * walked),
            // Without a limit a walk probes every card: never the cheapest, never considered.
            (.probing, limit == nil ? .infinity : probeCost * walked),
        ]
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
        var passing = cards
        if query.sourceID != nil || query.tag != nil {
            let ids = query.sourceID.map { [$0] } ?? query.taggedSources ?? []
            let list = ids.map { String($0.rawValue) }.joined(separator: ",")
            passing = try db.prepare("SELECT coalesce(sum(card_count), 0) FROM sources WHERE id IN (\(list))")
                .queryOne { $0.int64(0) } ?? 0
        }
        return OrderedSearchPlan.choose(matches: matches, cards: cards, passing: passing, limit: query.limit)
    }

    /// The ids of every card matching `text` (FTS5 syntax), for the `selecting` plan.
    func matchingIDs(_ text: String) throws -> [Int64] {
        try db.prepare("SELECT rowid FROM \(Self.searchTable) WHERE card_search MATCH ?1").query([.text(text)]) { $0.int64(0) }
    }

    /// `body` with `ids` in this connection's `CardIDFilter` (registered at first use), emptied after.
    func withSelectedIDs<T>(_ ids: [Int64], _ body: () throws -> T) throws -> T {
        let filter = try cardIDFilter ?? CardIDFilter(on: db)
        cardIDFilter = filter
        filter.ids = CardIDSet(ids)
        defer { filter.ids = CardIDSet() }
        return try body()
    }
}
