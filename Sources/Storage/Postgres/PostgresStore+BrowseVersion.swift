// `feeds browse`'s look for other sessions' commits on PostgreSQL (migration 7): where SQLite
// has `PRAGMA data_version`, the count of committed transactions that changed a listing, less
// those of this session. One read of a one-row table, before every frame.
extension PostgresStore {
    /// Changes when another session committed a change to the cards (or to a source's name,
    /// feed title, URL or tags) since this one last read it, and only then: `card_changes`
    /// counts every such commit, `feeds.own_card_changes` this session's own (both bumped at
    /// the commit by migration 7's trigger, and undone with a transaction that rolls back).
    public func dataVersion() throws -> Int64 {
        try connection.execute("""
            SELECT version - coalesce(nullif(current_setting('feeds.own_card_changes', true), ''), '0')::bigint
            FROM card_changes
            """, context: "reading the version of the cards").int64(0, 0)
    }
}
