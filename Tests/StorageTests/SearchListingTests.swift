import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// `SearchListing` (what `feeds browse` keeps of a search): relevance's order found as slices
/// are read equals `search`'s, id for id, whatever is read first, on matches with many equal
/// scores (the same text again and again) and equal, missing and distinct dates.
final class SearchListingTests: StoreTestCase {
    private var sources: [SourceID] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        sources = [try addSource(name: "Feed"), try addSource("https://other.example/feed", name: "Other")]
        // 40 cards: 4 texts (so runs of equal scores), dates that repeat, every seventh undated,
        // saved in two sources and three batches (ids interleave with dates).
        let texts = ["melon", "melon melon", "melon pear pear pear", "melon melon melon"]
        for batch in 0..<3 {
            var cards: [[Card]] = [[], []]
            for i in stride(from: batch, to: 40, by: 3) {
                let published: Timestamp? = i % 7 == 0 ? nil : t(i % 5)
                cards[i % 2].append(Card(id: "c\(i)", title: texts[i % 4], description: i % 3 == 0 ? "melon filler" : "filler",
                                         link: "https://example.org/\(i)", published: published))
            }
            for (s, list) in cards.enumerated() where !list.isEmpty { try save(list, to: sources[s], at: t(10 + batch)) }
        }
        try store.markRead(.cards([CardID(rawValue: 3), CardID(rawValue: 11)]))
    }

    func testSlicesAndPlacesEqualTheFullSearchInEveryOrder() throws {
        let queries = [CardQuery(), CardQuery(sourceID: sources[1]), CardQuery(unreadOnly: true)]
        for order in CardOrder.all {
            for query in queries {
                for window in [1, 5, 17, 1_000] {
                    let full = try store.search("melon", query: query, order: order, window: window).map(\.id)
                    let label = "\(order) \(query) window \(window)"
                    XCTAssertFalse(full.isEmpty, label)
                    // Read whole, then by slices from every start (each listing read fresh).
                    XCTAssertEqual(try store.searchListingWindow("melon", query: query, order: order, window: window).all(), full, label)
                    for start in 0..<full.count {
                        for length in [1, 4] {
                            let listing = try store.searchListingWindow("melon", query: query, order: order, window: window)
                            XCTAssertEqual(listing.count, full.count, label)
                            XCTAssertEqual(try listing.ids(start..<(start + length)), Array(full[start..<min(full.count, start + length)]),
                                           "\(label) \(start)+\(length)")
                            // Then the rest: what was settled first stays where it is.
                            XCTAssertEqual(try listing.all(), full, "\(label) after \(start)+\(length)")
                        }
                        // A card's place asked first (a kept card after a relist).
                        let listing = try store.searchListingWindow("melon", query: query, order: order, window: window)
                        XCTAssertEqual(try listing.position(of: full[start]), start, "\(label) place of \(full[start])")
                    }
                    let listing = try store.searchListingWindow("melon", query: query, order: order, window: window)
                    XCTAssertNil(try listing.position(of: CardID(rawValue: 999)), label)
                    XCTAssertEqual(try listing.ids(full.count..<(full.count + 3)), [], "past the end: \(label)")
                }
            }
        }
    }

    func testTheSearchsRulesStay() throws {
        XCTAssertThrowsError(try store.searchListingWindow("\"melon", query: CardQuery(), order: .relevance)) { error in
            guard case StorageError.badSearchQuery = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try store.searchListingWindow("kiwi", query: CardQuery(), order: .relevance).count, 0)
        // Relevance has runs of equal scores here: the test above is about them.
        let scored = try store.search("melon", query: CardQuery(), order: .relevance)
        XCTAssertGreaterThan(scored.count, Set(scored.map { $0.card.title ?? "" }).count)
    }
}
