import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The query plans of what `bench/scale.sh` times on a million cards: every order of a limited
/// listing, with the filters combined as a person combines them (unread, a tag, one source), is
/// an index scan (no TEMP B-TREE over the cards), and the counts of `feeds sources` read indexes
/// only. (No ANALYZE ever runs, so the plans are the same on 10 cards as on a million.)
final class BigListingPlanTests: StoreTestCase {
    private var news: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        news = try addSource("https://news.example/feed", name: "News", tags: ["news"])
        let other = try addSource("https://other.example/feed", name: "Other", tags: ["world"])
        _ = try addSource("https://third.example/feed", name: "Third", tags: ["world"])
        try save((0..<5).map { article("n\($0)", published: t($0)) }, to: news, at: t(10))
        try save((0..<5).map { article("o\($0)", published: t($0)) }, to: other, at: t(10))
    }

    private func plan(_ sql: String, _ values: [SQLValue] = []) throws -> String {
        try store.db.prepare("EXPLAIN QUERY PLAN " + sql).query(values) { $0.string(3) ?? "" }.joined(separator: "\n")
    }

    func testLimitedListingsWithCombinedFiltersAreIndexScans() throws {
        let queries = [CardQuery(limit: 50), CardQuery(unreadOnly: true, limit: 50), CardQuery(unreadOnly: true, since: t(2), limit: 50)]
        for order in [CardOrder.newest, .oldest, .source, .title] {
            for query in queries {
                let listing = FeedStore.listing(try store.resolvingTag(query), order: order)
                let text = try plan(listing.sql, listing.values)
                XCTAssertFalse(sortsCards(text, sql: listing.sql), "\(order.name) \(query):\n\(text)")
            }
        }
        // A tag's or a source's many cards: the order's index walked, each card's source tested
        // (`walksOrderIndex` chooses it when they have more than √(limit × cards) cards).
        // (A tag's few cards are read by source and sorted: they are few.)
        for order in [CardOrder.newest, .oldest, .source, .title] {
            for query in [CardQuery(tag: "news", limit: 50), CardQuery(tag: "news", unreadOnly: true, limit: 50),
                          CardQuery(tag: "world", limit: 50), CardQuery(tag: "world", unreadOnly: true, limit: 50),
                          CardQuery(sourceID: news, limit: 50), CardQuery(sourceID: news, unreadOnly: true, limit: 50)] {
                let listing = FeedStore.listing(try store.resolvingTag(query), order: order, walkingOrderIndex: true)
                let text = try plan(listing.sql, listing.values)
                XCTAssertFalse(sortsCards(text, sql: listing.sql), "\(order.name) \(query) walking:\n\(text)")
            }
        }
        // One source (newest and source: its index; oldest and title sort that source's cards
        // only, as CardOrder documents), unread or not.
        for order in [CardOrder.newest, .source] {
            for query in [CardQuery(sourceID: news, limit: 50), CardQuery(sourceID: news, unreadOnly: true, limit: 50)] {
                let listing = FeedStore.listing(query, order: order)
                let text = try plan(listing.sql, listing.values)
                XCTAssertFalse(sortsCards(text, sql: listing.sql), "\(order.name) \(query):\n\(text)")
            }
        }
    }

    /// Migration 13 dropped `cards_oldest` and `cards_newest` (a new card entered ten indexes,
    /// each on a page of its own): `oldest` is walks of the cards by date read backwards, the
    /// dated cards then the undated ones, merged without a sort; a range of dates is a range of
    /// an index of the cards by date for each `undated` value (migration 18 dropped
    /// `cards_stamps`, which began with the date); the images never fetched merge the dated and
    /// undated walks newest first. (Since migration 19 the cards by date are parts by state,
    /// since migration 20 an index and two tables: `DatePartsTests`.)
    func testTheIndexesMigration13DroppedAreReplacedByWalksOfTheOthers() throws {
        let indexes = try store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'cards'")
            .query { $0.string(0) ?? "" }
        XCTAssertFalse(indexes.contains("cards_oldest"), "\(indexes)")
        XCTAssertFalse(indexes.contains("cards_newest"), "\(indexes)")
        XCTAssertFalse(indexes.contains("cards_stamps"), "\(indexes)")
        XCTAssertFalse(indexes.contains("cards_by_date"), "\(indexes)")
        XCTAssertTrue(indexes.contains("cards_read_by_date") && !indexes.contains("cards_unread_by_date"), "\(indexes)")
        for (query, walking) in [(CardQuery(limit: 50), false), (CardQuery(unreadOnly: true, limit: 50), false),
                                 (CardQuery(since: t(2), limit: 50), false), (CardQuery(tag: "world", limit: 50), true),
                                 (CardQuery(sourceID: news, limit: 50), true), (CardQuery(), false)] {
            let listing = FeedStore.listing(try store.resolvingTag(query), order: .oldest, walkingOrderIndex: walking)
            let text = try plan(listing.sql, listing.values)
            XCTAssertTrue(text.contains("MERGE (UNION ALL)"), "\(query):\n\(text)")
            XCTAssertFalse(text.contains("TEMP B-TREE"), "\(query):\n\(text)")
            XCTAssertTrue(text.contains("cards_read_by_date") || walksOfTheUnreadTables(text) > 0, "\(query):\n\(text)")
        }
        // A range of dates: two ranges of each index of the cards by date (migration 18
        // dropped cards_stamps, which began with the date), not a scan of every card; marking
        // read walks the unread cards' indexes (migration 20: two), marking unread the read cards'.
        for (statement, read, unread) in [
            (FeedStore.countingCards(CardQuery(since: t(2))), true, 2),
            (FeedStore.countingCards(CardQuery(unreadOnly: true, since: t(2))), false, 2),
            (FeedStore.markDated(true, since: nil, before: t(2)), false, 2),
            (FeedStore.markDated(true, since: t(2), before: nil), false, 2),
            (FeedStore.markDated(false, since: t(1), before: t(2)), true, 0),
        ] {
            let text = try plan(statement.sql, statement.values)
            XCTAssertEqual(text.contains("SEARCH c USING INDEX cards_read_by_date (undated=? AND sort_date"), read, "\(statement.sql):\n\(text)")
            XCTAssertEqual(text.components(separatedBy: "INDEX cards_").count - 1, read ? 1 : 0, "\(statement.sql):\n\(text)")
            XCTAssertEqual(text.components(separatedBy: "SEARCH c USING PRIMARY KEY (undated=? AND sort_date").count - 1, unread,
                           "\(statement.sql):\n\(text)")
        }
        let images = try plan(FeedStore.imagesNeverFetchedSQL, [.integer(10)])
        XCTAssertTrue(images.contains("MERGE (UNION ALL)") && images.contains("cards_read_by_date"), images)
        XCTAssertEqual(walksOfTheUnreadTables(images), 4, images)
        XCTAssertFalse(images.contains("TEMP B-TREE"), images)
    }

    /// The unread cards of a listing ordered by date, in a range of dates or not, come from the
    /// unread cards' tables (migrations 19 and 20: the read ones are in an index by date).
    func testUnreadListingsWalkTheIndexOfUnreadCards() throws {
        for order in [CardOrder.newest, .oldest] {
            for query in [CardQuery(unreadOnly: true, limit: 50), CardQuery(unreadOnly: true, since: t(2), limit: 50)] {
                let listing = FeedStore.listing(try store.resolvingTag(query), order: order)
                let text = try plan(listing.sql, listing.values)
                XCTAssertEqual(walksOfTheUnreadTables(text), order == .oldest ? 4 : 2, "\(order) \(query):\n\(text)")
                XCTAssertFalse(text.contains("INDEX cards_read_by_date"), "\(order) \(query):\n\(text)")
                XCTAssertFalse(text.contains("TEMP B-TREE"), "\(order) \(query):\n\(text)")
            }
        }
    }

    /// Walking the order's index, and sorting the keys alone, list exactly the cards, in the
    /// order, that reading the sources' cards and sorting them lists.
    func testWalkingTheOrdersIndexListsWhatSortingLists() throws {
        let third = try XCTUnwrap(try store.source(url: "https://third.example/feed")).id
        try save([article("t0", title: "  apple", published: t(3)), article("t1", title: nil, published: t(3)),
                  Card(id: "t2", title: "Zed", link: "https://third.example/2")], to: third, at: t(11))
        try store.markRead(.cards(try store.cards(CardQuery(limit: 4)).map(\.id)))
        for order in [CardOrder.newest, .oldest, .source, .title] {
            for query in [CardQuery(tag: "world", limit: 3), CardQuery(tag: "world", unreadOnly: true, limit: 4),
                          CardQuery(tag: "news", limit: 50), CardQuery(sourceID: third, limit: 2),
                          CardQuery(sourceID: third, unreadOnly: true, limit: 50), CardQuery(tag: "world", since: t(3), limit: 9)] {
                let resolved = try store.resolvingTag(query)
                let sorted = FeedStore.listing(resolved, order: order)
                let walked = FeedStore.listing(resolved, order: order, walkingOrderIndex: true)
                let keys = FeedStore.listing(resolved, order: order, sortingKeys: true)
                let expected = try store.readCards(sorted.sql, sorted.values).map(\.id)
                XCTAssertFalse(expected.isEmpty, "\(order.name) \(query)")
                XCTAssertEqual(try store.readCards(walked.sql, walked.values).map(\.id), expected, "\(order.name) \(query)")
                XCTAssertEqual(try store.readCards(keys.sql, keys.values).map(\.id), expected, "\(order.name) \(query) keys")
                XCTAssertEqual(try store.cards(query, order: order).map(\.id), expected, "\(order.name) \(query) cards")
            }
        }
    }
}
