import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A relevance search over unread cards reads their ids newest first (`unreadNewestFirst`):
/// the ids from an estimated bound up, the older ones only when the window's walk reaches
/// them. Whatever the estimate, the window is the one reading every unread id gives: the same
/// cards in the same order. The homes here are generated so that the first read falls short
/// (the newest cards mostly read, the older mostly unread) or suffices (the other way round).
final class UnreadNewestFirstTests: StoreTestCase {
    private var sources: [SourceID] = []

    /// 300 cards over three sources, `tea` in most of them (once to thrice), `kettle` in some;
    /// `newestRead`: the newest 120 read but every seventh, the others unread but every fifth;
    /// else the other way round.
    private func fill(newestRead: Bool, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for (i, tags) in [["news"], ["world"], ["news", "food"]].enumerated() {
            let source = try addSource("https://n\(i).example/feed", name: "N\(i)", tags: tags)
            sources.append(source)
            let cards = (0..<100).map { j -> Card in
                let n = i * 100 + j
                var words = ["cup"]
                if random.next() % 5 != 0 { words += Array(repeating: "tea", count: 1 + Int(random.next() % 3)) }
                if random.next() % 4 == 0 { words.append("kettle") }
                return Card(id: "n\(n)", title: random.next() % 4 == 0 ? "tea time" : "cup \(n % 7)",
                            description: words.joined(separator: " "), link: "https://example.org/n\(n)",
                            published: n % 11 == 0 ? nil : t(Int(random.next() % 8)))
            }
            try save(cards, to: source, at: t(10 + i))
        }
        let read = (1...300).filter { id in
            let newest = id > 180
            return newest == newestRead ? id % 7 != 0 : id % 5 == 0
        }
        _ = try store.markRead(.cards(read.map { CardID(rawValue: Int64($0)) }))
        try store.refreshSearchIndex()
    }

    /// Each query, window and limit: the search (newest first where it pays) against the
    /// window read with the matches' rows (no preselection at all).
    private func assertSameWindows(_ texts: [String], _ bases: [CardQuery], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        var newestFirst = 0
        for text in texts {
            let fts = try SearchQuery.fts5(text)
            for window in [2, 5, 9, 30, 1_000] {
                for base in bases {
                    for limit in [nil, 1, 4] {
                        var query = try store.resolvingTag(base)
                        query.limit = limit
                        let joined = FeedStore.listing(query, order: .relevance, search: fts, window: window)
                        let expected = try store.readCards(joined.sql, joined.values).map(\.id)
                        if let preselection = try store.preselectedIDs(fts, query, window: window), preselection.older != nil {
                            newestFirst += 1
                        }
                        XCTAssertEqual(try store.search(text, query: query, order: .relevance, window: window).map(\.id), expected,
                                       "\(text) window \(window) \(query)", file: file, line: line)
                        XCTAssertEqual(try store.searchListingWindow(text, query: query, order: .relevance, window: window).all().prefix(limit ?? .max),
                                       expected.prefix(limit ?? .max), "\(text) window \(window) \(query)", file: file, line: line)
                    }
                }
            }
        }
        return newestFirst
    }

    func testTheOlderIdsAreReadWhenTheWalkReachesThem() throws {
        try fill(newestRead: true, seed: 5)
        let bases = [CardQuery(unreadOnly: true), CardQuery(tag: "news", unreadOnly: true), CardQuery(sourceID: sources[2], unreadOnly: true)]
        let before = store.cardIDFilter?.olderReads ?? 0
        XCTAssertGreaterThan(try assertSameWindows(["tea", "cup", "tea OR kettle"], bases), 0, "newest first was tried")
        XCTAssertGreaterThan(store.cardIDFilter?.olderReads ?? 0, before, "some walks went past the first read")
    }

    func testTheFirstReadIsEnoughWhenTheNewestAreUnread() throws {
        try fill(newestRead: false, seed: 9)
        let unread = CardQuery(unreadOnly: true)
        let fts = try SearchQuery.fts5("cup")
        let preselection = try XCTUnwrap(try store.preselectedIDs(fts, unread, window: 5))
        let below = try XCTUnwrap(preselection.older?.below, "read newest first")
        XCTAssertEqual(Set(preselection.ids), Set(try store.collectFilteredIDs(unread, atMost: nil).filter { $0 >= below }))
        XCTAssertLessThan(preselection.ids.count, 100, "not every unread card")
        XCTAssertGreaterThan(try assertSameWindows(["cup", "tea"], [unread, CardQuery(tag: "world", unreadOnly: true)]), 0)
        // The first read holds the window of 5 `cup` cards: nothing older is read for it.
        let before = try XCTUnwrap(store.cardIDFilter).olderReads
        XCTAssertEqual(try store.search("cup", query: CardQuery(unreadOnly: true, limit: 3), order: .relevance, window: 5).count, 3)
        XCTAssertEqual(try XCTUnwrap(store.cardIDFilter).olderReads, before)
    }

    /// Newest first or not is decided by sizes alone: too few unread cards (under twice the
    /// window and its margin), --since (its dates are not in the index read), or an estimated
    /// span over half of the ids read them all.
    func testWhenNewestFirstIsTried() throws {
        try fill(newestRead: false, seed: 3)
        let fts = try SearchQuery.fts5("cup")
        XCTAssertTrue(FeedStore.mayReadNewestFirst(passing: 16, window: 5))
        XCTAssertFalse(FeedStore.mayReadNewestFirst(passing: 15, window: 5))
        XCTAssertNotNil(try store.preselectedIDs(fts, CardQuery(unreadOnly: true), window: 5)?.older?.below)
        XCTAssertNil(try store.preselectedIDs(fts, CardQuery(unreadOnly: true, since: t(2)), window: 5)?.older?.below)
        XCTAssertNil(try store.preselectedIDs(fts, CardQuery(unreadOnly: true), window: 100)?.older?.below, "over half of the ids")
        XCTAssertNil(try store.preselectedIDs(fts, try store.resolvingTag(CardQuery(tag: "news")), window: 5)?.older?.below)
    }

    /// The ranges read by source, tag or all sources are the unread ids of those sources in
    /// the range, whichever ends are given.
    func testUnreadIDsByRange() throws {
        try fill(newestRead: true, seed: 7)
        for base in [CardQuery(unreadOnly: true), CardQuery(tag: "news", unreadOnly: true), CardQuery(sourceID: sources[1], unreadOnly: true),
                     CardQuery(tag: "nothing", unreadOnly: true)] {
            let query = try store.resolvingTag(base)
            let all = try store.collectFilteredIDs(query, atMost: nil)
            for (from, below) in [(nil, nil), (150, nil), (nil, 151), (100, 220), (300, 1), (Int64.min, Int64.max)] as [(Int64?, Int64?)] {
                let expected = all.filter { id in (from.map { id >= $0 } ?? true) && (below.map { id < $0 } ?? true) }
                XCTAssertEqual(Set(try store.collectUnreadIDs(query, from: from, below: below)), Set(expected), "\(base) \(from as Any) \(below as Any)")
            }
        }
    }

    private struct Unreadable: Error {}

    /// When the older ids cannot be read, the statement that reached them fails, and the
    /// search fails with that reason (not as a bad search text).
    func testAFailedReadFailsTheWalk() throws {
        try fill(newestRead: true, seed: 1)
        let filter = try store.cardIDFilter ?? CardIDFilter(on: store.db)
        store.cardIDFilter = filter
        filter.select([250, 260], olderBelow: 200) { throw Unreadable() }
        XCTAssertEqual(try store.db.prepare("SELECT \(CardIDFilter.functionName)(260)").queryOne { $0.int64(0) }, 1)
        XCTAssertEqual(try store.db.prepare("SELECT \(CardIDFilter.functionName)(255)").queryOne { $0.int64(0) }, 0)
        XCTAssertThrowsError(try store.db.prepare("SELECT \(CardIDFilter.functionName)(150)").queryOne { $0.int64(0) })
        XCTAssertTrue(filter.failure is Unreadable)
        filter.select([])
        XCTAssertNil(filter.failure)
        XCTAssertEqual(try store.db.prepare("SELECT \(CardIDFilter.functionName)(150)").queryOne { $0.int64(0) }, 0)
        // Through `withPreselection` (as a search runs its walk): the reason, not the SQL error.
        XCTAssertThrowsError(try store.withPreselection(Preselection(ids: [250], older: nil)) {
            filter.select([250], olderBelow: 200) { throw Unreadable() }
            return try store.db.prepare("SELECT \(CardIDFilter.functionName)(150)").queryOne { $0.int64(0) }
        }) { XCTAssertTrue($0 is Unreadable, "\($0)") }
        XCTAssertNil(filter.failure, "cleared after the walk")
    }
}
