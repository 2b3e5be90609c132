import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The card counts of the sources (`feeds sources`; every `feeds update` lists the sources):
/// counted for all sources in one pass over an index each, they equal the counts of each source
/// alone, whatever is read, deleted or empty; and neither way reads a card's row for its read flag.
final class SourceCountsTests: StoreTestCase {
    /// Four sources: one with no card, one all read, one all unread, one mixed (6 cards, the
    /// newest 4 read); then the mixed one's oldest read card past keep-cards=3 is deleted
    /// (retention) and its newest marked unread again: 5 cards, 3 unread.
    private func seed() throws -> [SourceID] {
        let empty = try addSource("https://empty.example/feed")
        let read = try addSource("https://read.example/feed")
        let unread = try addSource("https://unread.example/feed")
        let mixed = try addSource("https://mixed.example/feed", keepCount: 3)
        try save((0..<4).map { article("r\($0)", published: t($0)) }, to: read, at: t(10))
        try save((0..<3).map { article("u\($0)", published: t($0)) }, to: unread, at: t(10))
        try save((0..<6).map { article("m\($0)", published: t($0)) }, to: mixed, at: t(10))
        try save([article("m5", published: t(5))], to: mixed, at: t(11))  // the others are no longer listed
        try store.markRead(.source(read))
        let mixedCards = try store.cards(CardQuery(sourceID: mixed)).map(\.id)
        try store.markRead(.cards(Array(mixedCards.prefix(4))))
        XCTAssertEqual(try store.prune(now: t(12), defaultKeepDays: nil), 1, "the oldest read card of the mixed source goes")
        try store.markUnread(.cards([mixedCards[0]]))
        return [empty, read, unread, mixed]
    }

    func testAllSourcesCountedTogetherEqualEachSourceCountedAlone() throws {
        let ids = try seed()
        let all = try store.sources()
        XCTAssertEqual(all.map(\.id), ids)
        for source in all {
            let alone = try XCTUnwrap(try store.source(id: source.id))
            XCTAssertEqual(source.cardCount, alone.cardCount, source.configuration.url)
            XCTAssertEqual(source.unreadCount, alone.unreadCount, source.configuration.url)
            XCTAssertEqual(source.cardCount, try store.cardCount(CardQuery(sourceID: source.id)))
            XCTAssertEqual(source.unreadCount, try store.cardCount(CardQuery(sourceID: source.id, unreadOnly: true)))
        }
        XCTAssertEqual(all.map(\.cardCount), [0, 4, 3, 5])
        XCTAssertEqual(all.map(\.unreadCount), [0, 0, 3, 3])
    }

    func testConfigurationsAreTheSourcesConfigurations() throws {
        _ = try seed()
        _ = try addSource("https://tagged.example/feed", name: "Tagged", tags: ["a", "b"], keepDays: 30)
        XCTAssertEqual(try store.sourceConfigurations(), try store.sources().map(\.configuration))
    }

    /// The unread counts read the partial index of unread cards (migration 10), never the rows.
    func testUnreadCountsReadTheUnreadIndex() throws {
        _ = try seed()
        for sql in ["""
            SELECT source_id, count(*) FROM cards INDEXED BY cards_unread_by_source WHERE is_read = 0 GROUP BY source_id
            """, "SELECT count(*) FROM cards c WHERE c.source_id = 1 AND c.is_read = 0"] {
            let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + sql).query([]) { $0.string(3) ?? "" }.joined(separator: "\n")
            XCTAssertTrue(plan.contains("cards_unread_by_source"), plan)
            XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
        }
    }
}
