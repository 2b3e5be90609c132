import FeedModel

// Read and unread.
extension FeedStore {
    /// Sets the read flag of the selected cards; returns how many cards changed state (cards
    /// already in that state do not count).
    @discardableResult
    public func setRead(_ read: Bool, _ selection: CardSelection) throws -> Int {
        let marking = Self.marking(read, selection)
        let statement = try db.prepare(marking.sql)
        return try db.writeTransaction {
            try statement.execute(marking.values)
            return db.changes
        }
    }

    /// The UPDATE of `setRead`; internal so that a test can EXPLAIN it. Each names the cards in
    /// the other state by a condition a partial index can answer where `is_read <> ?1` cannot:
    /// `--all` walks the index of the cards to change (marking read, `cards_unread_by_source`:
    /// on a million cards 151,000 of them; marking unread, `cards_read_by_date`) instead of
    /// reading every card's row (7.5 s).
    static func marking(_ read: Bool, _ selection: CardSelection) -> (sql: String, values: [SQLValue]) {
        let update = markingUpdate(read)
        switch selection {
        case .cards(let ids):
            // A JSON array in one parameter: any number of ids without SQLite's variable limit.
            let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
            return (update + " AND c.id IN (SELECT value FROM json_each(?2))", [SQLValue(read), .text(list)])
        case .source(let id):
            return (update + " AND c.source_id = ?2", [SQLValue(read), SQLValue(id)])
        case .all:
            return (update, [SQLValue(read)])
        case .before(let date):
            return markDated(read, since: nil, before: date)
        case .dated(let since, let before):
            return markDated(read, since: since, before: before)
        }
    }

    /// Shorthand for `setRead(true, selection)`.
    @discardableResult
    public func markRead(_ selection: CardSelection) throws -> Int { try setRead(true, selection) }

    /// The statement setting the cards dated at or after `since` and before `before` to
    /// `read`, a bound left out when it is open (`feeds mark --since/--before`): two ranges of
    /// the part of the cards by date in the other state (`DatePart`, see `eitherDating`), its
    /// condition written out so that SQLite sees the index answers it (`is_read <> ?1` it
    /// does not). Bounds written `(?2 IS NULL OR sort_date >= ?2)` read every card: on a
    /// million, `mark unread --since 1d` (3,307 cards) took 1.1 s, then 0.3 s. `.before` is the
    /// same statement; internal so that a test can EXPLAIN it.
    static func markDated(_ read: Bool, since: Timestamp?, before: Timestamp?) -> (sql: String, values: [SQLValue]) {
        var conditions: [String] = [], values = [SQLValue(read)]
        if since != nil || before != nil { conditions.append(eitherDating) }
        if let since {
            values.append(SQLValue(since))
            conditions.append("c.sort_date >= ?\(values.count)")
        }
        if let before {
            values.append(SQLValue(before))
            conditions.append("c.sort_date < ?\(values.count)")
        }
        guard read else { return (([markingUpdate(read)] + conditions).joined(separator: " AND "), values) }
        // The unread cards are two parts (`DatePart`): a range of each, their ids in one list.
        let ranges = DatePart.parts(unreadOnly: true).map { part in
            "SELECT c.id FROM \(part.keys) WHERE " + ([part.condition] + conditions).joined(separator: " AND ")
        }
        return ("UPDATE cards SET is_read = ?1 WHERE id IN (\(ranges.joined(separator: " UNION ALL ")))", values)
    }

    /// The UPDATE setting `is_read` to `read` (`?1`) of the cards in the other state: the
    /// condition of their part of the cards by date, which its partial index answers; the
    /// unread cards' (two parts, `DatePart`) by `c.is_read = 0` alone, which
    /// `cards_unread_by_source` answers.
    private static func markingUpdate(_ read: Bool) -> String {
        "UPDATE cards AS c SET is_read = ?1 WHERE \(read ? "c.is_read = 0" : DatePart.read.condition)"
    }

    /// Shorthand for `setRead(false, selection)`.
    @discardableResult
    public func markUnread(_ selection: CardSelection) throws -> Int { try setRead(false, selection) }
}
