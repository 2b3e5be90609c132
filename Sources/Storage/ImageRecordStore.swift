import FeedModel

/// The image cache's metadata (`ImageRecord` rows, table `cached_images`) on either backend:
/// what `ImageCache` and `feeds cache` need of a store. SQLite: FeedStore+ImageCache.swift;
/// PostgreSQL: PostgresStore+ImageCache.swift. The store decides nothing (the cache's policy
/// sets every time and size); it keeps rows, and its schema refuses the rows no cache writes
/// (a negative size or failure count, an unknown type, an empty URL) with each backend's
/// constraint error. The tests of ImageRecordContract run on both.
public protocol ImageRecordStore: AnyObject {
    /// The row of `url`, or nil.
    func imageRecord(url: String) throws -> ImageRecord?
    /// The rows of these URLs (those that have one), keyed by URL.
    func imageRecords(urls: [String]) throws -> [String: ImageRecord]
    /// Every row, least recently used first (ties by URL, byte order): the eviction order.
    func imageRecords() throws -> [ImageRecord]
    /// Image URLs of cards that have no row (never asked for), newest card first (`CardOrder`'s
    /// `newest` without its undated-last rule: by `sort_date`, then id), each with the source of
    /// its first card; at most `limit` cards read, duplicates dropped.
    func imagesNeverFetched(limit: Int) throws -> [(url: String, sourceID: SourceID)]
    /// Inserts or replaces the row of `record.url`. A URL that `URLKey.isStorable` refuses
    /// is refused (the constraint error of the backend), as the schema refuses the rest.
    func saveImage(_ record: ImageRecord) throws
    /// Marks these URLs used at `now` and moves their expiry to at least `expiresAt` (stored
    /// images only: a failure's times are its back-off's).
    func touchImages(_ urls: [String], now: Timestamp, expiresAt: Timestamp) throws
    /// Deletes the rows of these URLs; how many there were.
    @discardableResult
    func deleteImages(_ urls: [String]) throws -> Int
    /// Deletes every row; how many there were.
    @discardableResult
    func clearImages() throws -> Int
}

/// The one rule of which URLs key a row of the image cache or of the page previews, on both
/// backends: not empty (the schemas' CHECK), and without U+0000, which PostgreSQL's text cannot
/// hold (it would be kept as U+FFFD: another URL, found under neither) and where SQLite's
/// json_each ends a string (a lookup of `URL\0x` found, and a delete deleted, the row of `URL`).
/// Lookups, touches and deletes of such a URL find nothing on either. The image cache asks
/// for no other URL (`ImageCache.requests`), so a hostile one is never fetched, never recorded
/// and never makes a download run fail; such a page is not remembered (looked at again).
public enum URLKey {
    public static func isStorable(_ url: String) -> Bool {
        !url.isEmpty && !url.utf8.contains(0)
    }

    /// Why `isStorable(url)` is false, for the constraint error.
    static func refusal(_ url: String) -> String {
        url.isEmpty ? "a URL key may not be empty" : "a URL key may not hold U+0000 (PostgreSQL's text cannot)"
    }
}
