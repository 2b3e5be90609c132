import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The `title` order kept in three tables (migrations 16 and 17): `card_titles`, folded at the
/// end of an update, `card_titles_new`, the keys of cards saved or changed since, and
/// `card_titles_log`, where those keys go first (by card id) until the end of the update moves
/// them. Whatever part of the cards is folded, moved, logged, changed after the fold or deleted, the listings, their windows and the
/// searches in title order equal a sort of the cards by the order's key, and the tables hold
/// exactly one entry per card, with the card's key.
final class TitleOrderTablesTests: StoreTestCase {
    /// The order's key sorted by SQLite from the cards themselves: the reference.
    private func sortedIDs(_ whereClause: String = "") throws -> [Int64] {
        try store.db.prepare("""
            SELECT id FROM cards c \(whereClause) ORDER BY title_key IS NULL, title_key, undated, sort_date DESC, id DESC
            """).query([]) { $0.int64(0) }
    }

    /// The three tables together hold each card once, under its current key.
    private func assertTablesMatchTheCards(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let key = "title_key IS NULL, coalesce(title_key, ''), undated, sort_date, id"
        let cards = try store.db.prepare("SELECT \(key) FROM cards ORDER BY id").query([]) { Self.row($0) }
        let kept = try store.db.prepare("""
            SELECT untitled, title_key, undated, sort_date, id FROM card_titles
            UNION ALL SELECT untitled, title_key, undated, sort_date, id FROM card_titles_new
            UNION ALL SELECT untitled, title_key, undated, sort_date, id FROM card_titles_log ORDER BY id
            """).query([]) { Self.row($0) }
        XCTAssertEqual(kept, cards, label, file: file, line: line)
    }

    private static func row(_ row: Row) -> String {
        "\(row.int64(0))|\(row.string(1) ?? "NULL")|\(row.int64(2))|\(row.int64(3))|\(row.int64(4))"
    }

    private func newKeys() throws -> Int { try rows("card_titles_new") }
    private func loggedKeys() throws -> Int { try rows("card_titles_log") }
    private func rows(_ table: String) throws -> Int {
        try store.db.prepare("SELECT count(*) FROM \(table)").queryOne { $0.int(0) } ?? -1
    }

    /// Titles that tie, differ in case or spaces, are empty or missing; dates that tie or miss.
    private func randomCard(_ guid: String, _ rng: inout SplitMix64) -> Card {
        let titles: [String?] = [nil, "", "  ", "apple", "Apple", "  apple ", "banana", "Banana split", "cherry", "zed", "Ünïcode"]
        let title = titles[Int(rng.next() % UInt64(titles.count))]
        let date: Timestamp? = rng.next() % 4 == 0 ? nil : t(Int(rng.next() % 5))
        let updated: Timestamp? = rng.next() % 5 == 0 ? t(Int(rng.next() % 5), 7) : nil
        return Card(id: guid, title: title, link: "https://example.org/\(guid)", published: date, updated: updated)
    }

    private func assertListingsFollowTheKey(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertTablesMatchTheCards(label, file: file, line: line)
        let ids = { (cards: [StoredCard]) in cards.map(\.id.rawValue) }
        XCTAssertEqual(ids(try store.cards(order: .title)), try sortedIDs(), label, file: file, line: line)
        XCTAssertEqual(ids(try store.cards(CardQuery(limit: 7), order: .title)), Array(try sortedIDs().prefix(7)), label,
                       file: file, line: line)
        XCTAssertEqual(ids(try store.cards(CardQuery(unreadOnly: true), order: .title)), try sortedIDs("WHERE is_read = 0"),
                       label, file: file, line: line)
        XCTAssertEqual(ids(try store.cards(CardQuery(tag: "news", limit: 5), order: .title)),
                       Array(try sortedIDs("WHERE source_id IN (SELECT id FROM sources WHERE tags = 'news')").prefix(5)),
                       label, file: file, line: line)
        XCTAssertEqual(ids(try store.cards(CardQuery(since: t(2)), order: .title)), try sortedIDs("WHERE sort_date >= \(t(2).secondsSince1970)"),
                       label, file: file, line: line)
        // Windows (`feeds browse`): every card's place, the cards around it, the next unread.
        let full = try store.cards(order: .title)
        XCTAssertEqual(try store.listingWindow(CardQuery(), order: .title, offset: 3, limit: 4).map(\.id),
                       Array(full.dropFirst(3).prefix(4)).map(\.id), label, file: file, line: line)
        for (place, card) in full.enumerated() {
            XCTAssertEqual(try store.listingPlace(of: card.id, CardQuery(), order: .title)?.position, place, label, file: file, line: line)
            XCTAssertEqual(try store.listingAround(card.id, CardQuery(), order: .title, before: 2, after: 2).map(\.id),
                           full[max(0, place - 2)..<min(full.count, place + 3)].map(\.id), label, file: file, line: line)
            XCTAssertEqual(try store.unreadPosition(from: card.id, forward: true, CardQuery(), order: .title),
                           full.indices.dropFirst(place + 1).first { !full[$0].isRead }, label, file: file, line: line)
            XCTAssertEqual(try store.unreadPosition(from: card.id, forward: false, CardQuery(), order: .title),
                           full.indices.prefix(place).last { !full[$0].isRead }, label, file: file, line: line)
        }
        // A search in title order walks the tables (a common word) or sorts the matches (a rare one).
        let matches = Set(try store.search("apple OR banana", order: .relevance).map(\.id.rawValue))
        XCTAssertEqual(ids(try store.search("apple OR banana", order: .title)), try sortedIDs().filter(matches.contains),
                       label, file: file, line: line)
    }

    func testListingsInTitleOrderFollowTheKeyWhateverIsFoldedChangedOrDeleted() throws {
        let news = try addSource("https://a.example/feed", tags: ["news"])
        let blogs = try addSource("https://b.example/feed", tags: ["blogs"])
        var rng = SplitMix64(seed: 16)
        try save((0..<30).map { randomCard("a\($0)", &rng) }, to: news, at: t(5))
        try save((0..<20).map { randomCard("b\($0)", &rng) }, to: blogs, at: t(5))
        XCTAssertEqual(try loggedKeys(), 50, "every new card's key waits in the log")
        XCTAssertEqual(try newKeys(), 0)
        try assertListingsFollowTheKey("all logged")

        // Below the minimum the log moves to the small table; at it, everything is folded.
        try store.settleTitleOrder(foldingAtLeast: 51)
        XCTAssertEqual(try newKeys(), 50)
        XCTAssertEqual(try loggedKeys(), 0)
        try assertListingsFollowTheKey("all new")
        try store.settleTitleOrder(foldingAtLeast: 51)
        XCTAssertEqual(try newKeys(), 50, "nothing logged: nothing moves")
        try store.settleTitleOrder(foldingAtLeast: 50)
        XCTAssertEqual(try newKeys(), 0)
        try assertListingsFollowTheKey("all folded")

        // New cards beside folded ones; folded cards whose title or dates changed (their key
        // moves to the small table); some read.
        try save((0..<30).map { $0 % 3 == 0 ? randomCard("a\($0)", &rng) : randomCard("a\($0 + 100)", &rng) }, to: news, at: t(6))
        _ = try store.markRead(.cards((1...60).filter { $0 % 4 == 0 }.map { CardID(rawValue: Int64($0)) }))
        XCTAssertGreaterThan(try loggedKeys(), 0)
        try assertListingsFollowTheKey("folded and logged")
        // Logged keys moved beside new ones, then changed again and deleted while in each table.
        try store.settleTitleOrder(foldingAtLeast: 1_000)
        try save((0..<30).map { $0 % 2 == 0 ? randomCard("a\($0)", &rng) : randomCard("a\($0 + 200)", &rng) }, to: news, at: t(8))
        XCTAssertGreaterThan(try newKeys(), 0)
        XCTAssertGreaterThan(try loggedKeys(), 0)
        try assertListingsFollowTheKey("folded, new and logged")

        try store.settleTitleOrder()
        try save((0..<20).map { randomCard("b\($0 + 50)", &rng) }, to: blogs, at: t(7))
        try store.settleTitleOrder(foldingAtLeast: 1_000)
        try save((0..<20).map { randomCard("b\($0 + 80)", &rng) }, to: blogs, at: t(7))
        // A source's removal deletes its cards from the three tables.
        XCTAssertTrue(try store.removeSource(blogs))
        XCTAssertEqual(try loggedKeys(), 0, "the log held blogs' last cards only")
        try assertListingsFollowTheKey("a source removed")
        try store.settleTitleOrder()
        try assertListingsFollowTheKey("folded again")
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM card_titles").queryOne { $0.int(0) },
                       try store.db.prepare("SELECT count(*) FROM cards").queryOne { $0.int(0) })
    }

    /// The listing walks both tables merged by their key: no sort of the cards, whatever the
    /// filters, and the folded table by its key.
    func testTheTitleListingIsAMergeOfTwoWalks() throws {
        let source = try addSource(tags: ["news"])
        try save([article("a", title: "b"), article("b", title: "a")], to: source, at: t(1))
        for query in [CardQuery(limit: 50), CardQuery(unreadOnly: true, limit: 50), CardQuery(since: t(0), limit: 50), CardQuery()] {
            let listing = FeedStore.listing(try store.resolvingTag(query), order: .title)
            let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + listing.sql).query(listing.values) { $0.string(3) ?? "" }
                .joined(separator: "\n")
            XCTAssertTrue(plan.contains("MERGE (UNION ALL)"), "\(query):\n\(plan)")
            XCTAssertFalse(sortsCards(plan, sql: listing.sql), "\(query):\n\(plan)")
            XCTAssertFalse(plan.contains("SCAN c\n") || plan.hasSuffix("SCAN c"), "\(query):\n\(plan)")
        }
        // The ids of every card (`listingIDs`, browse's windows) from the tables alone: no card row.
        let ids = FeedStore.listing(CardQuery(), order: .title, columns: "c.id", joinSources: false)
        let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + ids.sql).query(ids.values) { $0.string(3) ?? "" }.joined(separator: "\n")
        XCTAssertTrue(plan.contains("MERGE (UNION ALL)") && !plan.contains("SEARCH c") && !sortsCards(plan, sql: ids.sql), plan)
        XCTAssertEqual(try store.listingIDs(CardQuery(), order: .title).map(\.id.rawValue), [2, 1])
        XCTAssertEqual(try store.cards(order: .title).compactMap(\.card.title), ["a", "b"])
    }

    /// A database of migration 15 gets every card's key into the folded table.
    func testMigrationSixteenTakesEveryExistingCard() throws {
        let path = try olderDatabase(migrations: 15, """
            INSERT INTO sources (id, url, kind, created_at) VALUES (1, 'a', 'feed', 0);
            INSERT INTO cards (source_id, card_key, title, published, kind, content_hash, first_seen_at, changed_at, last_seen_at, sort_date)
            SELECT 1, 'k' || value, CASE value % 4 WHEN 0 THEN NULL WHEN 1 THEN 'Zed ' || value ELSE 'apple' END,
                   CASE WHEN value % 3 = 0 THEN NULL ELSE value END, 'article', 'h', 0, 0, 0, value
            FROM (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 25) SELECT value FROM n);
            """)
        store = try FeedStore(path: path)
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM card_titles").queryOne { $0.int(0) }, 25)
        XCTAssertEqual(try newKeys(), 0)
        try assertTablesMatchTheCards("after migration")
        XCTAssertEqual(try store.cards(order: .title).map(\.id.rawValue), try sortedIDs())
    }
}
