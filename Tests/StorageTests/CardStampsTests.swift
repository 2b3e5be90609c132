import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The stamps `feeds html` tells changed pages by (`CardStamp`): each day's and each source's
/// change when a card is added, edited or removed, not when one is read; read from the
/// indexes of the cards by date alone (migration 18: before, `cards_stamps`; migration 19: two,
/// by read state). And the cards of one
/// day, in the archive's order.
final class CardStampsTests: StoreTestCase {
    private var news: SourceID!
    private var other: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        news = try addSource("https://news.example/feed", name: "News", tags: ["news"])
        other = try addSource("https://other.example/feed", name: "Other")
        try save([article("n1", published: t(0)), article("n2", published: t(0, 10)), article("n3", published: t(5))], to: news, at: t(10))
        try save([article("o1", published: t(0, 5))], to: other, at: t(10))
    }

    private func plan(_ sql: String) throws -> String {
        try store.db.prepare("EXPLAIN QUERY PLAN " + sql).query([]) { $0.string(3) ?? "" }.joined(separator: "\n")
    }

    private func stamps() throws -> ([String], [SourceID: CardStamp]) {
        (try store.cardStampsByDay().map { "\($0.day.secondsSince1970)=\($0.stamp.text)" }, try store.cardStampsBySource())
    }

    func testStampsReadTheIndexOnly() throws {
        for sql in [FeedStore.stampsByDaySQL(""), FeedStore.stampsBySourceSQL, FeedStore.stampEntriesSQL, FeedStore.dayEntriesSQL(""), FeedStore.bothEntriesSQL] {
            let text = try plan(sql)
            XCTAssertTrue(text.contains("COVERING INDEX cards_read_by_date"), text)
            // The unread cards' tables (migration 20) alone: no card row read.
            XCTAssertEqual(walksOfTheUnreadTables(text), 2, text)
            XCTAssertFalse(text.contains("SEARCH c USING INTEGER PRIMARY KEY"), text)
        }
    }

    func testDayStampsCountTheDaysCards() throws {
        let days = try store.cardStampsByDay()
        XCTAssertEqual(days.map(\.stamp.count), [1, 3])
        XCTAssertEqual(days.map(\.day), try store.cardCountsByDay().map(\.day))
        XCTAssertEqual(try store.cardStampsByDay(CardQuery(tag: "news")).map(\.stamp.count), [1, 2])
        XCTAssertEqual(try store.cardStampsBySource()[news]?.count, 3)
    }

    func testAddingEditingAndRemovingACardChangeItsStampsAndReadingDoesNot() throws {
        var last = try stamps()
        func changed(_ what: String, day: Bool, source: Bool) throws {
            let now = try stamps()
            XCTAssertEqual(now.0 != last.0, day, what)
            XCTAssertEqual(now.1[news] != last.1[news], source, what)
            XCTAssertEqual(now.1[other], last.1[other], what)
            last = now
        }
        let n1 = try XCTUnwrap(try store.cards(CardQuery(sourceID: news)).first { $0.card.id == "n1" })
        XCTAssertEqual(try store.markRead(.cards([n1.id])), 1)
        try changed("read", day: false, source: false)
        try save([article("n1", title: "Edited", published: t(0)), article("n2", published: t(0, 10)), article("n3", published: t(5))],
                 to: news, at: t(11))
        try changed("edited", day: true, source: true)
        try save([article("n4", published: t(0, 20))], to: news, at: t(12))
        try changed("added", day: true, source: true)
        XCTAssertEqual(try store.prune(now: t(1000), defaultKeepDays: 1), 1)
        try changed("removed", day: true, source: true)
    }

    /// Two edits of one card within one second: each moves the stamps (changed_at goes forward
    /// a second at least on every change), so the second edit's pages are written too.
    func testEveryEditInOneSecondChangesTheStamps() throws {
        var seen = Set([try stamps().0])
        for title in ["First edit", "Second edit", "Third edit"] {
            try save([article("n1", title: title, published: t(0))], to: news, at: t(20))
            let now = try stamps()
            XCTAssertTrue(seen.insert(now.0).inserted, "\(title): the day stamps did not change")
        }
        let changed = try store.db.prepare("SELECT changed_at, last_seen_at FROM cards WHERE guid = 'n1'").query([]) { ($0.int64(0), $0.int64(1)) }
        XCTAssertEqual(changed.first?.0, t(20).secondsSince1970 + 2, "changed_at moved a second per edit")
        XCTAssertEqual(changed.first?.1, t(20).secondsSince1970)
    }

    /// The sources' stamps are summed in Swift over the index's entries: the same as SQLite's
    /// grouping (`stampsBySourceSQL`), stored dates at the ends of Int64 and around 2^32 included.
    func testSourceStampsAreSQLitesGroupedSums() throws {
        for (i, guid) in ["n4", "n5", "n6", "n7", "n8"].enumerated() {
            try save([article(guid, published: t(0, i))], to: i % 2 == 0 ? news : other, at: t(10, i))
        }
        let extremes: [Int64] = [Int64.min, Int64.max, -1, 0, 1 << 32, (1 << 32) - 1, -(1 << 32) - 1]
        let ids = try store.db.prepare("SELECT id FROM cards ORDER BY id").query([]) { $0.int64(0) }
        for (i, id) in ids.enumerated() {
            try store.db.prepare("UPDATE cards SET changed_at = ?1, sort_date = ?2 WHERE id = ?3")
                .execute([.integer(extremes[i % extremes.count]), .integer(extremes[(i + 3) % extremes.count]), .integer(id)])
        }
        var grouped: [SourceID: CardStamp] = [:]
        try store.db.prepare(FeedStore.stampsBySourceSQL).each([]) { row in
            grouped[SourceID(rawValue: row.int64(0))] = CardStamp(count: row.int(1), idSum: row.int64(2), changedMax: row.int64(3),
                                                                  changedSum: row.int64(4), sortDateSum: row.int64(5))
        }
        XCTAssertEqual(grouped.count, 2)
        XCTAssertEqual(try store.cardStampsBySource(), grouped)
    }

    /// The days' stamps are summed in Swift by the day SQLite works out: the same days and sums
    /// as SQLite's grouping (`stampsByDaySQL`), with and without a tag, stored dates around
    /// the day edges, 2^32 and the ends of Int64 included (near -2^63 SQLite's day is no integer:
    /// its own grouping then). Undated cards among them: the index walked lists the dated cards,
    /// then the undated ones, so a day's entries come in two runs, summed into one stamp.
    func testDayStampsAreSQLitesGroupedSums() throws {
        for (i, guid) in ["n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11"].enumerated() {
            try save([article(guid, published: i % 3 == 2 ? nil : t(0, i))], to: i % 2 == 0 ? news : other, at: t(10, i))
        }
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM cards WHERE undated = 1").queryOne { $0.int(0) }, 2)
        let ids = try store.db.prepare("SELECT id FROM cards ORDER BY id").query([]) { $0.int64(0) }
        func grouped(_ query: CardQuery) throws -> [String] {
            let filter = FeedStore.cardFilter(try store.resolvingTag(query))
            return try store.db.prepare(FeedStore.stampsByDaySQL(filter.whereClause)).query(filter.values) { row in
                "\(row.int64(0).saturatingMultiply(86_400))=" + CardStamp(count: row.int(1), idSum: row.int64(2), changedMax: row.int64(3),
                                                                        changedSum: row.int64(4), sortDateSum: row.int64(5)).text
            }
        }
        let dates: [[Int64]] = [
            [-86_401, -86_400, -1, 0, 1, 86_399, 86_400, 1 << 32, (1 << 32) - 1, -(1 << 32) - 1, 4_133_980_799, 5],
            [Int64.max, Int64.max - 1, 0, 86_400 * 3, -86_400 * 3 - 1, 17, 18, 19, 20, 21, 22, 23],
            [Int64.min, Int64.min + 1, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8],
        ]
        for (n, set) in dates.enumerated() {
            for (i, id) in ids.enumerated() {
                try store.db.prepare("UPDATE cards SET sort_date = ?1, changed_at = ?2 WHERE id = ?3")
                    .execute([.integer(set[i % set.count]), .integer(set[(i + 5) % set.count]), .integer(id)])
            }
            for query in [CardQuery(), CardQuery(tag: "news")] {
                let swift = try store.cardStampsByDay(query).map { "\($0.day.secondsSince1970)=\($0.stamp.text)" }
                XCTAssertEqual(swift, try grouped(query), "dates \(n), tag \(query.tag ?? "-")")
                XCTAssertGreaterThan(swift.count, 2)
            }
            // One walk for both: the same as each alone.
            let both = try store.cardStampsByDayAndSource()
            XCTAssertEqual(both.byDay.map { "\($0.day.secondsSince1970)=\($0.stamp.text)" }, try grouped(CardQuery()), "dates \(n), both")
            XCTAssertEqual(both.bySource, try store.cardStampsBySource(), "dates \(n), both")
        }
    }

    /// Migrations 18 to 20 on a database of version 17 (its indexes and columns put back as
    /// they were): the stamps, now read from the indexes of the cards by date, and a range of
    /// dates are what they were.
    func testMigrations18To20KeepTheStampsAndTheRangesOfDates() throws {
        try save([Card(id: "u1", title: "Undated", link: "https://news.example/u1")], to: news, at: t(5, 30))
        let before = try stamps()
        let since = try store.cards(CardQuery(since: t(0, 5))).map(\.id)
        XCTAssertEqual(since.count, 4)
        try store.db.execute("""
            DROP INDEX cards_read_by_date;
            DROP TRIGGER unread_by_date_insert;
            DROP TRIGGER unread_by_date_update;
            DROP TRIGGER unread_by_date_delete;
            DROP VIEW unread_cards;
            DROP VIEW unread_cards_new;
            DROP TABLE unread_by_date;
            DROP TABLE unread_by_date_new;
            CREATE INDEX cards_by_date ON cards (undated, sort_date DESC, id DESC);
            CREATE INDEX cards_unread_by_date ON cards (undated, sort_date DESC, id DESC) WHERE is_read = 0;
            CREATE INDEX cards_stamps ON cards (sort_date, changed_at, source_id);
            PRAGMA user_version = 17;
            """)
        store = nil
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.databaseSchemaVersion(), 20)
        let columns = try store.db.prepare("SELECT name FROM pragma_index_info('cards_read_by_date') ORDER BY seqno").query([]) { $0.string(0) ?? "" }
        XCTAssertEqual(columns, ["undated", "sort_date", "id", "changed_at", "source_id", "is_read"])
        // Every unread card in the folded table, as the card has it; none waiting.
        XCTAssertEqual(try store.db.prepare("SELECT undated, sort_date, id, changed_at, source_id FROM unread_by_date ORDER BY id")
                        .query([]) { row in (0..<5).map { row.int64($0) } },
                       try store.db.prepare("SELECT undated, sort_date, id, changed_at, source_id FROM cards WHERE is_read = 0 ORDER BY id")
                        .query([]) { row in (0..<5).map { row.int64($0) } })
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM unread_by_date_new").queryOne { $0.int(0) }, 0)
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'cards_unread_by_date'").queryOne { $0.int(0) }, 0)
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name IN ('cards_stamps', 'cards_by_date')").queryOne { $0.int(0) }, 0)
        let after = try stamps()
        XCTAssertEqual(after.0, before.0)
        XCTAssertEqual(after.1, before.1)
        XCTAssertEqual(try store.cards(CardQuery(since: t(0, 5))).map(\.id), since)
        XCTAssertEqual(try store.markRead(.before(t(0, 6))), 2, "n1 (t0) and o1 (t0 + 5 s)")
        // Unread listings walk the unread cards' tables (two, for each `undated` value).
        let unread = FeedStore.listing(try store.resolvingTag(CardQuery(unreadOnly: true, since: t(0, 5), limit: 50)), order: .oldest)
        let unreadPlan = try store.db.prepare("EXPLAIN QUERY PLAN " + unread.sql).query(unread.values) { $0.string(3) ?? "" }
        XCTAssertEqual(walksOfTheUnreadTables(unreadPlan.joined(separator: "\n")), 4, "\(unreadPlan)")
    }

    func testTheCardsOfADayComeInTheArchivesOrder() throws {
        var all: [CardID] = []
        try store.eachCardByDay { all.append($0.id) }
        var byDay: [CardID] = []
        for day in try store.cardStampsByDay() { try store.eachCardOfDay(day.day) { byDay.append($0.id) } }
        XCTAssertEqual(byDay, all)
        var tagged: [String] = []
        for day in try store.cardStampsByDay() { try store.eachCardOfDay(day.day, CardQuery(tag: "news")) { tagged.append($0.card.id ?? "") } }
        XCTAssertEqual(tagged, ["n3", "n2", "n1"])
    }
}
