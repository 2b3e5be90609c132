import FeedModel

/// A feed's cards made ready for `FeedStore.saveFetch(sourceID:feed:prepared:...)` away from the
/// writing thread: repeated keys dropped (first kept), enclosures encoded, content hashed and,
/// when a converter is given, the description's text for the search index extracted. All of it
/// is pure work on values, so `feeds update` does it on its parsing thread and leaves the one
/// thread that writes only the writing.
public struct PreparedCards: Sendable {
    struct Entry: Sendable {
        var card: Card
        var key: CardKey
        var enclosuresJSON: String
        var hash: String
        /// The description as the search index takes it (see `SearchIndex`); meaningful only
        /// when `hasSearchText`.
        var searchText: String?
    }

    var entries: [Entry]
    /// Whether each entry carries its search text, so saving can hand it to the index directly.
    let hasSearchText: Bool

    /// `keys[i]` when given (search results), else each card's own key. `descriptionText` turns
    /// a description (sanitized HTML) into the text to index, as `FeedStore.descriptionText`.
    public init(_ cards: [Card], keys: [CardKey]? = nil, descriptionText: ((String) -> String)? = nil) {
        precondition(keys == nil || keys!.count == cards.count, "Storage: one key per card")
        hasSearchText = descriptionText != nil
        entries = []
        entries.reserveCapacity(cards.count)
        var seen = Set<CardKey>()
        for (index, card) in cards.enumerated() {
            let key = StoredBounds.key(keys?[index] ?? card.key)
            guard seen.insert(key).inserted else { continue }
            var card = card
            card.title = StoredBounds.title(card.title)
            let enclosures = EnclosureJSON.encode(card.enclosures)
            entries.append(Entry(card: card, key: key, enclosuresJSON: enclosures,
                                 hash: ContentHash.of(card, enclosuresJSON: enclosures),
                                 searchText: descriptionText.flatMap { SearchIndex.descriptionText(card.description, $0) }))
        }
    }

    public var count: Int { entries.count }
}
