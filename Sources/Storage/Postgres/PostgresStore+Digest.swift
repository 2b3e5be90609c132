import FeedModel

// What `feeds html` reads on PostgreSQL (`DigestStore`): the stamps of FeedStore+CardStamps.swift
// from the covering index `cards_stamps` (migration 6), and the cards of one day as
// `FeedStore.eachCardOfDay` lists them, each a walk of `cards_by_date`. `sources()`, `cards`
// and `cardCount` are the reader's (PostgresStore+Sources.swift, +Cards.swift).
extension PostgresStore: DigestStore {
    /// The UTC day number of a card's sort date: floor division, as SQLite's
    /// `FeedStore.dayOfSortDate`, written so that no stored value can overflow (SQLite's form
    /// overflows near -2^63, where PostgreSQL would fail the statement). Migration 6 keeps
    /// statistics of this very expression (`cards_days`): change both together.
    static let dayOfSortDate = "(c.sort_date / 86400 - (c.sort_date % 86400 < 0)::int)"

    /// SQLite's stamp columns: each sum of values masked to 32 bits, so it cannot overflow
    /// (PostgreSQL's sum of bigint is numeric; back to bigint, where it fits).
    static let stampColumns = """
        count(*), sum(c.id & 4294967295)::bigint, max(c.changed_at), sum(c.changed_at & 4294967295)::bigint,
        sum(c.sort_date & 4294967295)::bigint
        """

    static func stampsByDaySQL(_ whereClause: String) -> String {
        "SELECT \(dayOfSortDate) AS day, \(stampColumns) FROM cards c \(whereClause) GROUP BY day ORDER BY day DESC"
    }

    static let stampsBySourceSQL = "SELECT c.source_id, \(stampColumns) FROM cards c GROUP BY c.source_id"

    private static func stamp(_ result: PGResult, _ row: Int, from column: Int) throws -> CardStamp {
        CardStamp(count: try result.int(row, column), idSum: try result.int64(row, column + 1),
                  changedMax: try result.int64(row, column + 2), changedSum: try result.int64(row, column + 3),
                  sortDateSum: try result.int64(row, column + 4))
    }

    public func cardStampsByDay(_ query: CardQuery) throws -> [(day: Timestamp, stamp: CardStamp)] {
        let filter = Self.cardFilter(try resolvingTag(query))
        let result = try connection.execute(Self.stampsByDaySQL(filter.whereClause), filter.values,
                                            context: "reading the archive's day stamps")
        return try result.rows { row in
            (Timestamp(secondsSince1970: try result.int64(row, 0).saturatingMultiply(86_400)), try Self.stamp(result, row, from: 1))
        }
    }

    public func cardStampsBySource() throws -> [SourceID: CardStamp] {
        let result = try connection.execute(Self.stampsBySourceSQL, context: "reading the sources' stamps")
        var out: [SourceID: CardStamp] = [:]
        for row in 0..<result.rowCount { out[SourceID(rawValue: try result.int64(row, 0))] = try Self.stamp(result, row, from: 1) }
        return out
    }

    /// Cards of a day read at a time: the day's cards are never all in memory (a feed of a
    /// million items on one day), each batch a keyset read from where the last one ended.
    static let dayBatch = 500

    static func dayBatchSQL(_ whereClause: String, limit: String) -> String {
        """
        SELECT \(cardColumns) FROM cards c JOIN sources s ON s.id = c.source_id
        \(whereClause) ORDER BY c.undated, c.sort_date DESC, c.id DESC LIMIT \(limit)
        """
    }

    public func eachCardOfDay(_ day: Timestamp, _ query: CardQuery, _ body: (StoredCard) throws -> Void) throws {
        let query = try resolvingTag(query)
        let start = day.secondsSince1970
        let end = start.addingReportingOverflow(86_400).overflow ? Int64.max : start + 86_400
        // Dated cards, then undated ones: each a range of `cards_by_date` (undated, sort_date
        // DESC, id DESC), walked in batches below the last card read.
        for undated in [false, true] {
            var after: (sortDate: Int64, id: Int64)?
            while true {
                var filter = Self.cardFilter(query)
                let kind = filter.bind(.text(undated ? "true" : "false"))
                let from = filter.bind(.integer(start)), to = filter.bind(.integer(end))
                filter.add("c.undated = \(kind)::boolean AND c.sort_date >= \(from) AND c.sort_date < \(to)")
                if let after {
                    let date = filter.bind(.integer(after.sortDate)), id = filter.bind(.integer(after.id))
                    filter.add("(c.sort_date, c.id) < (\(date), \(id))")
                }
                let limit = filter.bind(.integer(Int64(Self.dayBatch)))
                let batch = try readCards(Self.dayBatchSQL(filter.whereClause, limit: limit), filter.values,
                                          context: "reading the cards of an archive day")
                for card in batch { try body(card) }
                guard batch.count == Self.dayBatch, let last = batch.last else { break }
                after = (last.sortDate.secondsSince1970, last.id.rawValue)
            }
        }
    }
}
