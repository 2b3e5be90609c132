import FeedModel

/// What an update run reads of a stored source while it fetches, saves and reports it: a
/// subset of `StoredSource`. A whole `StoredSource` (with the feed's description, link and
/// image, the last error, a dozen timestamps) is ~400 bytes inline and as much again in
/// strings, and the run needs none of those fields. On SQLite a run reads it when the source's
/// request is made (`FeedStore.runState(of:)`) and lets it go with the source's outcome, rather
/// than holding one for every chosen source for the whole run (issue 21).
public struct RunState: Sendable, Equatable {
    public let id: SourceID
    /// `StoredSource.displayName`: the user's name, else the feed's title, else the URL.
    public let displayName: String
    /// Whether the store knows the feed's own title (a first title found is reported as the name).
    public let hasFeedTitle: Bool
    /// The feed's refresh hint (RSS ttl, sy:updatePeriod), for the schedule.
    public let refreshHintSeconds: Int?
    /// Where a permanent redirect led; nil: the URL as written.
    public let fetchURL: String?
    public let validators: CacheValidators
    /// The last fetch's note on an ill-formed document (said again only when it changes).
    public let degraded: String?
    /// Failures in a row so far (the backoff of the next one counts from it).
    public let consecutiveFailures: Int
    /// The last successful fetch was answered 304 (`StoredSource.lastAnswerNotModified`): the
    /// next conditional request likely brings no body (`FetchRequest.likelyNotModified`).
    public let lastAnswerNotModified: Bool

    public init(id: SourceID, displayName: String, hasFeedTitle: Bool, refreshHintSeconds: Int?, fetchURL: String?,
                validators: CacheValidators, degraded: String?, consecutiveFailures: Int, lastAnswerNotModified: Bool = false) {
        self.lastAnswerNotModified = lastAnswerNotModified
        self.id = id
        self.displayName = displayName
        self.hasFeedTitle = hasFeedTitle
        self.refreshHintSeconds = refreshHintSeconds
        self.fetchURL = fetchURL
        self.validators = validators
        self.degraded = degraded
        self.consecutiveFailures = consecutiveFailures
    }

    public init(_ stored: StoredSource) {
        self.init(id: stored.id, displayName: stored.displayName, hasFeedTitle: stored.feed.title != nil,
                  refreshHintSeconds: stored.feed.refreshHintSeconds, fetchURL: stored.fetchURL, validators: stored.validators,
                  degraded: stored.degraded, consecutiveFailures: stored.consecutiveFailures,
                  lastAnswerNotModified: stored.lastAnswerNotModified)
    }
}

extension FeedStore {
    /// The `RunState` of source `id` (nil: no such source): one row by its key, through a
    /// statement kept prepared (a few µs), read when an update run makes the source's request.
    public func runState(of id: SourceID) throws -> RunState? {
        try cachedStatement("""
            SELECT coalesce(name, feed_title, url), feed_title IS NOT NULL, refresh_hint_seconds, fetch_url, etag,
                   last_modified, degraded, consecutive_failures, last_success_at > items_seen_at
            FROM sources WHERE id = ?1
            """).queryOne([SQLValue(id)]) { row in
            RunState(id: id, displayName: row.string(0) ?? "", hasFeedTitle: row.int(1) != 0,
                     refreshHintSeconds: row.optionalInt(2), fetchURL: row.string(3),
                     validators: CacheValidators(etag: row.string(4), lastModified: row.string(5)),
                     degraded: row.string(6), consecutiveFailures: row.int(7), lastAnswerNotModified: row.int(8) == 1)
        }
    }
}
