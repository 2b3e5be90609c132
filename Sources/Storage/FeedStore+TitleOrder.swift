// The `title` order's three tables (migrations 16 and 17): `card_titles`, folded;
// `card_titles_new`, the keys of the cards saved or changed since the last fold; and
// `card_titles_log`, keyed by card id, where a new or changed card's key goes first. An update's
// inserts append to the log (a new card's id is the largest) instead of landing on random leaves
// of a table in key order at every batch; its end moves them into `card_titles_new` in key order,
// each leaf once, and folds that into `card_titles` once enough wait (`settleTitleOrder`). A
// listing in title order walks the three, merged by SQLite (the log sorted: empty between updates).
extension FeedStore {
    /// The end of an update's saves for the `title` order: the log's keys moved in key order,
    /// with those of `card_titles_new`, into `card_titles` when there are `minimum` or more of
    /// them together (at least one), else into `card_titles_new`; in one transaction. Nothing to
    /// move (an all-304 run): no write lock taken. Listings are the same before and after.
    public func settleTitleOrder(foldingAtLeast minimum: Int = 1) throws {
        let wanted = max(1, minimum)
        let logged = try db.rowCount(of: "card_titles_log", upTo: wanted)
        let waiting = try db.rowCount(of: "card_titles_new", upTo: wanted)
        let folding = logged + waiting >= wanted
        guard logged > 0 || folding else { return }
        // The three tables' columns are the key's terms, in its order (`titleTerms`).
        let names = Self.titleTerms.map { $0.table.dropFirst("t.".count) }
        let columns = names.joined(separator: ", ")
        let key = "ORDER BY " + zip(names, Self.titleTerms).map { $0 + ($1.descending ? " DESC" : "") }.joined(separator: ", ")
        // The sort in temporary files, not in memory: an update's connection keeps its temporary
        // data in memory (`tuneForBulkWrites`), and the log of a cold update of 5,000 feeds
        // (115,000 keys) sorted there raised its peak memory from 37.8 to 46.7 MB. On files the
        // sorter holds about a page cache's worth at a time and merges.
        let tempStore = try db.prepare("PRAGMA temp_store").queryOne { $0.int(0) } ?? 0
        if tempStore == 2 { try db.execute("PRAGMA temp_store = FILE") }
        defer { if tempStore == 2 { try? db.execute("PRAGMA temp_store = MEMORY") } }
        try db.writeTransaction {
            if folding {
                try db.execute("""
                    INSERT OR FAIL INTO card_titles (\(columns))
                    SELECT \(columns) FROM card_titles_new UNION ALL SELECT \(columns) FROM card_titles_log \(key);
                    DELETE FROM card_titles_new;
                    DELETE FROM card_titles_log;
                    """)
            } else {
                try db.execute("""
                    INSERT OR FAIL INTO card_titles_new (\(columns)) SELECT \(columns) FROM card_titles_log \(key);
                    DELETE FROM card_titles_log;
                    """)
            }
        }
    }

    /// The tables a walk in title order reads, merged: the folded keys, the new ones, the log.
    static let titleTables = ["card_titles", "card_titles_new", "card_titles_log"]

    /// The `title` order's key as the three tables keep it (`t`), each term beside the card's
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
