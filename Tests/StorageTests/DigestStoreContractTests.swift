import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// What `feeds html` reads (`DigestStore`) is the same on PostgreSQL as on SQLite: each UTC
/// day's and each source's stamp, and the cards of one day in the archive's order, for the
/// same cards saved into both; the PostgreSQL queries walk indexes (issue 22).
final class DigestStoreContractTests: TwoBackendsTestCase {
    private var stores: [any UpdateStore & DigestStore & CardReadingStore] { [sqlite, postgres] }

    /// Three sources (two tagged), cards on awkward moments: each day's first and last
    /// second, many cards sharing one second (ties broken by id), undated cards, and a day of
    /// 1,203 cards (more than one batch of PostgreSQL's walk of a day). Saved once each, in one
    /// order, so both number them alike.
    private func fill() throws -> [SourceID] {
        let configurations = (0..<3).map { SourceConfiguration(url: "https://s\($0).example/feed", name: "S\($0)", tags: $0 == 1 ? [] : ["Tagged"]) }
        let ids = try stores.map { try $0.upsertSources(configurations, now: t(0)) }
        XCTAssertEqual(ids[0], ids[1])
        var random = SplitMix64(seed: 22)
        var fetches: [(Int, [Card])] = []
        for source in 0..<3 {
            let cards = (0..<60).map { n -> Card in
                let moments = [t(n % 9), t(n % 9, 86_399), t(n % 9, 43_200), t(3, Int.random(in: 0...3, using: &random))]
                let date = n % 11 == 10 ? nil : moments[Int.random(in: 0..<moments.count, using: &random)]
                return Card(id: "c\(n)", title: "Card \(n)", link: "https://s.example/\(n)", published: date,
                            updated: n % 7 == 0 ? t(n % 5) : nil)
            }
            fetches.append((source, cards))
        }
        // The big day: 1,203 cards in 4 seconds of day 20, of source 2.
        fetches.append((2, (0..<1_203).map { Card(id: "big\($0)", title: "Big \($0)", published: t(20, $0 % 4)) }))
        for store in stores {
            for (source, cards) in fetches {
                try store.saveFetch(sourceID: ids[0][source], feed: FeedInfo(title: "Feed"), cards: cards,
                                    validators: CacheValidators(), now: t(30, source), nextDue: nil)
            }
        }
        return ids[0]
    }

    func testDayAndSourceStampsAreTheSameOnBothBackends() throws {
        let ids = try fill()
        for query in [CardQuery(), CardQuery(tag: "tagged"), CardQuery(sourceID: ids[1]), CardQuery(tag: "nosuch")] {
            let days = try stores.map { try $0.cardStampsByDay(query).map { "\($0.day)=\($0.stamp.text)" } }
            XCTAssertEqual(days[0], days[1], "\(query)")
            XCTAssertEqual(days[0].isEmpty, query.tag == "nosuch", "\(query)")
        }
        let sources = try stores.map { try $0.cardStampsBySource() }
        XCTAssertEqual(sources[0], sources[1])
        XCTAssertEqual(sources[0].count, 3)
        // The days are UTC days: day 20's stamp counts its 1,203 cards, the last second of a day is on that day.
        let days = try postgres.cardStampsByDay(CardQuery())
        XCTAssertEqual(days.first { $0.day == t(20) }?.stamp.count, 1_203)
        XCTAssertTrue(days.allSatisfy { $0.day.secondsSince1970 % 86_400 == 0 })
    }

    func testTheCardsOfADayComeInTheSameOrderOnBothBackends() throws {
        let ids = try fill()
        var checked = 0
        for query in [CardQuery(), CardQuery(tag: "tagged"), CardQuery(sourceID: ids[2])] {
            for day in try sqlite.cardStampsByDay(query).map(\.day) {
                var listed: [[String]] = [[], []]
                for (index, store) in stores.enumerated() {
                    try store.eachCardOfDay(day, query) { card in
                        listed[index].append("\(card.id.rawValue) \(card.sourceName) \(card.card.id ?? "-") \(card.sortDate)")
                    }
                }
                XCTAssertEqual(listed[0], listed[1], "\(day) \(query)")
                checked += listed[0].count
                // The day's cards of the whole listing, in its newest order.
                let expected = try sqlite.cards(query, order: .newest).filter {
                    $0.sortDate >= day && $0.sortDate.secondsSince1970 < day.secondsSince1970 + 86_400
                }.map { "\($0.id.rawValue) \($0.sourceName) \($0.card.id ?? "-") \($0.sortDate)" }
                XCTAssertEqual(listed[1], expected, "\(day) \(query)")
            }
        }
        XCTAssertGreaterThan(checked, 1_203 * 2)
        var none = 0
        try postgres.eachCardOfDay(t(400), CardQuery()) { _ in none += 1 }
        XCTAssertEqual(none, 0)
    }

    /// A stored sort date at either end of Int64 (only a hand edit could store one): the day
    /// stamps still read on PostgreSQL (SQLite's form of the day overflows there), on a day
    /// SQLite's arithmetic also gives for every date a card may carry.
    func testExtremeStoredDatesDoNotFailTheDayStamps() throws {
        _ = try fill()
        try postgres.connection.execute("UPDATE cards SET sort_date = $1 WHERE card_key = (SELECT min(card_key) FROM cards)",
                                        [.integer(Int64.min)], context: "test")
        try postgres.connection.execute("UPDATE cards SET sort_date = $1 WHERE card_key = (SELECT max(card_key) FROM cards)",
                                        [.integer(Int64.max)], context: "test")
        let days = try postgres.cardStampsByDay(CardQuery())
        XCTAssertEqual(days.first?.day.secondsSince1970, Int64.max / 86_400 * 86_400)
        XCTAssertEqual(days.last?.day.secondsSince1970, Int64.min, "the first day before -2^63 s, held at the end")
        for seconds: Int64 in [-86_401, -86_400, -1, 0, 1, 86_399, 86_400, 4_133_980_799] {
            let result = try postgres.connection.execute("SELECT \(PostgresStore.dayOfSortDate) FROM (SELECT $1::bigint AS sort_date) c",
                                                         [.integer(seconds)], context: "test")
            let floor = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
            XCTAssertEqual(try result.int64(0, 0), floor, "\(seconds)")
        }
    }

    func testStampsReadTheCoveringIndexAndADayWalksItsIndexOnPostgreSQL() throws {
        _ = try fill()
        try postgres.connection.execute("VACUUM ANALYZE cards", context: "test")
        // A small table's statistics favour reading the rows; what matters is that the index
        // alone can answer (a million cards' rows are gigabytes, the index a few dozen MB).
        try postgres.connection.execute("SET enable_seqscan = off", context: "test")
        try postgres.connection.execute("SET enable_bitmapscan = off", context: "test")
        func plan(_ sql: String, _ values: [SQLValue] = []) throws -> String {
            let result = try postgres.connection.execute("EXPLAIN " + sql, values, context: "test")
            return try result.rows { result.string($0, 0) ?? "" }.joined(separator: "\n")
        }
        for sql in [PostgresStore.stampsByDaySQL(""), PostgresStore.stampsBySourceSQL] {
            let text = try plan(sql)
            XCTAssertTrue(text.contains("Index Only Scan using cards_stamps"), text)
        }
        let tagged = PostgresStore.cardFilter(try postgres.resolvingTag(CardQuery(tag: "tagged")))
        let text = try plan(PostgresStore.stampsByDaySQL(tagged.whereClause), tagged.values)
        XCTAssertTrue(text.contains("Index Only Scan using cards_stamps"), text)

        var filter = PostgresStore.cardFilter(CardQuery())
        let undated = filter.bind(.text("false")), from = filter.bind(.integer(t(20).secondsSince1970))
        let to = filter.bind(.integer(t(21).secondsSince1970)), date = filter.bind(.integer(t(20, 3).secondsSince1970))
        let id = filter.bind(.integer(900))
        filter.add("c.undated = \(undated)::boolean AND c.sort_date >= \(from) AND c.sort_date < \(to)")
        filter.add("(c.sort_date, c.id) < (\(date), \(id))")
        let day = try plan(PostgresStore.dayBatchSQL(filter.whereClause, limit: filter.bind(.integer(500))), filter.values)
        XCTAssertTrue(day.contains("Index Scan using cards_by_date"), day)
        XCTAssertFalse(day.contains("Sort  ("), day)
    }
}
