import FeedModel

// The image cache's metadata on PostgreSQL (migration 5): FeedStore+ImageCache.swift's rows
// and rules in PostgreSQL's dialect. Rows are found by `url_digest`, the SHA-256 of the URL
// (see the migration), each call one statement. The image files stay on the machine that
// writes the HTML site; only their records are shared.
extension PostgresStore: ImageRecordStore {
    private static let imageColumns = """
        url, file_key, type, bytes, width, height, etag, last_modified, fetched_at, last_used_at,
        expires_at, failures, retry_at, last_error
        """

    public func imageRecord(url: String) throws -> ImageRecord? {
        guard URLKey.isStorable(url) else { return nil }
        return try readImages("SELECT \(Self.imageColumns) FROM cached_images WHERE url_digest = feeds_text_digest($1)",
                              [.text(url)], context: "looking up a cached image").first
    }

    public func imageRecords(urls: [String]) throws -> [String: ImageRecord] {
        let urls = Self.storable(urls)
        guard !urls.isEmpty else { return [:] }
        let rows = try readImages("""
            SELECT \(Self.imageColumns) FROM cached_images
            WHERE url_digest = ANY (SELECT feeds_text_digest(u) FROM unnest($1::text[]) AS u)
            """, [PGArray.texts(urls)], context: "looking up cached images")
        return Dictionary(rows.map { ($0.url, $0) }, uniquingKeysWith: { a, _ in a })
    }

    public func imageRecords() throws -> [ImageRecord] {
        // COLLATE "C": ties in byte order, as SQLite's, whatever the database's locale.
        try readImages("SELECT \(Self.imageColumns) FROM cached_images ORDER BY last_used_at, url COLLATE \"C\"", [],
                       context: "listing the cached images")
    }

    public func imagesNeverFetched(limit: Int) throws -> [(url: String, sourceID: SourceID)] {
        guard limit > 0 else { return [] }
        // SQLite's order (sort_date DESC, id DESC over all cards) as two walks of cards_by_date,
        // one per value of `undated`, each stopping after `limit` matches, merged: never a sort
        // of every card.
        func walk(undated: Bool) -> String {
            """
            SELECT c.image, c.source_id, c.sort_date, c.id FROM cards c
            WHERE c.undated = \(undated) AND c.image IS NOT NULL AND c.image <> ''
              AND NOT EXISTS (SELECT 1 FROM cached_images i WHERE i.url_digest = feeds_text_digest(c.image))
            ORDER BY c.undated, c.sort_date DESC, c.id DESC LIMIT $1
            """
        }
        let result = try connection.execute("""
            SELECT image, source_id FROM ((\(walk(undated: false))) UNION ALL (\(walk(undated: true)))) AS w
            ORDER BY sort_date DESC, id DESC LIMIT $1
            """, [.integer(Int64(limit))], context: "listing the card images never fetched")
        var seen = Set<String>()
        var out: [(url: String, sourceID: SourceID)] = []
        for row in 0..<result.rowCount {
            let url = result.string(row, 0) ?? ""
            guard !url.isEmpty, seen.insert(url).inserted else { continue }
            out.append((url: url, sourceID: SourceID(rawValue: try result.int64(row, 1))))
        }
        return out
    }

    public func saveImage(_ record: ImageRecord) throws {
        guard URLKey.isStorable(record.url) else {
            throw PostgresError.constraintViolated(server: server, message: URLKey.refusal(record.url),
                                                   context: "saving a cached image")
        }
        try connection.execute("""
            INSERT INTO cached_images (\(Self.imageColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT (url_digest) DO UPDATE SET
                url = excluded.url, file_key = excluded.file_key, type = excluded.type, bytes = excluded.bytes,
                width = excluded.width, height = excluded.height, etag = excluded.etag,
                last_modified = excluded.last_modified, fetched_at = excluded.fetched_at,
                last_used_at = excluded.last_used_at, expires_at = excluded.expires_at, failures = excluded.failures,
                retry_at = excluded.retry_at, last_error = excluded.last_error
            """, [.text(record.url), .text(record.fileKey), SQLValue(record.type), .integer(Int64(record.bytes)),
                  SQLValue(record.width), SQLValue(record.height), SQLValue(record.etag), SQLValue(record.lastModified),
                  SQLValue(record.fetchedAt), SQLValue(record.lastUsedAt), SQLValue(record.expiresAt),
                  .integer(Int64(record.failures)), SQLValue(record.retryAt), SQLValue(record.lastError)],
            context: "saving a cached image")
    }

    public func touchImages(_ urls: [String], now: Timestamp, expiresAt: Timestamp) throws {
        let urls = Self.storable(urls)
        guard !urls.isEmpty else { return }
        try connection.execute("""
            UPDATE cached_images SET last_used_at = $1, expires_at = greatest(expires_at, $2)
            WHERE type IS NOT NULL AND url_digest = ANY (SELECT feeds_text_digest(u) FROM unnest($3::text[]) AS u)
            """, [SQLValue(now), SQLValue(expiresAt), PGArray.texts(urls)], context: "marking cached images used")
    }

    @discardableResult
    public func deleteImages(_ urls: [String]) throws -> Int {
        let urls = Self.storable(urls)
        guard !urls.isEmpty else { return 0 }
        return try connection.execute("""
            DELETE FROM cached_images WHERE url_digest = ANY (SELECT feeds_text_digest(u) FROM unnest($1::text[]) AS u)
            """, [PGArray.texts(urls)], context: "deleting cached images").changedRows
    }

    @discardableResult
    public func clearImages() throws -> Int {
        try connection.execute("DELETE FROM cached_images", context: "clearing the cached images").changedRows
    }

    /// Inserts `records` as they are (`StoreCopy`), a thousand rows a statement, all in one
    /// transaction; a URL already there is a constraint error (the copy goes into an empty database).
    func importImages(_ records: [ImageRecord]) throws {
        guard !records.isEmpty else { return }
        try connection.transaction("copying the image cache's records") {
            var start = 0
            while start < records.count {
                let chunk = records[start..<min(records.count, start + 1_000)]
                start += chunk.count
                func integers(_ value: (ImageRecord) -> Int64?) -> SQLValue { PGArray.integers(chunk.map(value)) }
                func texts(_ value: (ImageRecord) -> String?) -> SQLValue { PGArray.texts(chunk.map(value)) }
                for record in chunk where !URLKey.isStorable(record.url) {
                    throw PostgresError.constraintViolated(server: server, message: URLKey.refusal(record.url),
                                                           context: "copying the image cache's records")
                }
                try connection.execute("""
                    INSERT INTO cached_images (\(Self.imageColumns))
                    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
                                         $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[],
                                         $13::bigint[], $14::text[])
                    """, [texts(\.url), texts(\.fileKey), texts(\.type), integers { Int64($0.bytes) },
                          integers { $0.width.map(Int64.init) }, integers { $0.height.map(Int64.init) },
                          texts(\.etag), texts(\.lastModified), integers(\.fetchedAt.secondsSince1970),
                          integers(\.lastUsedAt.secondsSince1970), integers(\.expiresAt.secondsSince1970),
                          integers { Int64($0.failures) }, integers { $0.retryAt?.secondsSince1970 }, texts(\.lastError)],
                    context: "copying the image cache's records")
            }
        }
    }

    /// How many rows there are.
    func imageRecordCount() throws -> Int {
        try connection.execute("SELECT count(*) FROM cached_images", context: "counting the image cache's records").int(0, 0)
    }

    /// The URLs a row can have: the others (with U+0000, which would be bound as U+FFFD and so
    /// name another URL's row) have none, as on SQLite where no such row is saved.
    static func storable(_ urls: [String]) -> [String] {
        urls.filter(URLKey.isStorable)
    }

    private func readImages(_ sql: String, _ values: [SQLValue], context: String) throws -> [ImageRecord] {
        let result = try connection.execute(sql, values, context: context)
        return try result.rows { row in
            ImageRecord(url: result.string(row, 0) ?? "", fileKey: result.string(row, 1) ?? "", type: result.string(row, 2),
                        bytes: try result.int(row, 3), width: try result.optionalInt(row, 4), height: try result.optionalInt(row, 5),
                        etag: result.string(row, 6), lastModified: result.string(row, 7),
                        fetchedAt: try result.timestamp(row, 8), lastUsedAt: try result.timestamp(row, 9),
                        expiresAt: try result.timestamp(row, 10), failures: try result.int(row, 11),
                        retryAt: try result.optionalTimestamp(row, 12), lastError: result.string(row, 13))
        }
    }
}
