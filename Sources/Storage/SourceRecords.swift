import FeedModel

/// What a source is: a feed fetched over HTTP(S) or from a file, or a saved web search.
public enum SourceKind: String, Sendable, Hashable, CaseIterable {
    case feed
    case search
}

/// A source as the user's sources file describes it. Saving it again never touches what the
/// store learned by fetching (validators, feed title, failures, cards).
public struct SourceConfiguration: Hashable, Sendable {
    /// The identity: the http(s)/file URL as written, or a `search:` pseudo-URL.
    public var url: String
    /// The user's name for it; nil to show the feed's own title.
    public var name: String?
    public var kind: SourceKind
    /// Words; white space inside a tag splits it (tags are stored space-separated).
    public var tags: [String]
    /// Retention overrides; nil means the default passed to `prune`.
    public var keepDays: Int?
    public var keepCount: Int?

    public init(url: String, name: String? = nil, kind: SourceKind = .feed, tags: [String] = [],
                keepDays: Int? = nil, keepCount: Int? = nil) {
        self.url = url
        self.name = name
        self.kind = kind
        self.tags = tags
        self.keepDays = keepDays
        self.keepCount = keepCount
    }
}

/// HTTP cache validators of the last response, sent back as If-None-Match/If-Modified-Since.
public struct CacheValidators: Hashable, Sendable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A source with everything the store knows about it.
public struct StoredSource: Hashable, Sendable {
    public var id: SourceID
    public var configuration: SourceConfiguration
    /// Where to fetch after a permanent redirect; nil means `configuration.url`.
    public var fetchURL: String?
    /// What the source said about itself in the last successful fetch.
    public var feed: FeedInfo
    public var validators: CacheValidators
    public var lastAttemptAt: Timestamp?
    public var lastSuccessAt: Timestamp?
    /// When a fetch last delivered the source's items (a 200 saved by `saveFetch`); the cards
    /// seen then are the ones the source lists now.
    public var itemsSeenAt: Timestamp?
    /// The last failure's message; nil after a success.
    public var lastError: String?
    public var consecutiveFailures: Int
    /// When the scheduler wants the next fetch; nil means "now".
    public var nextDueAt: Timestamp?
    /// Why fetching stopped for good (410 Gone, for example); nil while active.
    public var disabledReason: String?
    /// Why the source is fetched last, alone and in a process of its own (it stopped a run, or
    /// exceeded a limit); nil for the others. Cleared by its next success.
    public var isolatedReason: String?
    /// Set while a run reads the source (from its response to the record of the outcome): one
    /// still set when no run is going means the last run stopped while reading it.
    public var readingSince: Timestamp?
    public var createdAt: Timestamp
    public var cardCount: Int
    public var unreadCount: Int
    /// Cards the source's skip/keep rules kept out of its last saved fetch, and of all of them.
    public var skippedLastFetch = 0
    public var skippedTotal = 0
    /// What was wrong with the last fetched document when it was not well-formed (items lost
    /// or repaired: "the XML is not well-formed at line 212; 37 of 40 items kept"); nil after
    /// a clean fetch.
    public var degraded: String? = nil

    /// The URL to request: the redirect target when there is one.
    public var effectiveURL: String { fetchURL ?? configuration.url }

    /// The user's name, else the feed's title, else the URL.
    public var displayName: String {
        configuration.name ?? feed.title ?? configuration.url
    }

    public var isDisabled: Bool { disabledReason != nil }

    /// Whether the last successful fetch was answered 304 Not Modified: a success after the
    /// last delivery of items (`saveFetch` sets both times at once). The same rule as the
    /// SQL of `FeedStore.runState(of:)`.
    public var lastAnswerNotModified: Bool {
        guard let success = lastSuccessAt, let items = itemsSeenAt else { return false }
        return success > items
    }
}
