import FeedModel

/// A cheap fingerprint of a set of cards (a day's, a source's): it changes when a card is
/// added, removed (retention, a source deleted), moved to another day, or its content changed
/// (`changed_at` moves forward, a second at least, on every content change: CardWriter). Read
/// from indexes alone (`cards_stamps`, migration 12; `cards_by_date`, which carried the same
/// columns since migration 18; its two parts by read state since migration 19), never from
/// the card rows: a million cards' stamps in a few
/// hundred ms. Read state is not in it (no archive, source or tag page shows it).
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

extension CardStamp {
    /// One more card, as `stampColumns` sums it (a stamp started at its first card's `changed`).
    mutating func add(id: Int64, changed: Int64, sortDate: Int64) {
        count += 1
        idSum &+= id & 0xFFFF_FFFF
        changedMax = max(changedMax, changed)
        changedSum &+= changed & 0xFFFF_FFFF
        sortDateSum &+= sortDate & 0xFFFF_FFFF
    }
}

extension FeedStore {
    // Of the entries `entriesOfBothParts` reads. The sums wrap (`& 0xFFFFFFFF` per card keeps
    // each sum far from Int64's end: 2^32 per card times 2^31 cards), so a hostile stored date
    // cannot make SQLite's sum() overflow.
    private static let stampColumns = """
        count(*), sum(id & 4294967295), max(changed_at), sum(changed_at & 4294967295), sum(sort_date & 4294967295)
        """

    /// `columns` of the entries of the parts of the cards by date (`DatePart`; the unread
    /// parts alone when `whereClause` keeps unread cards only), one walk of each: the stamps are
    /// sums, taken in any order.
    static func entriesOfBothParts(_ columns: String, _ whereClause: String = "", unreadOnly: Bool = false) -> String {
        DatePart.parts(unreadOnly: unreadOnly).map { part in
            "SELECT \(columns) FROM \(part.indexed(part.keys)) "
                + (whereClause.isEmpty ? "WHERE " : whereClause + " AND ") + part.condition
        }.joined(separator: "\nUNION ALL\n")
    }

    private static let entryColumns = "c.id AS id, c.changed_at AS changed_at, c.sort_date AS sort_date"

    static func stampsByDaySQL(_ whereClause: String, unreadOnly: Bool = false) -> String {
        """
        SELECT day, \(stampColumns) FROM (\(entriesOfBothParts("\(dayOfSortDate) AS day, \(entryColumns)", whereClause, unreadOnly: unreadOnly)))
        GROUP BY day ORDER BY day DESC
        """
    }

    /// The sums of `stampColumns` by source, as SQLite groups them (`cardStampsBySource`'s check).
    static let stampsBySourceSQL = """
        SELECT source_id, \(stampColumns) FROM (\(entriesOfBothParts("c.source_id AS source_id, \(entryColumns)"))) GROUP BY source_id
        """
    /// The entries `cardStampsBySource` sums, read from the indexes alone.
    static let stampEntriesSQL = entriesOfBothParts("c.source_id, c.id, c.changed_at, c.sort_date")

    private static func stamp(_ row: Row, from column: Int32) -> CardStamp {
        CardStamp(count: row.int(column), idSum: row.int64(column + 1), changedMax: row.int64(column + 2),
                  changedSum: row.int64(column + 3), sortDateSum: row.int64(column + 4))
    }

    /// Each UTC day's stamp (its first second), newest day first, of the cards `query`'s
    /// filters let through: the days `cardCountsByDay` lists, with their counts.
    /// Summed here, by the day SQLite works out for each entry: grouped by day in SQL, SQLite
    /// sorted every entry first (a day is no column of the index), a fifth of a `feeds html`
    /// rerun at a million cards. A day that is no integer (a stored date near -2^63, where
    /// SQLite's subtraction turns to floating point) leaves it to SQLite's grouping, as before.
    public func cardStampsByDay(_ query: CardQuery = CardQuery()) throws -> [(day: Timestamp, stamp: CardStamp)] {
        let filter = Self.cardFilter(try resolvingTag(query))
        var days = StampSums()
        var integral = true
        try db.prepare(Self.dayEntriesSQL(filter.whereClause, unreadOnly: query.unreadOnly)).each(filter.values) { row in
            guard integral, row.isInteger(0) else {
                integral = false
                return
            }
            days.add(row.int64(0), id: row.int64(1), changed: row.int64(2), sortDate: row.int64(3))
        }
        return integral ? days.byDay : try groupedByDay(filter, unreadOnly: query.unreadOnly)
    }

    private func groupedByDay(_ filter: CardFilter, unreadOnly: Bool = false) throws -> [(day: Timestamp, stamp: CardStamp)] {
        try db.prepare(Self.stampsByDaySQL(filter.whereClause, unreadOnly: unreadOnly)).query(filter.values) { row in
            (Timestamp(secondsSince1970: row.int64(0).saturatingMultiply(86_400)), Self.stamp(row, from: 1))
        }
    }

    /// Both, from one walk of the index (each a walk of a million entries at a million cards).
    public func cardStampsByDayAndSource() throws -> (byDay: [(day: Timestamp, stamp: CardStamp)], bySource: [SourceID: CardStamp]) {
        var days = StampSums(), sources = StampSums()
        var integral = true
        try db.prepare(Self.bothEntriesSQL).each([]) { row in
            let id = row.int64(2), changed = row.int64(3), sortDate = row.int64(4)
            sources.add(row.int64(1), id: id, changed: changed, sortDate: sortDate)
            guard integral, row.isInteger(0) else {
                integral = false
                return
            }
            days.add(row.int64(0), id: id, changed: changed, sortDate: sortDate)
        }
        return (integral ? days.byDay : try groupedByDay(CardFilter()), sources.bySource)
    }

    static let bothEntriesSQL = entriesOfBothParts("\(dayOfSortDate), c.source_id, c.id, c.changed_at, c.sort_date")

    /// The entries `cardStampsByDay` sums, each with its day, read from the indexes alone.
    static func dayEntriesSQL(_ whereClause: String, unreadOnly: Bool = false) -> String {
        entriesOfBothParts("\(dayOfSortDate), c.id, c.changed_at, c.sort_date", whereClause, unreadOnly: unreadOnly)
    }

    /// Each source's stamp (of all its cards); a source without cards is missing.
    /// Summed here over the index in its own order: grouped by source, SQLite sorted every
    /// entry first (the index leads with the date), a sixth of a `feeds html` rerun at a million
    /// cards. The same sums as `stampsBySourceSQL`'s.
    public func cardStampsBySource() throws -> [SourceID: CardStamp] {
        var sources = StampSums()
        try db.prepare(Self.stampEntriesSQL).each([]) { row in
            sources.add(row.int64(0), id: row.int64(1), changed: row.int64(2), sortDate: row.int64(3))
        }
        return sources.bySource
    }
}

/// Stamps summed by key (a day, a source): the entries come in the index's order, so runs of
/// one key (a day) are summed apart and added to the table once a run ends. Keys below
/// `denseKeys` (source ids, day numbers until the year 2149) in an array: the index walk ends a
/// run of one source at nearly every entry, and a dictionary's lookup and store for each of a
/// million entries was a twentieth of a `feeds html` rerun.
private struct StampSums {
    private static let denseKeys: Int64 = 1 << 16
    private var dense: [CardStamp?] = []
    private var table: [Int64: CardStamp] = [:]
    private var key: Int64 = 0
    private var run: CardStamp?

    mutating func add(_ key: Int64, id: Int64, changed: Int64, sortDate: Int64) {
        if run != nil && key != self.key { flush() }
        if run == nil {
            self.key = key
            run = CardStamp(changedMax: changed)
        }
        run!.add(id: id, changed: changed, sortDate: sortDate)
    }

    private mutating func flush() {
        guard let run else { return }
        self.run = nil
        func merged(_ known: CardStamp?) -> CardStamp {
            guard let known else { return run }
            return CardStamp(count: known.count + run.count, idSum: known.idSum &+ run.idSum,
                             changedMax: max(known.changedMax, run.changedMax),
                             changedSum: known.changedSum &+ run.changedSum, sortDateSum: known.sortDateSum &+ run.sortDateSum)
        }
        guard key >= 0, key < Self.denseKeys else { return table[key] = merged(table[key]) }
        let i = Int(key)
        if i >= dense.count { dense.append(contentsOf: repeatElement(nil, count: max(i + 1, min(Int(Self.denseKeys), dense.count * 2)) - dense.count)) }
        dense[i] = merged(dense[i])
    }

    /// Every key's sum.
    private var all: [Int64: CardStamp] {
        var out = table
        for (i, stamp) in dense.enumerated() { if let stamp { out[Int64(i)] = stamp } }
        return out
    }

    /// Newest day first (the key a day number).
    var byDay: [(day: Timestamp, stamp: CardStamp)] {
        var sums = self
        sums.flush()
        return sums.all.sorted { $0.key > $1.key }.map { (Timestamp(secondsSince1970: $0.key.saturatingMultiply(86_400)), $0.value) }
    }

    var bySource: [SourceID: CardStamp] {
        var sums = self
        sums.flush()
        return Dictionary(uniqueKeysWithValues: sums.all.map { (SourceID(rawValue: $0.key), $0.value) })
    }
}
