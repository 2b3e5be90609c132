import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Migration 19: each card is in one index by date, `cards_read_by_date` or
/// `cards_unread_by_date` by its read state (a new card enters one, not two), and whatever
/// lists, counts or windows every card in a date order reads both, merged in the order: the
/// same cards in the same order as one index gave, with no sort and no scan of the cards.
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
        try save((0..<6).map { article("o\($0)", published: t($0 % 4, 60)) }
                 + [Card(id: "ou", title: "Undated", link: "https://other.example/u")], to: other, at: t(1))
        cardIDs = try store.db.prepare("SELECT id FROM cards ORDER BY id").query([]) { CardID(rawValue: $0.int64(0)) }
        XCTAssertEqual(cardIDs.count, 16)
        // Every third card read, then one of them unread again: both indexes hold cards of every day.
        try store.markRead(.cards(cardIDs.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)))
        try store.markUnread(.cards([cardIDs[3]]))
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

    func testEachCardIsInExactlyOneIndexByDate() throws {
        for (index, state) in [("cards_read_by_date", 1), ("cards_unread_by_date", 0)] {
            let columns = try store.db.prepare("SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno").query([]) { $0.string(0) ?? "" }
            XCTAssertEqual(columns, ["undated", "sort_date", "id", "changed_at", "source_id", "is_read"], index)
            let sql = try store.db.prepare("SELECT sql FROM sqlite_schema WHERE name = ?1").queryOne([.text(index)]) { $0.string(0) ?? "" }
            XCTAssertTrue(sql?.hasSuffix("WHERE is_read = \(state)") == true, sql ?? index)
        }
        let read = try store.db.prepare("SELECT id FROM cards INDEXED BY cards_read_by_date WHERE is_read = 1").query([]) { $0.int64(0) }
        let unread = try store.db.prepare("SELECT id FROM cards INDEXED BY cards_unread_by_date WHERE is_read = 0").query([]) { $0.int64(0) }
        XCTAssertEqual(read.count, 5)
        XCTAssertEqual(Set(read).union(unread), Set(cardIDs.map(\.rawValue)))
        XCTAssertTrue(Set(read).isDisjoint(with: unread))
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
                XCTAssertTrue(text.contains("INDEX cards_read_by_date") && text.contains("INDEX cards_unread_by_date"), text)
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

    /// A range of dates of every card is counted and preselected from a range of each index
    /// (not covering: SQLite 3.40 reads the row of a card whose virtual column `undated` the
    /// query names, as it did from `cards_by_date`).
    func testARangeOfDatesOfEveryCardIsARangeOfEachIndex() throws {
        let query = CardQuery(since: t(2))
        let ids = FeedStore.filteredIDs(query, atMost: 100)
        XCTAssertEqual(Set(try store.db.prepare(ids.sql).query(ids.values) { CardID(rawValue: $0.int64(0)) }),
                       Set(try expected(.newest, since: t(2))))
        for (sql, values) in [ids, FeedStore.countingCards(query)] {
            let text = try plan(sql, values)
            for index in ["cards_read_by_date", "cards_unread_by_date"] {
                XCTAssertTrue(text.contains("INDEX \(index) (undated=? AND sort_date>?)"), "\(sql):\n\(text)")
            }
        }
    }

    /// Marking reads only the cards to change: `--all` walks the index of the other state, a
    /// source's unread cards their own index, cards by id their rows by id.
    func testMarkingReadsTheCardsInTheOtherStateOnly() throws {
        let news = try XCTUnwrap(try store.source(url: "https://news.example/feed")).id
        for (read, selection, index) in [(true, CardSelection.all, "cards_unread_by_date"), (false, .all, "cards_read_by_date"),
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
