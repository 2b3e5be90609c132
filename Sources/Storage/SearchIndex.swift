/// The full-text index of the cards (table `card_search` in its own file: see `SearchIndexer`):
/// what goes in, and how.
///
/// Indexed per card: the title, the description as plain text (at most `descriptionLimit`
/// characters of it) and the author, folded by SQLite's `unicode61 remove_diacritics 2` tokenizer
/// (case and diacritics: "cafe" finds "Café").
///
/// Kept in step with the cards: a new card costs the saving transaction nothing (its id is above
/// the index's mark); triggers log the cards whose title, description or author changed and
/// the deleted ones (migration 6). `FeedStore.refreshSearchIndex()` and `SearchIndexer.refresh`
/// index what is waiting: `feeds update` on a thread of its own while it saves, every search
/// first. So a search never misses a saved card nor finds a deleted one.
///
/// Storage knows no HTML: `FeedStore.descriptionText` turns a description into the text to index
/// (the Aggregator sets Markup's converter). Without it the description is indexed as stored,
/// markup included (tag names become extra words), which is still correct for plain-text
/// descriptions and for tests.
public enum SearchIndex {
    /// UTF-8 bytes of a description's text that are indexed (cut at a character boundary):
    /// the start of an article carries its subject, and indexing whole articles as HTML made a
    /// cold update more than twice as costly. Converters may stop reading at this bound.
    public static let descriptionLimit = 2048

    /// A match's relevance score (lower is better): bm25 with a word in the title weighing ten
    /// times one in the description, the author five (the index's `rank` says the same, for
    /// anyone reading the file with the sqlite3 shell), by `feeds_relevance` (CSQLiteRanking:
    /// bm25 without counting a one-phrase query's matches first, the same order).
    static let relevance = "feeds_relevance(card_search, 10.0, 1.0, 5.0)"

    /// The description text to index: converted, then cut to `descriptionLimit` bytes.
    static func descriptionText(_ description: String?, _ convert: ((String) -> String)?) -> String? {
        guard let description else { return nil }
        let text = convert.map { $0(description) } ?? description
        guard text.utf8.count > descriptionLimit else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: descriptionLimit)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }
}

/// One card's row of the search index: title, description text (already extracted and cut),
/// author.
struct SearchRow: Sendable {
    var id: Int64
    var title: String?
    var text: String?
    var author: String?
    /// Whether the text was extracted for the index already.
    var fromMemory = true
}
