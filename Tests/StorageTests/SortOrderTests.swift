import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Every named order on cards with equal timestamps, missing dates and missing titles, with the
/// tie breaks asserted exactly, and every order checked to be an index scan.
final class SortOrderTests: StoreTestCase {
    private func card(_ guid: String, _ title: String?, published: Timestamp? = nil, updated: Timestamp? = nil) -> Card {
        Card(id: guid, title: title, link: "https://example.org/\(guid)", published: published, updated: updated)
    }

    /// Three sources, nine cards (ids 1…9 in letter order):
    /// - "Beta" (source 1), saved at day 10: a (pub 1, "banana"), b (pub 2, "Apple"),
    ///   c (pub 2, "apple"), d (no date, untitled), e (no date, "  cherry"), f (updated 3, title "").
    /// - "alpha" (source 2), saved at day 11: g (pub 5, "Grape"), h (no date, untitled).
    /// - "beta" (source 3), saved at day 12: i (pub 0, "Banana").
    private func seed() throws {
        let beta = try addSource("https://b.example/feed", name: "Beta")
        let alpha = try addSource("https://a.example/feed", name: "alpha")
        let beta2 = try addSource("https://c.example/feed", name: "beta")
        try save([card("a", "banana", published: t(1)), card("b", "Apple", published: t(2)),
                  card("c", "apple", published: t(2)), card("d", nil), card("e", "  cherry"),
                  card("f", "", updated: t(3))], to: beta, at: t(10))
        try save([card("g", "Grape", published: t(5)), card("h", nil)], to: alpha, at: t(11))
        try save([card("i", "Banana", published: t(0))], to: beta2, at: t(12))
        XCTAssertEqual(try allCards().map(\.id.rawValue).sorted(), Array(1...9))
    }

    private func listed(_ order: CardOrder, _ query: CardQuery = CardQuery()) throws -> String {
        try store.cards(query, order: order).compactMap(\.card.id).joined()
    }

    /// `listingIDs` (what `feeds browse` keeps of a listing) lists the ids and read flags of
    /// exactly the cards `cards` and `search` list, in the same order, for every order and filter;
    /// `cards(ids:)` reads them back in the order asked.
    func testListingIDsFollowTheListingsAndCardsByIDKeepTheirOrder() throws {
        try seed()
        try store.markRead(.cards([CardID(rawValue: 2), CardID(rawValue: 7)]))
        for order in CardOrder.all {
            for query in [CardQuery(), CardQuery(unreadOnly: true), CardQuery(sourceID: SourceID(rawValue: 1)), CardQuery(since: t(2))] {
                let cards = try store.cards(query, order: order)
                let listed = try store.listingIDs(query, order: order)
                XCTAssertEqual(listed.map(\.id), cards.map(\.id), "\(order) \(query)")
                XCTAssertEqual(listed.map(\.isRead), cards.map(\.isRead), "\(order) \(query)")
                let found = try store.search("banana OR apple OR grape", query: query, order: order)
                XCTAssertEqual(try store.listingIDs(query, order: order, search: "banana OR apple OR grape").map(\.id),
                               found.map(\.id), "search, \(order) \(query)")
            }
        }
        let wanted = [9, 1, 5, 42, 3].map { CardID(rawValue: Int64($0)) }
        XCTAssertEqual(try store.cards(ids: wanted).map(\.id.rawValue), [9, 1, 5, 3], "in the order asked; no card 42")
        XCTAssertEqual(try store.cards(ids: []), [])
        XCTAssertThrowsError(try store.listingIDs(CardQuery(), order: .newest, search: "\"unbalanced"))
    }

    func testNewestPutsDatedFirstThenDateDescendingThenIdDescending() throws {
        try seed()
        // Dated: g 5, f 3 (updated only), c = b at 2 (c saved later), a 1, i 0; then undated by
        // first sighting: h (day 11), then e and d (both day 10, e saved later).
        XCTAssertEqual(try listed(.newest), "gfcbaihed")
        XCTAssertEqual(try listed(.newest), try store.cards().compactMap(\.card.id).joined(), "newest is the default")
        XCTAssertEqual(CardOrder.default, .newest)
    }

    func testOldestPutsDatedFirstThenDateAscendingThenIdAscending() throws {
        try seed()
        XCTAssertEqual(try listed(.oldest), "iabcfgdeh")
    }

    func testSourceOrdersByNameThenSourceIdThenNewestWithin() throws {
        try seed()
        // "alpha" < "Beta" = "beta" (case folded; source 1 before source 3).
        XCTAssertEqual(try listed(.source), "gh" + "fcbaed" + "i")
    }

    func testTitleOrdersByFoldedTitleThenNewestWithUntitledLast() throws {
        try seed()
        // apple: c, b (equal dates, later id first); banana: a (day 1), i (day 0); cherry (leading
        // spaces trimmed); grape; untitled ("" counts as none): f dated, then h, d undated.
        XCTAssertEqual(try listed(.title), "cbaiegfhd")
    }

    func testRelevanceWithoutSearchTextListsNewest() throws {
        try seed()
        XCTAssertEqual(try listed(.relevance), "gfcbaihed")
    }

    func testOrdersKeepFiltersAndLimit() throws {
        try seed()
        let beta = SourceID(rawValue: 1)
        XCTAssertEqual(try listed(.newest, CardQuery(sourceID: beta)), "fcbaed")
        XCTAssertEqual(try listed(.oldest, CardQuery(sourceID: beta, limit: 2)), "ab")
        XCTAssertEqual(try listed(.title, CardQuery(limit: 3)), "cba")
        XCTAssertEqual(try listed(.source, CardQuery(since: t(2))), "gh" + "fcbed")  // h: first seen day 11
        XCTAssertEqual(try listed(.source, CardQuery(unreadOnly: true)), "ghfcbaedi")
    }

    func testEqualTimestampsStayInTheSameOrderAcrossReads() throws {
        let source = try addSource()
        try save((0..<20).map { card("x\($0)", "same", published: t(1)) }, to: source, at: t(2))
        for order in CardOrder.all {
            let first = try store.cards(order: order).map(\.id)
            XCTAssertEqual(try store.cards(order: order).map(\.id), first, order.name)
            XCTAssertEqual(first.map(\.rawValue), order == .oldest ? Array(1...20) : Array((1...20).reversed()), order.name)
        }
    }

    // MARK: - The registry

    func testRegistryNamesAndLabels() throws {
        XCTAssertEqual(CardOrder.all.map(\.name), ["newest", "oldest", "source", "title", "relevance"])
        XCTAssertEqual(Set(CardOrder.all.map(\.name)).count, CardOrder.all.count)
        XCTAssertTrue(CardOrder.all.allSatisfy { !$0.label.isEmpty })
        for order in CardOrder.all {
            XCTAssertEqual(try CardOrder.named(order.name), order)
            XCTAssertEqual(try CardOrder.named(order.name.uppercased()), order)
        }
    }

    func testUnknownNameIsAUsageErrorListingTheValidOrders() {
        XCTAssertThrowsError(try CardOrder.named("popular")) { error in
            XCTAssertEqual(error as? CardOrderError, .unknown(name: "popular"))
            let message = error.localizedDescription
            XCTAssertTrue(message.hasPrefix("unknown sort order \"popular\""), message)
            for order in CardOrder.all {
                XCTAssertTrue(message.contains("\(order.name): \(order.label)"), message)
            }
        }
    }

    // MARK: - Index scans, never a sort of everything

    private func plan(_ query: CardQuery, _ order: CardOrder) throws -> String {
        let listing = FeedStore.listing(try store.resolvingTag(query), order: order)
        return try store.db.prepare("EXPLAIN QUERY PLAN " + listing.sql)
            .query(listing.values) { $0.string(3) ?? "" }.joined(separator: "\n")
    }

    func testEveryOrderIsAnIndexScan() throws {
        try seed()
        let queries = [CardQuery(), CardQuery(limit: 50), CardQuery(unreadOnly: true), CardQuery(tag: "news"),
                       CardQuery(since: t(2))]
        for order in CardOrder.all {
            for query in queries {
                let text = try plan(query, order)
                XCTAssertFalse(text.contains("TEMP B-TREE"), "\(order.name) \(query):\n\(text)")
            }
        }
        // One source's listing: newest and source scan the per-source index; oldest and title let
        // SQLite sort that one source's cards (documented on CardOrder).
        for order in [CardOrder.newest, .source] {
            let text = try plan(CardQuery(sourceID: SourceID(rawValue: 1)), order)
            XCTAssertFalse(text.contains("TEMP B-TREE"), "\(order.name):\n\(text)")
        }
    }
}
