import FeedModel

/// The card ids a filtered relevance search tests its matches against (`CardIDFilter`):
/// all those its filters let through, or, read newest first, those from `older.below` up, the
/// older ones read only if the walk over the matches (newest first) reaches them.
struct Preselection {
    var ids: [Int64]
    /// Where the ids read so far end, and the filters the older ones are read by; nil when
    /// `ids` are all of them.
    var older: (below: Int64, query: CardQuery)?
}

extension FeedStore {
    /// Margin over the expected span of ids the window's walk covers, for the first read.
    static let newestFirstMargin = 1.5

    /// Whether a newest-first read of `passing` unread cards can pay, whatever share of the
    /// ids match (all of them, at best): its first read must be under half of the ids.
    static func mayReadNewestFirst(passing: Int64, window: Int) -> Bool {
        Double(passing) > 2 * Double(max(1, window)) * newestFirstMargin
    }

    /// A newest-first preselection of unread cards, or nil when one does not pay (all of them
    /// are read then): --since present (its dates are not in the index read here), the newest
    /// part expected to be most of them, or none of the unread cards in it. The window's walk
    /// covers about `window` / (share of ids matching × share unread) ids from the newest card
    /// down; the first read takes that many, times `newestFirstMargin`.
    /// Measured on a million cards (bench/scale.sh, `search update --unread`, 155,000 unread
    /// cards, 29 % of ids matching): reading all unread ids was 101 M of 401 M instructions, and
    /// the window's walk over a set of a million ids' range dearer; newest first, 242 M in all.
    /// In a real home the unread cards are the newest ones, so the first read is most of what
    /// a window needs even more often.
    func unreadNewestFirst(_ query: CardQuery, passing: Int64, matchShare: Double, window: Int) throws -> Preselection? {
        guard query.unreadOnly, query.since == nil, passing > 0, matchShare > 0 else { return nil }
        let cards = try cardIDRange()
        let count = Double(cards.upperBound) - Double(cards.lowerBound) + 1
        let covered = Double(max(1, window)) / (matchShare * (Double(passing) / count)) * Self.newestFirstMargin
        guard covered < count / 2 else { return nil }
        let from = cards.upperBound - Int64(covered.rounded(.up))
        let ids = try collectUnreadIDs(query, from: from, below: nil)
        guard !ids.isEmpty else { return nil }
        return Preselection(ids: ids, older: (from, query))
    }

    /// The unread cards' ids `query`'s sources let through (every source without a source or
    /// tag filter) from `from` and below `below` (either end open when nil), by the index of
    /// unread cards by source: a range of ids in each source's part of it (without a source
    /// filter, of the sources with unread cards), where the whole index is read otherwise.
    func collectUnreadIDs(_ query: CardQuery, from: Int64?, below: Int64?) throws -> [Int64] {
        // A tag of no source: nothing (and no statement: SQLite plans none for `IN ()` by this index).
        if query.sourceID == nil, query.tag != nil, query.taggedSources?.isEmpty ?? true { return [] }
        var filter = Self.cardFilter(query)
        if query.sourceID == nil, query.tag == nil {
            filter.add("c.source_id IN (SELECT id FROM sources WHERE unread_count > 0)")
        }
        if let from { filter.add("c.id >= ?", .integer(from)) }
        if let below { filter.add("c.id < ?", .integer(below)) }
        let collector = try cardIDFilter ?? CardIDFilter(on: db)
        cardIDFilter = collector
        let statement = try db.prepare("""
            SELECT \(CardIDFilter.collectName)(c.id) FROM cards c INDEXED BY cards_unread_by_source \(filter.whereClause)
            """)
        return try collector.collect { _ = try statement.queryOne(filter.values) { $0.int64(0) } }
    }
}
