import FeedModel

/// Reading cards and their read state: what `feeds read`, `feeds mark` and the renderers need
/// of a store, on either backend (the tests of CardReadingContract run on both and compare
/// their listings). Search is `CardSearchStore`'s, retention `CardRetentionStore`'s, windows
/// of a listing `BrowseStore`'s, the day groups of the HTML archive `DigestStore`'s.
public protocol CardReadingStore: AnyObject {
    /// Cards matching `query`, in `order` (see `CardOrder` for the tie breaks); `.relevance`
    /// without a search lists in `.newest` order.
    func cards(_ query: CardQuery, order: CardOrder) throws -> [StoredCard]
    /// The cards with these ids, in the order of `ids` (ids of no card left out).
    func cards(ids: [CardID]) throws -> [StoredCard]
    func card(id: CardID) throws -> StoredCard?
    /// Cards matching `query` (its limit ignored), counted.
    func cardCount(_ query: CardQuery) throws -> Int
    /// Sets the read flag of the selected cards; how many changed state.
    @discardableResult
    func setRead(_ read: Bool, _ selection: CardSelection) throws -> Int
}

/// What the text reader (`feeds read`, `feeds search`, `feeds mark`) uses of a store, on either
/// backend: the cards and their read state, their search, and the sources its `--source` names.
public typealias TextReaderStore = CardReadingStore & CardSearchStore & SourceStore
