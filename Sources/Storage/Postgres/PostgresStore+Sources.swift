import FeedModel

// Sources on PostgreSQL: the rules of FeedStore+Sources.swift.
extension PostgresStore: SourceStore {
    @discardableResult
    public func upsertSources(_ configurations: [SourceConfiguration], now: Timestamp) throws -> [SourceID] {
        guard !configurations.isEmpty else { return [] }
        return try connection.transaction("adding sources") {
            try configurations.map { configuration in
                let result = try connection.execute("""
                    INSERT INTO sources (url, name, kind, tags, keep_days, keep_count, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)
                    ON CONFLICT (url) DO UPDATE SET
                        name = excluded.name, kind = excluded.kind, tags = excluded.tags,
                        keep_days = excluded.keep_days, keep_count = excluded.keep_count
                    RETURNING id
                    """, [.text(configuration.url), SQLValue(configuration.name), .text(configuration.kind.rawValue),
                          .text(TagList.encode(configuration.tags)), SQLValue(configuration.keepDays),
                          SQLValue(configuration.keepCount), SQLValue(now)],
                    context: "adding the source \(configuration.url)")
                return SourceID(rawValue: try result.int64(0, 0))
            }
        }
    }

    @discardableResult
    public func removeSource(_ id: SourceID) throws -> Bool {
        try connection.execute("DELETE FROM sources WHERE id = $1", [SQLValue(id)], context: "removing source \(id)").changedRows > 0
    }

    public func sources() throws -> [StoredSource] {
        try PostgresSourceReader.read(connection, where: "true", [], context: "listing the sources")
    }

    public func sourceConfigurations() throws -> [SourceConfiguration] {
        try PostgresSourceReader.read(connection, where: "true", [], counts: false, context: "reading the sources")
            .map(\.configuration)
    }

    public func source(id: SourceID) throws -> StoredSource? {
        try PostgresSourceReader.read(connection, where: "s.id = $1", [SQLValue(id)], context: "reading source \(id)").first
    }

    public func source(url: String) throws -> StoredSource? {
        try PostgresSourceReader.read(connection, where: "s.url = $1", [.text(url)], context: "looking up a source by URL").first
    }

    /// `lower` under the "C" collation folds ASCII letters only, as SQLite's NOCASE does.
    public func sources(named name: String) throws -> [StoredSource] {
        try PostgresSourceReader.read(connection, where: "lower(coalesce(s.name, s.feed_title) COLLATE \"C\") = lower($1::text COLLATE \"C\")",
                                      [.text(name)], context: "looking up a source by name")
    }

    public func dueSources(at now: Timestamp) throws -> [StoredSource] {
        try PostgresSourceReader.read(connection, where: "s.disabled_reason IS NULL AND (s.next_due_at IS NULL OR s.next_due_at <= $1)",
                                      [SQLValue(now)], context: "listing the due sources")
    }

    public func fetchURLs() throws -> [String: String] {
        let result = try connection.execute("SELECT url, fetch_url FROM sources WHERE fetch_url IS NOT NULL",
                                            context: "reading the redirect targets")
        return Dictionary(try result.rows { (result.string($0, 0) ?? "", result.string($0, 1) ?? "") },
                          uniquingKeysWith: { a, _ in a })
    }
}
