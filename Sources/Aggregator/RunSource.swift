import FeedModel
import Storage

/// What an update run reads of a stored source while it fetches, saves and reports it: a
/// subset of `StoredSource`, kept for every chosen source for the whole run. A whole
/// `StoredSource` (with the feed's description, link and image, the last error, a dozen
/// timestamps) is ~400 bytes inline and as much again in strings; at 5,000 feeds the run's
/// copies of them were a fifth of its peak memory, and the run needs none of those fields.
struct RunState: Sendable {
    let id: SourceID
    /// `StoredSource.displayName`: the user's name, else the feed's title, else the URL.
    let displayName: String
    /// Whether the store knows the feed's own title (a first title found is reported as the name).
    let hasFeedTitle: Bool
    /// The feed's refresh hint (RSS ttl, sy:updatePeriod), for the schedule.
    let refreshHintSeconds: Int?
    /// Where a permanent redirect led; nil: the URL as written.
    let fetchURL: String?
    let validators: CacheValidators
    /// The last fetch's note on an ill-formed document (said again only when it changes).
    let degraded: String?
    /// Failures in a row so far (the backoff of the next one counts from it).
    let consecutiveFailures: Int

    init(_ stored: StoredSource) {
        id = stored.id
        displayName = stored.displayName
        hasFeedTitle = stored.feed.title != nil
        refreshHintSeconds = stored.feed.refreshHintSeconds
        fetchURL = stored.fetchURL
        validators = stored.validators
        degraded = stored.degraded
        consecutiveFailures = stored.consecutiveFailures
    }
}

/// A source as an update run holds it: its line of the sources file and its `RunState`.
typealias RunSource = (entry: SourceEntry, stored: RunState)

extension UpdateRunner {
    /// `source` as the run keeps it.
    static func running(_ source: (entry: SourceEntry, stored: StoredSource)) -> RunSource {
        (source.entry, RunState(source.stored))
    }
}
