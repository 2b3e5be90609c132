import FeedModel

/// Full-text search of the cards: what `feeds search`, `feeds read --search` and browse's
/// search need of a store, on either backend. The query language is `SearchQuery`'s (words,
/// `"phrases"`, `prefix*`, `AND`/`OR`/`NOT` in capitals, parentheses, `title:`, `author:`,
/// `description:`), folded by `SearchFolding` and split by SQLite's unicode61 tokenizer on both
/// (`SearchWords`), so a query matches the same cards on SQLite and PostgreSQL
/// (CardSearchContractTests compares them). A query neither can read is
/// `StorageError.badSearchQuery` with the reason, on both.
///
/// Orders: `.relevance` ranks only while searching: the newest `FeedStore.relevanceWindow`
/// matches (by save order) under the filters, best first, equal scores in the `newest` order
/// (undated last, sort date, then id, both descending). The score is bm25 on SQLite and
/// ts_rank on PostgreSQL (see PostgresStore+Search.swift for how they differ); every other
/// order lists all matches exactly as `CardReadingStore.cards(_:order:)` lists cards.
public protocol CardSearchStore: AnyObject {
    /// The cards matching `query`'s filters and the search `text`, in `order` (`query`'s limit applies).
    func search(_ text: String, query: CardQuery, order: CardOrder) throws -> [StoredCard]
    /// The ids of `search(_:query:order:)`, in its order (no text read): a listing to page through.
    func searchListing(_ text: String, query: CardQuery, order: CardOrder) throws -> [CardID]
    /// How many cards match `query`'s filters (its limit ignored) and `text`: all matches, not
    /// only the relevance window.
    func searchCount(_ text: String, query: CardQuery) throws -> Int
}

// SQLite: `search` (FeedStore+Cards.swift) and `searchListing` (FeedStore+Window.swift) as they
// were; `searchCount` in FeedStore+SearchCount.swift.
extension FeedStore: CardSearchStore {}
