import FeedModel

/// One row of the image cache: a stored image (`type` set) or a failure (`type` nil, `failures`
/// above zero, `retryAt` the end of its back-off). Only metadata: the bytes are a file the image
/// cache names by `fileKey`. The store decides nothing; the cache's policy sets every time.
public struct ImageRecord: Hashable, Sendable {
    public var url: String
    /// The file name stem (a hash of the URL), the same for every fetch of this URL.
    public var fileKey: String
    /// Sniffed from the bytes: `jpeg`, `png`, `gif`, `webp`, `avif`; nil for a failure.
    public var type: String?
    public var bytes: Int
    public var width: Int?
    public var height: Int?
    public var etag: String?
    public var lastModified: String?
    public var fetchedAt: Timestamp
    public var lastUsedAt: Timestamp
    public var expiresAt: Timestamp
    public var failures: Int
    public var retryAt: Timestamp?
    public var lastError: String?

    public init(url: String, fileKey: String, type: String? = nil, bytes: Int = 0, width: Int? = nil,
                height: Int? = nil, etag: String? = nil, lastModified: String? = nil, fetchedAt: Timestamp,
                lastUsedAt: Timestamp, expiresAt: Timestamp, failures: Int = 0, retryAt: Timestamp? = nil,
                lastError: String? = nil) {
        self.url = url
        self.fileKey = fileKey
        self.type = type
        self.bytes = bytes
        self.width = width
        self.height = height
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.failures = failures
        self.retryAt = retryAt
        self.lastError = lastError
    }

    /// True when the row stands for a file on disk.
    public var isStored: Bool { type != nil }
}

// The image cache's metadata (table `cached_images`, one self-contained migration).
extension FeedStore: ImageRecordStore {
    private static let imageColumns = """
        url, file_key, type, bytes, width, height, etag, last_modified, fetched_at, last_used_at,
        expires_at, failures, retry_at, last_error
        """

    /// The row of `url`, or nil.
    public func imageRecord(url: String) throws -> ImageRecord? {
        guard URLKey.isStorable(url) else { return nil }
        return try readImages("SELECT \(Self.imageColumns) FROM cached_images WHERE url = ?1", [.text(url)]).first
    }

    /// The rows of these URLs (those that have one), in one query.
    public func imageRecords(urls: [String]) throws -> [String: ImageRecord] {
        // json_each ends a string at U+0000: such a URL would find the row of what precedes it.
        let urls = urls.filter(URLKey.isStorable)
        guard !urls.isEmpty else { return [:] }
        let json = "[" + urls.map(JSONText.quoted).joined(separator: ",") + "]"
        let rows = try readImages(
            "SELECT \(Self.imageColumns) FROM cached_images WHERE url IN (SELECT value FROM json_each(?1))", [.text(json)])
        return Dictionary(rows.map { ($0.url, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Every row, least recently used first (eviction order).
    public func imageRecords() throws -> [ImageRecord] {
        try readImages("SELECT \(Self.imageColumns) FROM cached_images ORDER BY last_used_at, url", [])
    }

    /// Image URLs of cards that the cache has no row for (never asked for), newest card first,
    /// with the source of the first card naming each: what a site regenerated from cron fills
    /// in, `limit` at a time (the archive's older cards get their pictures over a few runs).
    /// Reads at most `limit` cards' images; four walks of the cards by date (the dated cards,
    /// the undated ones, each of the parts by state, `DatePart`: each in sort_date DESC,
    /// id DESC order), merged by SQLite without a sort, give the cards in order (migration 13
    /// dropped `cards_newest`, which did in one walk), and the primary key of `cached_images`
    /// answers each lookup.
    public func imagesNeverFetched(limit: Int) throws -> [(url: String, sourceID: SourceID)] {
        guard limit > 0 else { return [] }
        let rows = try db.prepare(Self.imagesNeverFetchedSQL)
            .query([.integer(Int64(limit))]) { row in (row.string(0) ?? "", SourceID(rawValue: row.int64(1))) }
        var seen = Set<String>()
        return rows.filter { !$0.0.isEmpty && seen.insert($0.0).inserted }.map { (url: $0.0, sourceID: $0.1) }
    }

    /// `imagesNeverFetched`'s SELECT (`?1`: the limit); internal so that a test can EXPLAIN it.
    static let imagesNeverFetchedSQL: String = {
        let walks = [0, 1].flatMap { undated in
            DatePart.parts(unreadOnly: false).map { part in
                """
                SELECT c.image, c.source_id, c.sort_date AS k0, c.id AS k1 FROM \(part.cards)
                WHERE c.undated = \(undated) AND \(part.condition) AND c.image IS NOT NULL AND c.image <> ''
                  AND NOT EXISTS (SELECT 1 FROM cached_images i WHERE i.url = c.image)
                """
            }
        }
        return walks.joined(separator: "\nUNION ALL\n") + "\nORDER BY k0 DESC, k1 DESC LIMIT ?1"
    }()

    /// Inserts or replaces the row of `record.url`.
    public func saveImage(_ record: ImageRecord) throws {
        guard URLKey.isStorable(record.url) else {
            throw StorageError.constraintViolated(path: path, reason: URLKey.refusal(record.url))
        }
        let statement = try db.prepare("""
            INSERT OR REPLACE INTO cached_images (\(Self.imageColumns))
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            """)
        try db.writeTransaction {
            try statement.execute([
                .text(record.url), .text(record.fileKey), SQLValue(record.type), .integer(Int64(record.bytes)),
                SQLValue(record.width), SQLValue(record.height), SQLValue(record.etag), SQLValue(record.lastModified),
                SQLValue(record.fetchedAt), SQLValue(record.lastUsedAt), SQLValue(record.expiresAt),
                .integer(Int64(record.failures)), SQLValue(record.retryAt), SQLValue(record.lastError),
            ])
        }
    }

    /// Marks these URLs used at `now` and moves their expiry to `expiresAt` (use renews).
    public func touchImages(_ urls: [String], now: Timestamp, expiresAt: Timestamp) throws {
        let urls = urls.filter(URLKey.isStorable)
        guard !urls.isEmpty else { return }
        let json = "[" + urls.map(JSONText.quoted).joined(separator: ",") + "]"
        let statement = try db.prepare("""
            UPDATE cached_images SET last_used_at = ?1, expires_at = max(expires_at, ?2)
            WHERE type IS NOT NULL AND url IN (SELECT value FROM json_each(?3))
            """)
        try db.writeTransaction { try statement.execute([SQLValue(now), SQLValue(expiresAt), .text(json)]) }
    }

    /// Deletes the rows of these URLs; returns how many there were.
    @discardableResult
    public func deleteImages(_ urls: [String]) throws -> Int {
        let urls = urls.filter(URLKey.isStorable)
        guard !urls.isEmpty else { return 0 }
        let json = "[" + urls.map(JSONText.quoted).joined(separator: ",") + "]"
        let statement = try db.prepare("DELETE FROM cached_images WHERE url IN (SELECT value FROM json_each(?1))")
        return try db.writeTransaction {
            try statement.execute([.text(json)])
            return db.changes
        }
    }

    /// Deletes every row; returns how many there were.
    @discardableResult
    public func clearImages() throws -> Int {
        let statement = try db.prepare("DELETE FROM cached_images")
        return try db.writeTransaction {
            try statement.execute([])
            return db.changes
        }
    }

    private func readImages(_ sql: String, _ values: [SQLValue]) throws -> [ImageRecord] {
        try db.prepare(sql).query(values) { row in
            ImageRecord(url: row.string(0) ?? "", fileKey: row.string(1) ?? "", type: row.string(2), bytes: row.int(3),
                        width: row.optionalInt(4), height: row.optionalInt(5), etag: row.string(6),
                        lastModified: row.string(7), fetchedAt: row.timestamp(8), lastUsedAt: row.timestamp(9),
                        expiresAt: row.timestamp(10), failures: row.int(11), retryAt: row.optionalTimestamp(12),
                        lastError: row.string(13))
        }
    }
}
