import FeedModel

/// A search's listing as `feeds browse` keeps it: the ids of `FeedStore.search(_:query:order:)`
/// in its order, with the relevance order found as it is read.
///
/// Relevance sorts the window's matches by bm25 score, then equal scores in the `newest` order.
/// Sorting the window in SQL looked up every match's card row for its dates (5,000 rows: as long
/// as the scores themselves, 10 ms of the 24 on 100,000 cards). Here the scores are read alone
/// (`id, score` from the FTS5 index) and sorted; the dates are read only for the matches that
/// share a score with another, and only when a read reaches them (`ids(_:)`, `position(of:)`):
/// the first screen reads the dates of its few ties. Same cards, same order, id for id.
public final class SearchListing {
    private let store: FeedStore
    /// The listing's ids in order; within an unsettled run of equal scores, in no order yet.
    private var ids: [CardID]
    /// The runs of equal scores of two cards or more not yet in the `newest` order, by the
    /// index of their first card, with their end. Empty for a listing read in its order.
    private var unsettled: [Int: Int] = [:]
    /// The run's start of each index in an unsettled run (the others are settled).
    private var runStart: [Int32]

    /// How many cards the listing has.
    public var count: Int { ids.count }

    /// A listing read in its order already (every order but relevance).
    init(store: FeedStore, ordered: [CardID]) {
        self.store = store
        ids = ordered
        runStart = []
    }

    /// The relevance window's matches with their scores (lower is better), in any order.
    init(store: FeedStore, scored: [(id: CardID, score: Double)]) {
        self.store = store
        // The score, then the id: only the runs of equal scores are put in order afterwards.
        let sorted = scored.sorted { $0.score < $1.score || ($0.score == $1.score && $0.id.rawValue > $1.id.rawValue) }
        ids = sorted.map(\.id)
        runStart = Array(repeating: -1, count: sorted.count)
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && sorted[end].score == sorted[start].score { end += 1 }
            if end - start > 1 {
                unsettled[start] = end
                for i in start..<end { runStart[i] = Int32(start) }
            }
            start = end
        }
    }

    /// The ids at `range` of the listing (clamped to it).
    public func ids(_ range: Range<Int>) throws -> [CardID] {
        let range = range.clamped(to: 0..<ids.count)
        guard !range.isEmpty else { return [] }
        try settle(runsIn: range)
        return Array(ids[range])
    }

    /// Every id of the listing, in order.
    public func all() throws -> [CardID] { try ids(0..<count) }

    /// The place of the card `id` in the listing, or nil when it is not listed.
    public func position(of id: CardID) throws -> Int? {
        guard let found = ids.firstIndex(of: id) else { return nil }
        guard !unsettled.isEmpty, runStart[found] >= 0 else { return found }
        try settle(runsIn: found..<(found + 1))
        return ids.firstIndex(of: id)
    }

    /// Puts the unsettled runs that `range` reaches into the `newest` order: one read of the
    /// dates of their cards.
    private func settle(runsIn range: Range<Int>) throws {
        guard !unsettled.isEmpty else { return }
        var runs: [(start: Int, end: Int)] = []
        var i = range.lowerBound
        while i < range.upperBound {
            let start = Int(runStart[i])
            if start >= 0, let end = unsettled[start] {
                runs.append((start, end))
                i = end
            } else {
                i += 1
            }
        }
        guard !runs.isEmpty else { return }
        let ordered = try store.newestOrder(of: runs.map { Array(ids[$0.start..<$0.end]) })
        for (run, inOrder) in zip(runs, ordered) {
            // A card deleted meanwhile is left where it was (a slice read leaves it out).
            let kept = Set(inOrder)
            let rest = ids[run.start..<run.end].filter { !kept.contains($0) }
            ids.replaceSubrange(run.start..<run.end, with: inOrder + rest)
            for j in run.start..<run.end { runStart[j] = -1 }
            unsettled[run.start] = nil
        }
    }
}

extension FeedStore {
    /// The listing of `search(_:query:order:)`, its ids in its order (see `SearchListing`):
    /// at most the relevance window, or the matches.
    public func searchListingWindow(_ text: String, query: CardQuery, order: CardOrder) throws -> SearchListing {
        try searchListingWindow(text, query: query, order: order, window: Self.relevanceWindow)
    }

    /// `searchListingWindow` with the relevance window as a parameter (the tests use a small one).
    func searchListingWindow(_ text: String, query: CardQuery, order: CardOrder, window: Int) throws -> SearchListing {
        guard order == .relevance else {
            let ids = try searchRows(text, query: query, order: order, window: window, columns: "c.id") { sql, values in
                try self.db.prepare(sql).query(values) { CardID(rawValue: $0.int64(0)) }
            }
            return SearchListing(store: self, ordered: ids)
        }
        let scored = try searchRows(text, query: query, order: order, window: window, columns: "", scoresOnly: true) { sql, values in
            try self.db.prepare(sql).query(values) { (id: CardID(rawValue: $0.int64(0)), score: $0.double(1)) }
        }
        return SearchListing(store: self, scored: scored)
    }

    /// Each group of `groups` in the `newest` order (`CardOrder.newestOrderBy`: the one
    /// definition), in one read; ids of no card are left out.
    func newestOrder(of groups: [[CardID]]) throws -> [[CardID]] {
        // [[group, id], ...] in one parameter: any number of ids without SQLite's variable limit.
        let list = "[" + groups.enumerated().flatMap { group in
            group.element.map { "[\(group.offset),\($0.rawValue)]" }
        }.joined(separator: ",") + "]"
        var ordered = Array(repeating: [CardID](), count: groups.count)
        let rows = try db.prepare("""
            SELECT json_extract(j.value, '$[0]'), c.id FROM json_each(?1) j
            JOIN cards c ON c.id = json_extract(j.value, '$[1]')
            ORDER BY json_extract(j.value, '$[0]'), \(CardOrder.newestOrderBy)
            """).query([.text(list)]) { ($0.int(0), CardID(rawValue: $0.int64(1))) }
        for (group, id) in rows where ordered.indices.contains(group) { ordered[group].append(id) }
        return ordered
    }
}
