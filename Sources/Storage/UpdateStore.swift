import FeedModel

// The store's interface for the update path, which both backends implement: `FeedStore`
// (SQLite, one machine) and `PostgresStore` (PostgreSQL, any number of workers). The
// aggregator, reader, browser and HTML writer are to use these protocols rather than a
// backend, so SQL stays in this module and the backend is chosen once, where the store opens.
//
// The rules are the same on both backends (the tests of UpdateStoreContract run on each):
// every method is one transaction, the store never reads the clock, and a card's identity is
// (source, card key), held by a UNIQUE key in each schema.

/// Sources: the configuration side (add, update, remove, look up) and what is due.
public protocol SourceStore: AnyObject {
    /// Inserts each source, or updates the configured fields of the one with the same URL,
    /// keeping what fetching learned; their ids in the same order, in one transaction.
    @discardableResult
    func upsertSources(_ configurations: [SourceConfiguration], now: Timestamp) throws -> [SourceID]
    /// Deletes the source and its cards. False when there was none.
    @discardableResult
    func removeSource(_ id: SourceID) throws -> Bool
    /// Every source in the order they were added, with card counts.
    func sources() throws -> [StoredSource]
    /// Every source's configuration, in the order they were added (no card counts).
    func sourceConfigurations() throws -> [SourceConfiguration]
    func source(id: SourceID) throws -> StoredSource?
    /// The source whose configured URL is exactly `url`.
    func source(url: String) throws -> StoredSource?
    /// Sources whose display name (user's name, else feed title) equals `name`, ignoring ASCII
    /// case only (SQLite's NOCASE): names are not unique, so maybe several.
    func sources(named name: String) throws -> [StoredSource]
    /// Sources to fetch at `now`: not disabled and due (never scheduled counts as due).
    func dueSources(at now: Timestamp) throws -> [StoredSource]
    /// The recorded permanent-redirect targets, by source URL.
    func fetchURLs() throws -> [String: String]
}

/// Fetch results: what an update records after each request, cards and state together.
public protocol FetchStateStore: AnyObject {
    /// Saves a 200: the cards (new ones inserted, changed ones rewritten in place keeping id,
    /// first sighting and read flag, unchanged ones only seen again) and the source's new
    /// state. See `FeedStore.saveFetch` for the exact rules.
    @discardableResult
    func saveFetch(sourceID: SourceID, feed: FeedInfo, prepared: PreparedCards,
                   validators: CacheValidators, now: Timestamp, nextDue: Timestamp?, skipped: Int) throws -> SaveSummary
    /// A 304: a success that changes no card; validators given replace the stored ones field by field.
    func recordNotModified(sourceID: SourceID, validators: CacheValidators, now: Timestamp, nextDue: Timestamp?) throws
    /// A failure: cards and validators stay; returns the new count of consecutive failures.
    @discardableResult
    func recordFailure(sourceID: SourceID, message: String, now: Timestamp, nextDue: Timestamp?) throws -> Int
    /// Whether the last saved document was degraded (nil: it was clean).
    func recordDegraded(sourceID: SourceID, note: String?) throws
    /// Marks the source as being read, until its outcome is recorded.
    func markReading(sourceID: SourceID, now: Timestamp) throws
    /// Sources whose reading mark is still set (the run reading them stopped).
    func interruptedSources() throws -> [SourceID]
    /// Fetched last, alone, in a process of its own, until a success.
    func isolate(sourceID: SourceID, reason: String) throws
    /// Not fetched again (410 Gone) until `enable`.
    func disable(sourceID: SourceID, reason: String) throws
    /// Fetchable again, due at once, with a clean failure count.
    func enable(sourceID: SourceID) throws
    /// Later fetches go to `url` (nil or the configured URL: back to it); validators dropped.
    func updateFetchURL(sourceID: SourceID, to url: String?) throws
}

/// What `feeds update` needs of a store.
public typealias UpdateStore = SourceStore & FetchStateStore

// The conveniences callers use, for any backend.
extension SourceStore {
    @discardableResult
    public func upsertSource(_ configuration: SourceConfiguration, now: Timestamp) throws -> SourceID {
        try upsertSources([configuration], now: now)[0]
    }
}

extension FetchStateStore {
    /// `saveFetch` of cards as parsed (`keys[i]` replaces `cards[i].key` when given).
    @discardableResult
    public func saveFetch(sourceID: SourceID, feed: FeedInfo, cards: [Card], keys: [CardKey]? = nil,
                          validators: CacheValidators, now: Timestamp, nextDue: Timestamp?) throws -> SaveSummary {
        try saveFetch(sourceID: sourceID, feed: feed, prepared: PreparedCards(cards, keys: keys),
                      validators: validators, now: now, nextDue: nextDue, skipped: 0)
    }

    /// A 304 that carried no validators.
    public func recordNotModified(sourceID: SourceID, now: Timestamp, nextDue: Timestamp?) throws {
        try recordNotModified(sourceID: sourceID, validators: CacheValidators(), now: now, nextDue: nextDue)
    }
}
