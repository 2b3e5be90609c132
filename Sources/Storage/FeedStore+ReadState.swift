import FeedModel

// Read and unread.
extension FeedStore {
    /// Sets the read flag of the selected cards; returns how many cards changed state (cards
    /// already in that state do not count).
    @discardableResult
    public func setRead(_ read: Bool, _ selection: CardSelection) throws -> Int {
        let target = SQLValue(read)
        let statement: Statement
        var values: [SQLValue] = [target]
        switch selection {
        case .cards(let ids):
            // A JSON array in one parameter: any number of ids without SQLite's variable limit.
            statement = try db.prepare(
                "UPDATE cards SET is_read = ?1 WHERE is_read <> ?1 AND id IN (SELECT value FROM json_each(?2))")
            values.append(.text("[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"))
        case .source(let id):
            statement = try db.prepare("UPDATE cards SET is_read = ?1 WHERE is_read <> ?1 AND source_id = ?2")
            values.append(SQLValue(id))
        case .all:
            statement = try db.prepare("UPDATE cards SET is_read = ?1 WHERE is_read <> ?1")
        case .before(let date):
            statement = try db.prepare(Self.markBeforeSQL)
            values.append(SQLValue(date))
        case .dated(let since, let before):
            // NULL bounds are open: one statement for --since, --before and both.
            statement = try db.prepare(
                "UPDATE cards SET is_read = ?1 WHERE is_read <> ?1 AND (?2 IS NULL OR sort_date >= ?2) AND (?3 IS NULL OR sort_date < ?3)")
            values.append(SQLValue(since))
            values.append(SQLValue(before))
        }
        return try db.writeTransaction {
            try statement.execute(values)
            return db.changes
        }
    }

    /// Shorthand for `setRead(true, selection)`.
    @discardableResult
    public func markRead(_ selection: CardSelection) throws -> Int { try setRead(true, selection) }

    /// The cards dated before `?2` set to `?1`: two ranges of `cards_by_date` (see
    /// `eitherDating`); internal so that a test can EXPLAIN it.
    static let markBeforeSQL =
        "UPDATE cards AS c SET is_read = ?1 WHERE c.is_read <> ?1 AND \(eitherDating) AND c.sort_date < ?2"

    /// Shorthand for `setRead(false, selection)`.
    @discardableResult
    public func markUnread(_ selection: CardSelection) throws -> Int { try setRead(false, selection) }
}
