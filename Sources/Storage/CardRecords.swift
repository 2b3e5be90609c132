import FeedModel

/// A card as saved: the card itself plus what the store adds.
public struct StoredCard: Hashable, Sendable {
    public var id: CardID
    public var card: Card
    public var key: CardKey
    public var sourceID: SourceID
    /// The source's display name (user's name, else feed title, else URL).
    public var sourceName: String
    public var isRead: Bool
    /// The first fetch that brought the card; never changes.
    public var firstSeenAt: Timestamp
    /// The fetch that saved the current content (first seen, or last update).
    public var changedAt: Timestamp
    /// The last fetch that listed the card.
    public var lastSeenAt: Timestamp
    /// What listings order by: published, else updated, else first seen.
    public var sortDate: Timestamp

    /// A card as the store would list it (for renderers' checks: the fuzz targets).
    public init(id: CardID, card: Card, key: CardKey, sourceID: SourceID, sourceName: String, isRead: Bool,
                firstSeenAt: Timestamp, changedAt: Timestamp, lastSeenAt: Timestamp, sortDate: Timestamp) {
        self.id = id
        self.card = card
        self.key = key
        self.sourceID = sourceID
        self.sourceName = sourceName
        self.isRead = isRead
        self.firstSeenAt = firstSeenAt
        self.changedAt = changedAt
        self.lastSeenAt = lastSeenAt
        self.sortDate = sortDate
    }
}

/// A card of a listing as `FeedStore.listingIDs` gives it: its id and whether it is read.
public struct ListedCard: Hashable, Sendable {
    public var id: CardID
    public var isRead: Bool

    public init(id: CardID, isRead: Bool) {
        self.id = id
        self.isRead = isRead
    }
}

/// Which cards to list; the order is a separate `CardOrder` (default `.newest`).
public struct CardQuery: Hashable, Sendable {
    /// Only this source; nil for all.
    public var sourceID: SourceID?
    /// Only sources with this tag; nil for all.
    public var tag: String?
    public var unreadOnly: Bool
    /// Only cards whose sort date is at or after this moment.
    public var since: Timestamp?
    /// At most this many; nil for no limit.
    public var limit: Int?
    /// The sources `tag` names (`TagMatch`, case aside), found before the query runs
    /// (`FeedStore.resolvingTag`): the SQL then filters by source id, which an index answers.
    var taggedSources: [SourceID]?

    public init(sourceID: SourceID? = nil, tag: String? = nil, unreadOnly: Bool = false,
                since: Timestamp? = nil, limit: Int? = nil) {
        self.sourceID = sourceID
        self.tag = tag
        self.unreadOnly = unreadOnly
        self.since = since
        self.limit = limit
    }

    /// Whether any filter (source, tag, unread, since) narrows the cards.
    var hasFilters: Bool { sourceID != nil || tag != nil || unreadOnly || since != nil }
}

/// Which cards to mark read or unread.
public enum CardSelection: Hashable, Sendable {
    case cards([CardID])
    case source(SourceID)
    case all
    /// Cards whose sort date is before this moment.
    case before(Timestamp)
    /// Cards whose sort date is at or after `since` and before `before` (either may be open),
    /// the rule of the reader's `--since` filter.
    case dated(since: Timestamp?, before: Timestamp?)
}

/// What one saved fetch did to the cards.
public struct SaveSummary: Hashable, Sendable {
    /// Cards not in the database before.
    public var new: Int
    /// Cards whose content changed and were rewritten in place.
    public var updated: Int
    /// Cards already saved with the same content; only their last-seen time moved.
    public var unchanged: Int

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
    }
}
