// The `title` order's two tables (migration 16): `card_titles`, folded, and `card_titles_new`,
// the keys of the cards saved or changed since the last fold. A new card's key goes to the
// small table, whose pages stay in the page cache, instead of to a random page of an index of
// every card in each batch of an update; the fold writes them into the big table in key order,
// each of its leaves once. A listing in title order walks both tables, merged by SQLite.
extension FeedStore {
    /// Moves the keys of `card_titles_new` into `card_titles`, in key order, in one transaction,
    /// when there are at least `minimum` of them (and at least one). Listings are the same
    /// before and after (they read both tables); after, their second walk is empty again.
    public func foldTitleOrder(atLeast minimum: Int = 1) throws {
        // Counted up to `minimum` only; nothing new (an all-304 run): no write lock taken.
        let wanted = max(1, minimum)
        let waiting = try db.prepare("SELECT count(*) FROM (SELECT 1 FROM card_titles_new LIMIT \(wanted))").queryOne { $0.int(0) }
        guard let waiting, waiting >= wanted else { return }
        try db.writeTransaction {
            let columns = "untitled, title_key, undated, sort_date, id"
            try db.execute("""
                INSERT OR FAIL INTO card_titles (\(columns))
                SELECT \(columns) FROM card_titles_new ORDER BY untitled, title_key, undated, sort_date DESC, id DESC;
                DELETE FROM card_titles_new;
                """)
        }
    }

    /// The tables a walk in title order reads, merged: the folded keys, the new ones.
    static let titleTables = ["card_titles", "card_titles_new"]

    /// The `title` order's key as the two tables keep it (`t`), each term beside the card's
    /// expression (`c`) of the same value: `CardOrder.title`'s key, but an untitled card's
    /// `title_key` is '' there (the tables' key columns are NOT NULL; `untitled` sorts it).
    static let titleTerms: [(table: String, card: String, descending: Bool)] = [
        ("t.untitled", "c.title_key IS NULL", false), ("t.title_key", "coalesce(c.title_key, '')", false),
        ("t.undated", "c.undated", false), ("t.sort_date", "c.sort_date", true), ("t.id", "c.id", true),
    ]

    /// `FROM`'s walk of one title table joined with the cards of `from` (`cards c`, maybe with
    /// `sources s`): the table first (CROSS JOIN fixes the loop order), each card by its id.
    static func titleFrom(_ table: String, _ from: String) -> String {
        "\(table) t CROSS JOIN \(from)"
    }

    /// A listing of `columns` in `title` order: a walk of each title table, with the conditions
    /// of `whereClause` (on `c` and `s`), merged by their key (a compound SELECT ordered by it:
    /// MERGE (UNION ALL), no sort). The key's columns come after `columns` (readers read the
    /// first ones); the conditions' parameters are numbered, so both walks use the same values.
    /// The ids of every card (no condition) come from the tables alone: no card row is read
    /// (`listingIDs`, `listingWindow`'s OFFSET over 100,000 cards).
    static func titleListing(columns: String, from: String, whereClause: String, limitClause: String) -> String {
        let key = titleTerms.enumerated().map { "\($0.element.table) AS title_k\($0.offset)" }.joined(separator: ", ")
        let idsAlone = columns == "c.id" && whereClause.isEmpty
        let conditions = (whereClause.isEmpty ? "WHERE" : whereClause + " AND") + " c.id = t.id"
        let walks = titleTables.map {
            idsAlone ? "SELECT t.id, \(key) FROM \($0) t" : "SELECT \(columns), \(key) FROM \(titleFrom($0, from)) \(conditions)"
        }
        let orderBy = titleTerms.enumerated().map { "title_k\($0.offset)" + ($0.element.descending ? " DESC" : "") }
        return walks.joined(separator: "\nUNION ALL\n") + "\nORDER BY \(orderBy.joined(separator: ", "))\(limitClause)"
    }

    /// Whether a listing in `title` order walks the title tables (`titleListing`) rather than
    /// sorting the cards it reads by the same key (`CardOrder.title`'s terms on the cards): it
    /// walks where `cards_by_title` was walked before migration 16, that is every listing but
    /// those of some sources' cards that do not walk the order (`walksOrderIndex`: they sort
    /// those sources' cards) and searches whose matches are looked up by id and sorted (a rare
    /// word: `OrderedSearchPlan`).
    static func walksTitles(_ query: CardQuery, search: String?, walk: Bool, selecting: Bool,
                            walkingOrderIndex: Bool) -> Bool {
        if search != nil { return walk || selecting }
        return walkingOrderIndex || (query.sourceID == nil && query.tag == nil)
    }
}
