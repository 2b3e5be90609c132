import FeedModel
import Storage

/// Rows of images left out for room: the cache remembers them so that a run does not download
/// again what the last one had to drop. Such a row has no type (nothing stored), no failure,
/// and the image's size in `bytes` (for one not even downloaded, `maxImageBytes`, the most it
/// may be): the URL is asked for again only once that many bytes are
/// free within `maxTotalBytes` (older images expired or pruned, the cap raised), or once the
/// row is pruned, an expiry after it was last wanted.
extension ImageRecord {
    public var isLeftOutForRoom: Bool { type == nil && failures == 0 && bytes > 0 }

    /// The row that remembers `url` (of `bytes` bytes) was left out for room at `now`.
    public static func leftOutForRoom(url: String, fileKey: String, bytes: Int, now: Timestamp) -> ImageRecord {
        ImageRecord(url: url, fileKey: fileKey, bytes: bytes, fetchedAt: now, lastUsedAt: now, expiresAt: now,
                    lastError: "left out: the image cache is full")
    }
}

/// The cache's rules, all as pure functions of a record and `now` (no clock reads), so tests
/// drive time by hand.
public struct ImageCachePolicy: Sendable, Hashable {
    /// Largest image kept (also the fetcher's body cap for image downloads).
    public var maxImageBytes: Int
    /// Largest total of stored images; least recently used images go first beyond it.
    public var maxTotalBytes: Int
    /// How long a stored image is fresh after it was fetched or last used (Kingfisher's
    /// "extend expiration on access").
    public var expirySeconds: Int64
    /// Back-off of a failed URL: first wait, doubled per further failure, at most `maxBackoff`.
    public var firstBackoffSeconds: Int64
    public var maxBackoffSeconds: Int64

    public init(maxImageBytes: Int = 4 << 20, maxTotalBytes: Int = 256 << 20, expirySeconds: Int64 = 7 * 86_400,
                firstBackoffSeconds: Int64 = 3_600, maxBackoffSeconds: Int64 = 7 * 86_400) {
        self.maxImageBytes = maxImageBytes
        self.maxTotalBytes = maxTotalBytes
        self.expirySeconds = expirySeconds
        self.firstBackoffSeconds = firstBackoffSeconds
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    /// Whether `url`, with this row (nil: never seen), should be requested at `now`: never seen,
    /// or expired (a conditional GET), and in both cases not inside a failure's back-off; one
    /// left out for room only when `freeBytes` (what the cap leaves) would hold it.
    public func shouldFetch(_ record: ImageRecord?, now: Timestamp, freeBytes: Int = .max) -> Bool {
        guard let record else { return true }
        if record.isLeftOutForRoom { return record.bytes <= freeBytes }
        if let retryAt = record.retryAt, retryAt > now { return false }
        if record.isStored { return record.expiresAt <= now }
        return true
    }

    /// The end of the back-off after the `failures`-th failure in a row (1-based).
    public func retryAt(failures: Int, now: Timestamp) -> Timestamp {
        var wait = firstBackoffSeconds
        var n = 1
        while n < failures && wait < maxBackoffSeconds {
            wait *= 2
            n += 1
        }
        return now.adding(min(wait, maxBackoffSeconds))
    }

    /// A fresh expiry from `now`.
    public func expiry(from now: Timestamp) -> Timestamp {
        now.adding(expirySeconds)
    }

    /// What to delete to bring the cache within its rules, given every row (any order):
    /// with `expired`, stored images past their expiry and failures whose back-off ended more
    /// than an expiry ago (a prune); then least recently used stored images until the total is
    /// within `maxTotalBytes`. Ties in last use go by URL so the choice is reproducible.
    public func evictions(_ records: [ImageRecord], now: Timestamp, expired: Bool) -> [ImageRecord] {
        var out: [ImageRecord] = []
        var kept: [ImageRecord] = []
        for record in records {
            if expired {
                if record.isStored && record.expiresAt <= now { out.append(record); continue }
                if !record.isStored, let retryAt = record.retryAt,
                   retryAt.adding(expirySeconds) <= now { out.append(record); continue }
                if record.isLeftOutForRoom, record.lastUsedAt.adding(expirySeconds) <= now {
                    out.append(record)
                    continue
                }
            }
            if record.isStored { kept.append(record) }
        }
        // Sizes as the store holds them, summed in 128 bits: a row may hold up to Int.max, and
        // a saturated sum would forget the rest (two rows of Int.max, one evicted, the total 0).
        var total = kept.reduce(Int128(0)) { $0 + Int128($1.bytes) }
        guard total > Int128(maxTotalBytes) else { return out }
        kept.sort { ($0.lastUsedAt, $0.url) < ($1.lastUsedAt, $1.url) }
        for record in kept where total > Int128(maxTotalBytes) {
            out.append(record)
            total -= Int128(record.bytes)
        }
        return out
    }
}
