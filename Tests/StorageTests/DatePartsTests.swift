import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Migrations 19 and 20: each card is in one part of the cards by date: the index
/// `cards_read_by_date`, or unread the table `unread_by_date` or, saved or changed since the last
/// fold, `unread_by_date_new` (a new card enters one, not two); and whatever lists, counts or
/// windows the cards in a date order reads the parts, merged in the order: the same cards in
/// the same order as one index gave, with no sort and no scan of the cards.
final class DatePartsTests: StoreTestCase {
    private var cardIDs: [CardID] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        let news = try addSource("https://news.example/feed", name: "News")
        let other = try addSource("https://other.example/feed", name: "Other")
        // Dates repeated across sources (ties broken by id), and undated cards (their sort date
        // is their first sighting), over five days.
        try save((0..<8).map { article("n\($0)", published: t($0 % 5, $0 % 2 * 60)) }
                 + [Card(id: "nu", title: "Undated", link: "https://news.example/u")], to: news, at: t(3))
        // News's cards folded, as an update's end folds them; other's wait in the new table.
        try store.settleDateOrder()
        try save((0..<6).map { article("o\($0)", published: t($0 % 4, 60)) }
                 + [Card(id: "ou", title: "Undated", link: "https://other.example/u")], to: other, at: t(1))
        cardIDs = try store.db.prepare("SELECT id FROM cards ORDER BY id").query([]) { CardID(rawValue: $0.int64(0)) }
        XCTAssertEqual(cardIDs.count, 16)
        // Every third card read, then two of them unread again (into the new table): each part
        // holds cards of several days and of both sources.
        try store.markRead(.cards(cardIDs.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)))
        try store.markUnread(.cards([cardIDs[3], cardIDs[9]]))
    }

    /// The ids in each part by date: read, unread, unread and new.
    private func idsByPart() throws -> [[Int64]] {
        try ["SELECT id FROM cards INDEXED BY cards_read_by_date WHERE is_read = 1", "SELECT id FROM unread_by_date",
             "SELECT id FROM unread_by_date_new"].map { try store.db.prepare($0).query([]) { $0.int64(0) } }
    }

    /// The entries of the unread tables as the cards have them.
    private func unreadEntries() throws -> [String] {
        try store.db.prepare("""
            SELECT undated, sort_date, id, changed_at, source_id FROM unread_by_date UNION ALL
            SELECT undated, sort_date, id, changed_at, source_id FROM unread_by_date_new ORDER BY id
            """).query([]) { row in (0..<5).map { String(row.int64($0)) }.joined(separator: " ") }
    }

    private func unreadCardsEntries() throws -> [String] {
        try store.db.prepare("SELECT undated, sort_date, id, changed_at, source_id FROM cards WHERE is_read = 0 ORDER BY id")
            .query([]) { row in (0..<5).map { String(row.int64($0)) }.joined(separator: " ") }
    }

    private func plan(_ sql: String, _ values: [SQLValue]) throws -> String {
        try store.db.prepare("EXPLAIN QUERY PLAN " + sql).query(values) { $0.string(3) ?? "" }.joined(separator: "\n")
    }

    /// The listing in `order` sorted here, from every card's key: what one index gave.
    private func expected(_ order: CardOrder, since: Timestamp? = nil) throws -> [CardID] {
        let cards = try store.cards(ids: cardIDs).filter { since == nil || $0.sortDate >= since! }
        return cards.sorted { a, b in
            let undatedA = a.card.published == nil && a.card.updated == nil, undatedB = b.card.published == nil && b.card.updated == nil
            if undatedA != undatedB { return !undatedA }
            if a.sortDate != b.sortDate { return order == .oldest ? a.sortDate < b.sortDate : a.sortDate > b.sortDate }
            return order == .oldest ? a.id.rawValue < b.id.rawValue : a.id.rawValue > b.id.rawValue
        }.map(\.id)
    }

    func testEachCardIsInExactlyOnePartByDate() throws {
        let columns = try store.db.prepare("SELECT name FROM pragma_index_info('cards_read_by_date') ORDER BY seqno").query([]) { $0.string(0) ?? "" }
        XCTAssertEqual(columns, ["undated", "sort_date", "id", "changed_at", "source_id", "is_read"])
        let byPart = try idsByPart()
        XCTAssertEqual(byPart.map(\.count), [4, 6, 6])
        XCTAssertEqual(Set(byPart.joined()), Set(cardIDs.map(\.rawValue)))
        XCTAssertEqual(byPart.joined().count, cardIDs.count)
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        // The views show the tables' cards as the cards have them.
        for view in ["unread_cards", "unread_cards_new"] {
            let shown = try store.db.prepare("SELECT * FROM \(view) ORDER BY id").query([]) { row in (0..<21).map { row.string($0) ?? "-" } }
            let cards = try store.db.prepare("""
                SELECT id, source_id, card_key, guid, title, description, link, image, published, updated, author, kind,
                       enclosures, content_hash, first_seen_at, changed_at, last_seen_at, is_read, sort_date, undated, title_key
                FROM cards WHERE id IN (SELECT id FROM \(view == "unread_cards" ? "unread_by_date" : "unread_by_date_new")) ORDER BY id
                """).query([]) { row in (0..<21).map { row.string($0) ?? "-" } }
            XCTAssertEqual(shown, cards, view)
            XCTAssertFalse(shown.isEmpty)
        }
    }

    /// Whatever changes a card keeps the unread tables what the unread cards are: marking,
    /// a changed card (new dates, a new `changed_at`), deleting, moving to another source.
    func testTheTriggersKeepTheUnreadTablesTheUnreadCards() throws {
        let other = try XCTUnwrap(try store.source(url: "https://other.example/feed")).id
        try save((0..<6).map { article("o\($0)", title: "Changed \($0)", published: t($0 % 4, 120)) }, to: other, at: t(4))
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        try store.markRead(.source(other))
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        try store.markUnread(.all)
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        try store.settleDateOrder()
        XCTAssertEqual(try idsByPart()[2], [])
        try store.db.execute("UPDATE cards SET sort_date = sort_date + 7 WHERE id % 2 = 0; UPDATE cards SET published = NULL, updated = NULL WHERE id = 2")
        try store.db.execute("UPDATE cards SET source_id = \(other.rawValue) WHERE id = 3; DELETE FROM cards WHERE id IN (4, 5)")
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        XCTAssertEqual(try unreadEntries().count, cardIDs.count - 2)
        try store.markRead(.all)
        XCTAssertEqual(try idsByPart().map(\.count), [cardIDs.count - 2, 0, 0])
    }

    /// The end of an update moves the new table's cards into the folded one once there are
    /// enough (not before), and every listing is the same after: the cards keep their places.
    func testTheFoldMovesTheNewCardsIntoTheUnreadTableAndListingsStay() throws {
        let queries = [CardQuery(), CardQuery(unreadOnly: true), CardQuery(since: t(2)), CardQuery(unreadOnly: true, limit: 4)]
        let orders = [CardOrder.newest, .oldest, .title, .source]
        func listings() throws -> [[CardID]] {
            try orders.flatMap { order in try queries.map { try store.cards($0, order: order).map(\.id) } }
        }
        let before = try listings()
        let counts = try queries.map { try store.cardCount($0) }
        let waiting = try idsByPart()[2]
        try store.settleDateOrder(foldingAtLeast: waiting.count + 1)
        XCTAssertEqual(try idsByPart()[2], waiting, "fewer than asked: no fold")
        try store.settleDateOrder(foldingAtLeast: waiting.count)
        let after = try idsByPart()
        XCTAssertEqual(after[2], [])
        XCTAssertEqual(after[1].count, 6 + waiting.count)
        XCTAssertTrue(Set(waiting).isSubset(of: after[1]))
        XCTAssertEqual(try unreadEntries(), try unreadCardsEntries())
        XCTAssertEqual(try listings(), before)
        XCTAssertEqual(try queries.map { try store.cardCount($0) }, counts)
    }

    func testListingsOfEveryCardMergeBothIndexesInTheOrder() throws {
        for order in [CardOrder.newest, .oldest, .relevance] {
            for query in [CardQuery(), CardQuery(limit: 5), CardQuery(since: t(2)), CardQuery(since: t(2), limit: 3)] {
                let all = try expected(order, since: query.since)
                let wanted = Array(all.prefix(query.limit ?? all.count))
                XCTAssertEqual(try store.cards(query, order: order).map(\.id), wanted, "\(order) \(query)")
                XCTAssertEqual(try store.listingIDs(query, order: order).map(\.id), wanted, "\(order) \(query)")
                XCTAssertEqual(try store.cardCount(query), all.count, "\(order) \(query)")
                let listing = FeedStore.listing(query, order: order)
                let text = try plan(listing.sql, listing.values)
                XCTAssertTrue(text.contains("MERGE (UNION ALL)"), "\(order) \(query):\n\(text)")
                XCTAssertTrue(text.contains("INDEX cards_read_by_date"), "\(order) \(query):\n\(text)")
                XCTAssertEqual(walksOfTheUnreadTables(text), order == .oldest ? 4 : 2, "\(order) \(query):\n\(text)")
                XCTAssertFalse(text.contains("TEMP B-TREE"), "\(order) \(query):\n\(text)")
            }
            // The unread cards: their index alone.
            let unread = try store.cards(CardQuery(unreadOnly: true), order: order).map(\.id)
            let read = Set(try store.db.prepare("SELECT id FROM cards WHERE is_read = 1").query([]) { CardID(rawValue: $0.int64(0)) })
            XCTAssertEqual(unread, try expected(order).filter { !read.contains($0) }, "\(order)")
        }
    }

    /// `feeds browse`'s windows over every card: a card's place, the cards around it, a slice,
    /// the next and previous unread card, as the whole listing has them.
    func testWindowsOfEveryCardWalkBothIndexes() throws {
        let read = Set(try store.db.prepare("SELECT id FROM cards WHERE is_read = 1").query([]) { CardID(rawValue: $0.int64(0)) })
        for order in [CardOrder.newest, .oldest] {
            for query in [CardQuery(), CardQuery(since: t(2))] {
                let all = try expected(order, since: query.since)
                XCTAssertEqual(try store.listingCount(query), all.count)
                XCTAssertEqual(try store.listingWindow(query, order: order, offset: 3, limit: 4).map(\.id), Array(all[3..<7]))
                for (i, id) in all.enumerated() {
                    let place = try XCTUnwrap(try store.listingPlace(of: id, query, order: order), "\(order) \(i)")
                    XCTAssertEqual(place.position, i, "\(order) \(query) \(i)")
                    XCTAssertEqual(place.total, all.count, "\(order) \(query) \(i)")
                    XCTAssertEqual(try store.listingAround(id, query, order: order, before: 2, after: 2).map(\.id),
                                   Array(all[max(0, i - 2)...min(all.count - 1, i + 2)]), "\(order) \(query) \(i)")
                    let next = all[(i + 1)...].firstIndex { !read.contains($0) }
                    XCTAssertEqual(try store.unreadPosition(from: id, forward: true, query, order: order), next, "\(order) \(query) \(i)")
                    let previous = all[..<i].lastIndex { !read.contains($0) }
                    XCTAssertEqual(try store.unreadPosition(from: id, forward: false, query, order: order), previous, "\(order) \(query) \(i)")
                }
            }
        }
    }

    /// A range of dates of every card is counted and preselected from a range of each part
    /// (the read cards' index not covering: SQLite 3.40 reads the row of a card whose virtual
    /// column `undated` the query names, as it did from `cards_by_date`).
    func testARangeOfDatesOfEveryCardIsARangeOfEachIndex() throws {
        let query = CardQuery(since: t(2))
        let ids = FeedStore.filteredIDs(query, atMost: 100)
        XCTAssertEqual(Set(try store.db.prepare(ids.sql).query(ids.values) { CardID(rawValue: $0.int64(0)) }),
                       Set(try expected(.newest, since: t(2))))
        for (sql, values) in [ids, FeedStore.countingCards(query)] {
            let text = try plan(sql, values)
            XCTAssertTrue(text.contains("INDEX cards_read_by_date (undated=? AND sort_date>?)"), "\(sql):\n\(text)")
            // Each unread table, no card row read (the views' join left out).
            XCTAssertEqual(text.components(separatedBy: "SEARCH c USING PRIMARY KEY (undated=? AND sort_date>?)").count - 1, 2, "\(sql):\n\(text)")
            XCTAssertFalse(text.contains("SEARCH c USING INTEGER PRIMARY KEY"), "\(sql):\n\(text)")
        }
    }

    /// Marking reads only the cards to change: `--all` walks the index of the other state, a
    /// source's unread cards their own index, cards by id their rows by id.
    func testMarkingReadsTheCardsInTheOtherStateOnly() throws {
        let news = try XCTUnwrap(try store.source(url: "https://news.example/feed")).id
        for (read, selection, index) in [(true, CardSelection.all, "cards_unread_by_source"), (false, .all, "cards_read_by_date"),
                                         (true, .source(news), "cards_unread_by_source (source_id=?)"),
                                         (true, .cards(Array(cardIDs.prefix(3))), "INTEGER PRIMARY KEY (rowid=?)")] {
            let marking = FeedStore.marking(read, selection)
            let text = try plan(marking.sql, marking.values)
            XCTAssertTrue(text.contains(index), "\(read) \(selection):\n\(text)")
            XCTAssertFalse(text.contains("SCAN c\n") || text.hasSuffix("SCAN c"), "\(read) \(selection):\n\(text)")
        }
        let unread = try store.cardCount(CardQuery(unreadOnly: true))
        XCTAssertEqual(try store.markRead(.all), unread)
        XCTAssertEqual(try store.cardCount(CardQuery(unreadOnly: true)), 0)
        XCTAssertEqual(try store.markUnread(.source(news)), 9)
        XCTAssertEqual(try store.markUnread(.all), cardIDs.count - 9)
        XCTAssertEqual(try store.markRead(.cards(Array(cardIDs.prefix(3)) + [cardIDs[0]])), 3)
        XCTAssertEqual(try store.cardCount(CardQuery(unreadOnly: true)), cardIDs.count - 3)
    }
}
