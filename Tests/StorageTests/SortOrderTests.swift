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

    /// A window of a listing (what `feeds browse` reads) equals the full listing, for every
    /// order and filter: `listingCount` counts it, `listingWindow` reads any slice of it,
    /// `listingPosition` finds each card's place (nil for a card not listed), `listingAround` the
    /// cards around it, and
    /// `unreadPosition` the next and previous unread card from each; a search's `searchListing`
    /// lists `search`'s cards and `firstUnread` finds its unread ones.
    func testWindowsOfAListingEqualTheFullListingForEveryOrderAndFilter() throws {
        try seed()
        try store.markRead(.cards([CardID(rawValue: 2), CardID(rawValue: 7), CardID(rawValue: 4)]))
        let filters = [CardQuery(), CardQuery(unreadOnly: true), CardQuery(sourceID: SourceID(rawValue: 1)),
                       CardQuery(since: t(2)), CardQuery(sourceID: SourceID(rawValue: 2), unreadOnly: true)]
        for order in CardOrder.all {
            for query in filters {
                let full = try store.cards(query, order: order)
                let label = "\(order) \(query)"
                XCTAssertEqual(try store.listingCount(query), full.count, label)
                for offset in 0...full.count {
                    for limit in [1, 2, 3, 20] {
                        XCTAssertEqual(try store.listingWindow(query, order: order, offset: offset, limit: limit).map(\.id),
                                       Array(full.dropFirst(offset).prefix(limit)).map(\.id), "\(label) \(offset)+\(limit)")
                    }
                }
                for id in (1...9).map({ CardID(rawValue: Int64($0)) }) {
                    let place = full.firstIndex { $0.id == id }
                    XCTAssertEqual(try store.listingPosition(of: id, query, order: order), place, "\(label) card \(id)")
                    let counted = try store.listingPlace(of: id, query, order: order)
                    XCTAssertEqual(counted?.position, place, "\(label) card \(id)")
                    XCTAssertEqual(counted?.total, place.map { _ in full.count }, "\(label) card \(id)")
                    let around = try store.listingAround(id, query, order: order, before: 2, after: 3).map(\.id)
                    guard let place else { XCTAssertEqual(around, [], "\(label) around \(id)"); continue }
                    XCTAssertEqual(around, full[max(0, place - 2)..<min(full.count, place + 4)].map(\.id), "\(label) around \(id)")
                    let next = full.indices.dropFirst(place + 1).first { !full[$0].isRead }
                    let previous = full.indices.prefix(place).last { !full[$0].isRead }
                    XCTAssertEqual(try store.unreadPosition(from: id, forward: true, query, order: order), next, "\(label) after \(id)")
                    XCTAssertEqual(try store.unreadPosition(from: id, forward: false, query, order: order), previous, "\(label) before \(id)")
                }
                let text = "banana OR apple OR grape"
                let found = try store.search(text, query: query, order: order)
                let ids = try store.searchListing(text, query: query, order: order)
                XCTAssertEqual(ids, found.map(\.id), "search, \(label)")
                for from in 0...ids.count {
                    XCTAssertEqual(try store.firstUnread(among: ids[from...]),
                                   found.indices.dropFirst(from).first { !found[$0].isRead }, "search, \(label) from \(from)")
                    XCTAssertEqual(try store.firstUnread(among: ids[..<from], last: true),
                                   found.indices.prefix(from).last { !found[$0].isRead }, "search, \(label) to \(from)")
                }
            }
        }
        XCTAssertNil(try store.listingPosition(of: CardID(rawValue: 42), CardQuery(), order: .newest))
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

    private func plan(_ query: CardQuery, _ order: CardOrder) throws -> (text: String, sorts: Bool) {
        let listing = FeedStore.listing(try store.resolvingTag(query), order: order)
        let text = try store.db.prepare("EXPLAIN QUERY PLAN " + listing.sql)
            .query(listing.values) { $0.string(3) ?? "" }.joined(separator: "\n")
        return (text, sortsCards(text, sql: listing.sql))
    }

    func testEveryOrderIsAnIndexScan() throws {
        try seed()
        // (No tag: these sources have none, and a tag of no source plans a loop it never runs.
        // A tag's cards are sorted when few and walked by the order's index when many:
        // BigListingPlanTests.)
        let queries = [CardQuery(), CardQuery(limit: 50), CardQuery(unreadOnly: true), CardQuery(since: t(2))]
        for order in CardOrder.all {
            for query in queries {
                let (text, sorts) = try plan(query, order)
                XCTAssertFalse(sorts, "\(order.name) \(query):\n\(text)")
            }
        }
        // One source's listing: newest and source scan the per-source index; oldest and title let
        // SQLite sort that one source's cards (documented on CardOrder).
        for order in [CardOrder.newest, .source] {
            let (text, sorts) = try plan(CardQuery(sourceID: SourceID(rawValue: 1)), order)
            XCTAssertFalse(sorts, "\(order.name):\n\(text)")
        }
    }
}
