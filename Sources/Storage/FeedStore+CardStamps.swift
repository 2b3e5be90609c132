import FeedModel

/// A cheap fingerprint of a set of cards (a day's, a source's): it changes when a card is
/// added, removed (retention, a source deleted), moved to another day, or its content changed
/// (`changed_at` moves forward, a second at least, on every content change: CardWriter). Read
/// from the `cards_stamps` index alone (migration 12), never from the card rows: a million
/// cards' stamps in a few hundred ms. Read state is not in it (no archive, source or tag page
/// shows it).
public struct CardStamp: Sendable, Hashable {
    public var count: Int
    public var idSum: Int64
    public var changedMax: Int64
    public var changedSum: Int64
    public var sortDateSum: Int64

    public init(count: Int = 0, idSum: Int64 = 0, changedMax: Int64 = 0, changedSum: Int64 = 0, sortDateSum: Int64 = 0) {
        self.count = count
        self.idSum = idSum
        self.changedMax = changedMax
        self.changedSum = changedSum
        self.sortDateSum = sortDateSum
    }

    /// The stamp as text (the site's page manifest stores it).
    public var text: String { "\(count).\(idSum).\(changedMax).\(changedSum).\(sortDateSum)" }
}

extension FeedStore {
    // The sums wrap (`& 0xFFFFFFFF` per card keeps each sum far from Int64's end: 2^32 per card
    // times 2^31 cards), so a hostile stored date cannot make SQLite's sum() overflow.
    private static let stampColumns = """
        count(*), sum(c.id & 4294967295), max(c.changed_at), sum(c.changed_at & 4294967295), sum(c.sort_date & 4294967295)
        """

    static func stampsByDaySQL(_ whereClause: String) -> String {
        """
        SELECT \(dayOfSortDate) AS day, \(stampColumns) FROM cards c INDEXED BY cards_stamps
        \(whereClause) GROUP BY day ORDER BY day DESC
        """
    }

    static let stampsBySourceSQL = "SELECT c.source_id, \(stampColumns) FROM cards c INDEXED BY cards_stamps GROUP BY c.source_id"

    private static func stamp(_ row: Row, from column: Int32) -> CardStamp {
        CardStamp(count: row.int(column), idSum: row.int64(column + 1), changedMax: row.int64(column + 2),
                  changedSum: row.int64(column + 3), sortDateSum: row.int64(column + 4))
    }

    /// Each UTC day's stamp (its first second), newest day first, of the cards `query`'s
    /// filters let through: the days `cardCountsByDay` lists, with their counts.
    public func cardStampsByDay(_ query: CardQuery = CardQuery()) throws -> [(day: Timestamp, stamp: CardStamp)] {
        let filter = Self.cardFilter(try resolvingTag(query))
        return try db.prepare(Self.stampsByDaySQL(filter.whereClause)).query(filter.values) { row in
            (Timestamp(secondsSince1970: row.int64(0).saturatingMultiply(86_400)), Self.stamp(row, from: 1))
        }
    }

    /// Each source's stamp (of all its cards); a source without cards is missing.
    public func cardStampsBySource() throws -> [SourceID: CardStamp] {
        var out: [SourceID: CardStamp] = [:]
        try db.prepare(Self.stampsBySourceSQL).each([]) { row in out[SourceID(rawValue: row.int64(0))] = Self.stamp(row, from: 1) }
        return out
    }
}
