import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A filtered relevance search takes the smaller side first (`preselectsFilteredIDs`): the ids
/// its filters let through, then the matches tested against them in memory, or, when the
/// matches are few, the matches tested on their cards' rows. Both rank the same window: the
/// same cards in the same order, whatever the filters, the window and the limit.
final class FilteredRelevancePlanTests: StoreTestCase {
    private var sources: [SourceID] = []

    /// 180 generated cards over three sources: `tea` in every second card (once to thrice),
    /// `kettle` in every ninth, `samovar` in three; undated cards, equal dates, a quarter read.
    override func setUpWithError() throws {
        try super.setUpWithError()
        var random = SplitMix64(seed: 11)
        for (i, tags) in [["news"], ["world"], ["news", "food"]].enumerated() {
            let source = try addSource("https://r\(i).example/feed", name: "R\(i)", tags: tags)
            sources.append(source)
            let cards = (0..<60).map { j -> Card in
                let n = i * 60 + j
                var words = ["cup"]
                if n % 2 == 0 { words += Array(repeating: "tea", count: 1 + Int(random.next() % 3)) }
                if n % 9 == 4 { words.append("kettle") }
                if [5, 77, 150].contains(n) { words.append("samovar") }
                return Card(id: "r\(n)", title: random.next() % 4 == 0 ? "tea time" : "cup \(n % 7)",
                            description: words.joined(separator: " "), link: "https://example.org/r\(n)",
                            published: n % 13 == 0 ? nil : t(Int(random.next() % 6)))
            }
            try save(cards, to: source, at: t(10 + i))
        }
        _ = try store.markRead(.cards((1...180).filter { $0 % 4 == 1 }.map { CardID(rawValue: Int64($0)) }))
        try store.refreshSearchIndex()
    }

    private func preselected(_ text: String, _ query: CardQuery, window: Int) throws -> [CardID] {
        let selection = FeedStore.filteredIDs(query, atMost: FeedStore.preselectionLimit)
        let ids = try store.db.prepare(selection.sql).query(selection.values) { $0.int64(0) }
        guard let low = ids.min(), let high = ids.max() else { return [] }
        return try store.withSelectedIDs(ids) {
            let listing = FeedStore.listing(query, order: .relevance, search: text, window: window,
                                            preselected: PreselectedWalk(upper: high, lower: low))
            XCTAssertTrue(listing.sql.contains(CardIDFilter.functionName))
            return try store.readCards(listing.sql, listing.values).map(\.id)
        }
    }

    func testBothSidesRankTheSameWindow() throws {
        for text in ["tea", "kettle", "samovar", "tea AND kettle", "\"tea tea\"", "title:tea OR samovar"] {
            let fts = try SearchQuery.fts5(text)
            for window in [4, 25, 1_000] {
                for base in [CardQuery(unreadOnly: true), CardQuery(tag: "news"), CardQuery(sourceID: sources[1]),
                             CardQuery(since: t(3)), CardQuery(tag: "food", unreadOnly: true), CardQuery(tag: "nothing")] {
                    for limit in [nil, 1, 3, 50] {
                        var query = try store.resolvingTag(base)
                        query.limit = limit
                        let joined = FeedStore.listing(query, order: .relevance, search: fts, window: window)
                        XCTAssertTrue(joined.sql.contains("card_search JOIN cards"), "the matches' rows read")
                        let expected = try store.readCards(joined.sql, joined.values).map(\.id)
                        XCTAssertEqual(try preselected(fts, query, window: window), expected, "\(text) \(window) \(query)")
                        XCTAssertEqual(try store.search(text, query: query, order: .relevance, window: window).map(\.id), expected,
                                       "\(text) \(window) \(query)")
                        XCTAssertFalse(base.tag != "nothing" && text == "tea" && expected.isEmpty, "\(window) \(query)")
                    }
                }
            }
        }
        XCTAssertEqual(try store.db.prepare("SELECT \(CardIDFilter.functionName)(2)").queryOne { $0.int64(0) }, 0)
    }

    /// The side chosen: a word in three cards reads their rows; a word in half of them reads the
    /// filter's ids first; a tag of no source reads nothing.
    func testTheSmallerSideIsReadFirst() throws {
        let unread = CardQuery(unreadOnly: true)  // 135 cards: the ids cost as much as reading 5 rows
        XCTAssertFalse(try store.preselectsFilteredIDs(try SearchQuery.fts5("samovar"), unread))
        XCTAssertTrue(try store.preselectsFilteredIDs(try SearchQuery.fts5("tea"), unread))
        XCTAssertTrue(try store.preselectsFilteredIDs(try SearchQuery.fts5("tea"), try store.resolvingTag(CardQuery(tag: "nothing"))))
        XCTAssertEqual(try store.filterCounts(unread, cards: 180).passing, 135)
        let news = try store.filterCounts(try store.resolvingTag(CardQuery(tag: "news", unreadOnly: true)), cards: 180)
        XCTAssertEqual(news.passing, 90)
        XCTAssertEqual(news.sourceCards, 120)
    }
}
