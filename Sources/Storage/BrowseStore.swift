import FeedModel

/// What `feeds browse` needs of a store, on either backend: windows of a listing of any length
/// (a slice, a card's place, the cards around it, the next unread card), a search's listing to
/// page through, and a number that tells a draw that another connection committed meanwhile.
/// No method reads every card of a listing: each is a count or a short read on the order's
/// index (SQLite: FeedStore+Window.swift; PostgreSQL: PostgresStore+Browse.swift), and both
/// list the same cards in the same order with the same places (BrowseStoreContractTests).
public protocol BrowseStore: CardReadingStore {
    /// A search's listing as this backend keeps it (SQLite: `SearchListing`, relevance's ties
    /// settled as they are read; PostgreSQL: the ids in order).
    associatedtype SearchWindow: SearchListingWindow

    /// A number that changes when another connection committed a change to the cards (a
    /// `feeds update` meanwhile), and only then: this connection's own writes leave it. Read
    /// before every frame, so one cheap read.
    func dataVersion() throws -> Int64
    /// How many cards `cards(query, order:)` lists (its limit aside).
    func listingCount(_ query: CardQuery) throws -> Int
    /// The `limit` cards of `cards(query, order:)` from its `offset`-th on (`query`'s limit aside).
    func listingWindow(_ query: CardQuery, order: CardOrder, offset: Int, limit: Int) throws -> [StoredCard]
    /// The place of the card `id` in `cards(query, order:)` and, `counting`, how many cards the
    /// listing has (else 0); nil when it is not listed.
    func listingPlace(of id: CardID, _ query: CardQuery, order: CardOrder, counting: Bool) throws -> (position: Int, total: Int)?
    /// The listed card `id` with at most `before` cards before it and `after` after it, in the
    /// listing's order (empty when it is not listed).
    func listingAround(_ id: CardID, _ query: CardQuery, order: CardOrder, before: Int, after: Int) throws -> [StoredCard]
    /// The place in `cards(query, order:)` of the first unread card after (or the last before)
    /// the card `id`, or nil when there is none.
    func unreadPosition(from id: CardID, forward: Bool, _ query: CardQuery, order: CardOrder) throws -> Int?
    /// The listing of `search(_:query:order:)` (`CardSearchStore`), its ids in its order: at
    /// most the relevance window, or all the matches.
    func searchListingWindow(_ text: String, query: CardQuery, order: CardOrder) throws -> SearchWindow
    /// The index in `ids` of the first (or, `last`, the last) unread card among them.
    func firstUnread(among ids: ArraySlice<CardID>, last: Bool) throws -> Int?
}

/// A search's listing, read a range at a time.
public protocol SearchListingWindow: AnyObject {
    /// How many cards the listing has.
    var count: Int { get }
    /// The ids at `range` of the listing (clamped to it), in order.
    func ids(_ range: Range<Int>) throws -> [CardID]
    /// The place of the card `id` in the listing, or nil when it is not listed.
    func position(of id: CardID) throws -> Int?
}

/// A search's listing read in its order already: every id of it, nothing left to settle.
public final class OrderedSearchListing: SearchListingWindow {
    private let listed: [CardID]

    public init(_ ids: [CardID]) { listed = ids }

    public var count: Int { listed.count }

    public func ids(_ range: Range<Int>) throws -> [CardID] {
        Array(listed[range.clamped(to: 0..<listed.count)])
    }

    public func position(of id: CardID) throws -> Int? { listed.firstIndex(of: id) }
}
