import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Issue 21: a filtered relevance search reads its filters' ids by an aggregate
/// (`collectFilteredIDs`), and gives FTS5 only the bounds of their range that pay
/// (`PreselectedWalk`): the same ids as the rows of `filteredIDs`, and, whatever bounds are
/// given, the same cards in the same order as the plan that reads each match's row.
final class PreselectedWalkTests: StoreTestCase {
    private var sources: [SourceID] = []

    /// 240 generated cards over four sources saved one after the other (each source's ids in
    /// one run, as a first fetch leaves them): `tea` in two of three, `kettle` in every
    /// eleventh; undated cards, equal dates, a third read.
    override func setUpWithError() throws {
        try super.setUpWithError()
        var random = SplitMix64(seed: 21)
        for (i, tags) in [["old"], ["news"], ["news", "late"], ["late"]].enumerated() {
            let source = try addSource("https://w\(i).example/feed", name: "W\(i)", tags: tags)
            sources.append(source)
            let cards = (0..<60).map { j -> Card in
                let n = i * 60 + j
                var words = ["cup"]
                if n % 3 != 0 { words += Array(repeating: "tea", count: 1 + Int(random.next() % 3)) }
                if n % 11 == 4 { words.append("kettle") }
                return Card(id: "w\(n)", title: random.next() % 4 == 0 ? "tea time" : "cup \(n % 5)",
                            description: words.joined(separator: " "), link: "https://example.org/w\(n)",
                            published: n % 17 == 0 ? nil : t(Int(random.next() % 5)))
            }
            try save(cards, to: source, at: t(10 + i))
        }
        _ = try store.markRead(.cards((1...240).filter { $0 % 3 == 1 }.map { CardID(rawValue: Int64($0)) }))
        try store.refreshSearchIndex()
    }

    func testBoundsAreGivenWhenWhatTheySkipPaysForThem() {
        let cards: ClosedRange<Int64> = 1...1_000_000
        // The bench's `--tag blogs`: newest among the 2,500 newest, oldest among the 10,500 oldest.
        XCTAssertEqual(PreselectedWalk.bounds(10_430...997_478, cards: cards), PreselectedWalk(upper: nil, lower: nil))
        // An old source: the walk starts at its newest card.
        XCTAssertEqual(PreselectedWalk.bounds(1_000...200_000, cards: cards), PreselectedWalk(upper: 200_000, lower: nil))
        // A new one: the walk stops below its oldest card.
        XCTAssertEqual(PreselectedWalk.bounds(900_000...990_000, cards: cards), PreselectedWalk(upper: nil, lower: 900_000))
        // One card in the middle: both.
        XCTAssertEqual(PreselectedWalk.bounds(500_000...500_000, cards: cards), PreselectedWalk(upper: 500_000, lower: 500_000))
        // At the quarter exactly, and just short of it.
        XCTAssertEqual(PreselectedWalk.bounds(1...800_000, cards: 1...1_000_000).upper, 800_000)
        XCTAssertNil(PreselectedWalk.bounds(1...800_001, cards: 1...1_000_000).upper)
        // Every card selected; ranges that overflow.
        XCTAssertEqual(PreselectedWalk.bounds(cards, cards: cards), PreselectedWalk())
        XCTAssertEqual(PreselectedWalk.bounds(Int64.min...Int64.max, cards: Int64.min...Int64.max), PreselectedWalk())
        XCTAssertEqual(PreselectedWalk.bounds(0...0, cards: Int64.min...Int64.max), PreselectedWalk(upper: 0, lower: 0))
    }

    func testCollectedIDsAreTheFilteredOnes() throws {
        for base in [CardQuery(unreadOnly: true), CardQuery(tag: "news"), CardQuery(tag: "late", unreadOnly: true),
                     CardQuery(sourceID: sources[0]), CardQuery(since: t(3)), CardQuery(tag: "news", since: t(2)),
                     CardQuery(tag: "nothing")] {
            let query = try store.resolvingTag(base)
            let selection = FeedStore.filteredIDs(query, atMost: 1_000)
            let rows = try store.db.prepare(selection.sql).query(selection.values) { $0.int64(0) }
            XCTAssertEqual(Set(try store.collectFilteredIDs(query, atMost: nil)), Set(rows), "\(base)")
            XCTAssertEqual(try store.collectFilteredIDs(query, atMost: nil).count, rows.count, "\(base)")
            XCTAssertEqual(try store.collectFilteredIDs(query, atMost: 1_000), rows, "\(base)")
            let three = FeedStore.filteredIDs(query, atMost: 3)
            XCTAssertEqual(try store.collectFilteredIDs(query, atMost: 3),
                           try store.db.prepare(three.sql).query(three.values) { $0.int64(0) }, "\(base)")
        }
        XCTAssertEqual(try store.collectFilteredIDs(try store.resolvingTag(CardQuery(tag: "news")), atMost: nil).count, 120)
    }

    func testEveryChoiceOfBoundsRanksTheSameWindow() throws {
        for text in ["tea", "kettle", "tea AND kettle", "\"tea tea\"", "title:tea OR kettle"] {
            let fts = try SearchQuery.fts5(text)
            for window in [5, 40, 1_000] {
                for base in [CardQuery(tag: "old"), CardQuery(tag: "late"), CardQuery(tag: "news", unreadOnly: true),
                             CardQuery(sourceID: sources[2]), CardQuery(unreadOnly: true), CardQuery(since: t(3))] {
                    for limit in [nil, 1, 7] {
                        var query = try store.resolvingTag(base)
                        query.limit = limit
                        let joined = FeedStore.listing(query, order: .relevance, search: fts, window: window)
                        let expected = try store.readCards(joined.sql, joined.values).map(\.id)
                        let ids = try store.collectFilteredIDs(query, atMost: nil)
                        guard let low = ids.min(), let high = ids.max() else { return XCTFail("\(base) passes no card") }
                        for walk in [PreselectedWalk(), PreselectedWalk(upper: high), PreselectedWalk(lower: low),
                                     PreselectedWalk(upper: high, lower: low)] {
                            let found = try store.withSelectedIDs(ids) {
                                let listing = FeedStore.listing(query, order: .relevance, search: fts, window: window, preselected: walk)
                                XCTAssertEqual(listing.sql.contains("rowid <= ?"), walk.upper != nil)
                                XCTAssertEqual(listing.sql.contains("rowid >= ?"), walk.lower != nil)
                                return try store.readCards(listing.sql, listing.values).map(\.id)
                            }
                            XCTAssertEqual(found, expected, "\(text) \(window) \(base) \(walk)")
                        }
                        XCTAssertEqual(try store.search(text, query: query, order: .relevance, window: window).map(\.id), expected,
                                       "\(text) \(window) \(base)")
                    }
                }
            }
        }
    }

    /// The old source's cards are the first quarter of the ids, the `late` tag's the last
    /// half, the `news` tag's the middle half, the unread cards all over: the bounds for them.
    func testTheSearchGivesTheBoundsThatPay() throws {
        let range = try store.cardIDRange()
        XCTAssertEqual(range, 1...240)
        let old = try store.collectFilteredIDs(try store.resolvingTag(CardQuery(tag: "old")), atMost: nil)
        XCTAssertEqual(PreselectedWalk.bounds(old.min()!...old.max()!, cards: range), PreselectedWalk(upper: 60))
        let late = try store.collectFilteredIDs(try store.resolvingTag(CardQuery(tag: "late")), atMost: nil)
        XCTAssertEqual(PreselectedWalk.bounds(late.min()!...late.max()!, cards: range), PreselectedWalk(lower: 121))
        let news = try store.collectFilteredIDs(try store.resolvingTag(CardQuery(tag: "news")), atMost: nil)
        XCTAssertEqual(PreselectedWalk.bounds(news.min()!...news.max()!, cards: range), PreselectedWalk(upper: 180, lower: 61))
        let unread = try store.collectFilteredIDs(CardQuery(unreadOnly: true), atMost: nil)
        XCTAssertEqual(PreselectedWalk.bounds(unread.min()!...unread.max()!, cards: range), PreselectedWalk())
        XCTAssertNotNil(try store.preselectedIDs(try SearchQuery.fts5("tea"), try store.resolvingTag(CardQuery(tag: "old"))))
    }
}
