import FeedModel

// Sources: the configuration side (add, update, remove, look up).
extension FeedStore {
    /// Inserts the source, or updates the configured fields of the one with the same URL while
    /// keeping everything fetching learned (validators, feed info, failures, cards, read state).
    /// `now` becomes `created_at` of a new source.
    @discardableResult
    public func upsertSource(_ configuration: SourceConfiguration, now: Timestamp) throws -> SourceID {
        try upsertSources([configuration], now: now)[0]
    }

    /// `upsertSource` of each, in one transaction (a sources file of 200 lines synced into a new
    /// database took 200 commits); their ids in the same order.
    @discardableResult
    public func upsertSources(_ configurations: [SourceConfiguration], now: Timestamp) throws -> [SourceID] {
        guard !configurations.isEmpty else { return [] }
        let statement = try db.prepare("""
            INSERT INTO sources (url, name, kind, tags, keep_days, keep_count, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (url) DO UPDATE SET
                name = excluded.name, kind = excluded.kind, tags = excluded.tags,
                keep_days = excluded.keep_days, keep_count = excluded.keep_count
            RETURNING id
            """)
        return try db.writeTransaction {
            try configurations.map { configuration in
                let id = try statement.queryOne([
                    .text(configuration.url), SQLValue(configuration.name), .text(configuration.kind.rawValue),
                    .text(TagList.encode(configuration.tags)), SQLValue(configuration.keepDays),
                    SQLValue(configuration.keepCount), SQLValue(now),
                ]) { $0.int64(0) }
                guard let id else { preconditionFailure("Storage: upsert returned no id") }
                return SourceID(rawValue: id)
            }
        }
    }

    /// Deletes the source and, by cascade, its cards. Returns false when there was none.
    @discardableResult
    public func removeSource(_ id: SourceID) throws -> Bool {
        let statement = try db.prepare("DELETE FROM sources WHERE id = ?1")
        return try db.writeTransaction {
            try statement.execute([SQLValue(id)])
            return db.changes > 0
        }
    }

    /// The stamp of the sources file whose configuration the sources hold (see migration 14),
    /// or nil: none recorded since the last write of a configuration.
    public func sourcesFileStamp() throws -> String? {
        try cachedStatement("SELECT stamp FROM sources_file_stamp WHERE id = 1").queryOne { $0.string(0) } ?? nil
    }

    /// Records `stamp` as the sources file the sources' configuration was just synced from.
    public func recordSourcesFileStamp(_ stamp: String) throws {
        try cachedStatement("INSERT INTO sources_file_stamp (id, stamp) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET stamp = excluded.stamp")
            .execute([.text(stamp)])
    }

    /// Every source, in the order they were added, with counts.
    /// `counting: false` leaves `cardCount` and `unreadCount` at 0 (the counts are columns of
    /// the source's row since migration 11, so they cost nothing here; PostgreSQL counts).
    public func sources(counting: Bool = true) throws -> [StoredSource] {
        try SourceReader.read(db, where: "1", [], counts: counting ? .stored : .none, expected: sourceCount())
    }

    /// How many sources there are: the size of the arrays of every source, made at once (with
    /// 5,000 sources, growing them was a tenth of `feeds sources`, copies and page faults; the
    /// count reads only the URL index).
    func sourceCount() throws -> Int {
        try db.prepare("SELECT count(*) FROM sources").queryOne { $0.int(0) } ?? 0
    }

    /// Every source's configuration, in the order they were added: what opening a workspace
    /// compares with the sources file. Unlike `sources()` it counts no cards, so its cost does
    /// not grow with the database (it runs before every command).
    /// The recorded permanent-redirect targets, by source URL (only the sources that have one):
    /// what a run compares a new redirect with, without counting every source's cards.
    public func fetchURLs() throws -> [String: String] {
        Dictionary(try db.prepare("SELECT url, fetch_url FROM sources WHERE fetch_url IS NOT NULL").query {
            ($0.string(0) ?? "", $0.string(1) ?? "")
        }, uniquingKeysWith: { a, _ in a })
    }

    public func sourceConfigurations() throws -> [SourceConfiguration] {
        // Only the configured columns: this runs before every command, for every source.
        try db.prepare("SELECT \(Self.configurationColumns) FROM sources ORDER BY id").query(reservingCapacity: sourceCount(),
                                                                                               Self.configuration)
    }

    /// The stored configuration of the source whose URL is exactly `url`, if any.
    public func sourceConfiguration(url: String) throws -> SourceConfiguration? {
        try cachedStatement("SELECT \(Self.configurationColumns) FROM sources WHERE url = ?1").queryOne([.text(url)], Self.configuration)
    }

    private static let configurationColumns = "url, name, kind, tags, keep_days, keep_count"

    private static func configuration(_ row: Row) -> SourceConfiguration {
        SourceConfiguration(url: row.string(0) ?? "", name: row.string(1), kind: SourceKind(rawValue: row.string(2) ?? "") ?? .feed,
                            tags: TagList.decode(row.string(3) ?? ""), keepDays: row.optionalInt(4), keepCount: row.optionalInt(5))
    }

    /// Sources to fetch at `now`: not disabled and due (never scheduled counts as due).
    public func dueSources(at now: Timestamp, counting: Bool = true) throws -> [StoredSource] {
        try SourceReader.read(db, where: "s.disabled_reason IS NULL AND (s.next_due_at IS NULL OR s.next_due_at <= ?1)",
                              [SQLValue(now)], counts: counting ? .stored : .none)
    }

    public func source(id: SourceID) throws -> StoredSource? {
        try SourceReader.read(db, where: "s.id = ?1", [SQLValue(id)]).first
    }

    /// The source whose configured URL is exactly `url`.
    public func source(url: String) throws -> StoredSource? {
        try SourceReader.read(db, where: "s.url = ?1", [.text(url)]).first
    }

    /// Sources whose display name (user's name, else feed title) equals `name`, ignoring ASCII
    /// case. Names are not unique, so this may find several; the caller decides what that means.
    public func sources(named name: String) throws -> [StoredSource] {
        try SourceReader.read(db, where: "coalesce(s.name, s.feed_title) = ?1 COLLATE NOCASE", [.text(name)])
    }
}

/// Tags are stored as one space-separated string: simple to show, and `instr` finds one.
enum TagList {
    static func encode(_ tags: [String]) -> String {
        var seen = Set<String>()
        var words: [String] = []
        for tag in tags {
            for word in tag.split(whereSeparator: { $0.isWhitespace }) where seen.insert(String(word)).inserted {
                words.append(String(word))
            }
        }
        return words.joined(separator: " ")
    }

    static func decode(_ stored: String) -> [String] {
        // Most sources have no tag: no split (5,000 of them are decoded before every command).
        if stored.isEmpty { return [] }
        // ASCII tags (nearly all) split on the byte: there the Characters are the bytes (but
        // CR LF, which holds no space); splitting them as Characters was 5 % of `feeds sources`.
        if stored.utf8.allSatisfy({ $0 < 0x80 }) {
            return stored.utf8.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        }
        return stored.split(separator: " ").map(String.init)
    }

    /// A tag looked for (`TagMatch`), to test stored tags of ASCII on their bytes.
    struct Key {
        /// The folded tag's bytes; nil when it is not ASCII.
        private let ascii: [UInt8]?

        init(_ tag: String) {
            let folded = TagMatch.folded(tag)
            ascii = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
        }

        /// Whether `stored` (encoded tags) holds the tag, as `TagMatch.matches` of their
        /// `decode` tells; nil when the tag or `stored` is not ASCII (decode them then: a tag
        /// that is not ASCII may still equal an ASCII word, as a String, by canonical
        /// equivalence, U+037E to ";"). ASCII words split on the byte " " (`decode`), fold by
        /// their letters A-Z alone, and equal as Strings when their bytes do.
        func matches(ascii stored: UnsafeBufferPointer<UInt8>) -> Bool? {
            guard let key = ascii, stored.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard !key.isEmpty else { return false }
            var start = 0
            while start < stored.count {
                var end = start
                while end < stored.count && stored[end] != UInt8(ascii: " ") { end += 1 }
                if end - start == key.count {
                    var same = true
                    for i in 0..<key.count {
                        let byte = stored[start + i]
                        let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                        if folded != key[i] { same = false; break }
                    }
                    if same { return true }
                }
                start = end + 1
            }
            return false
        }
    }
}

/// Maps `sources` rows (and their card counts) to `StoredSource`.
enum SourceReader {
    /// Whether the card counts of each source are read.
    enum Counts {
        /// Read from the source's row (`card_count`, `unread_count`: kept by triggers, see
        /// migration 11), so a listing of 5,000 sources costs the same with a million cards as
        /// with none. (Counting them took ~50 ms for 1,000,000 cards, even over indexes only.)
        case stored
        /// Not read: `cardCount` and `unreadCount` are 0 (for callers that read only the
        /// configuration).
        case none
    }

    /// `expected`: the rows there will be, when known (see `Statement.query`).
    static func read(_ db: Database, where condition: String, _ values: [SQLValue], counts: Counts = .stored,
                     expected: Int = 0) throws -> [StoredSource] {
        let statement = try db.prepare(sql(where: condition, counts: counts))
        return try statement.query(values, reservingCapacity: expected) { row in
            StoredSource(
                id: SourceID(rawValue: row.int64(0)),
                configuration: SourceConfiguration(
                    url: row.string(1) ?? "", name: row.string(3),
                    kind: SourceKind(rawValue: row.string(4) ?? "") ?? .feed,
                    tags: TagList.decode(row.string(5) ?? ""),
                    keepDays: row.optionalInt(20), keepCount: row.optionalInt(21)),
                fetchURL: row.string(2),
                feed: FeedInfo(title: row.string(8), link: row.string(9), description: row.string(10),
                               image: row.string(11), refreshHintSeconds: row.optionalInt(12)),
                validators: CacheValidators(etag: row.string(6), lastModified: row.string(7)),
                lastAttemptAt: row.optionalTimestamp(13),
                lastSuccessAt: row.optionalTimestamp(14),
                itemsSeenAt: row.optionalTimestamp(15),
                lastError: row.string(16),
                consecutiveFailures: row.int(17),
                nextDueAt: row.optionalTimestamp(18),
                disabledReason: row.string(19),
                isolatedReason: row.string(25),
                readingSince: row.optionalTimestamp(26),
                createdAt: row.timestamp(22),
                cardCount: row.int(23),
                unreadCount: row.int(24),
                skippedLastFetch: row.int(27),
                skippedTotal: row.int(28),
                degraded: row.string(29))
        }
    }

    /// The SELECT of `read` (internal: tests EXPLAIN it).
    static func sql(where condition: String, counts: Counts) -> String {
        select(countColumns: counts == .stored ? "s.card_count, s.unread_count" : "0, 0", where: condition)
    }

    /// The columns `StoredSource` is read from, in the order both backends' readers map them
    /// (PostgresSourceReader too): only the two count columns differ between the stores.
    static func select(countColumns: String, where condition: String) -> String {
        """
        SELECT s.id, s.url, s.fetch_url, s.name, s.kind, s.tags, s.etag, s.last_modified,
               s.feed_title, s.feed_link, s.feed_description, s.feed_image, s.refresh_hint_seconds,
               s.last_attempt_at, s.last_success_at, s.items_seen_at, s.last_error,
               s.consecutive_failures, s.next_due_at, s.disabled_reason, s.keep_days,
               s.keep_count, s.created_at,
               \(countColumns),
               s.isolated_reason, s.reading_since, s.skipped_last, s.skipped_total, s.degraded
        FROM sources s
        WHERE \(condition)
        ORDER BY s.id
        """
    }
}
