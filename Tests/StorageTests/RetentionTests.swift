import XCTest
import FeedModel
@testable import Storage

final class RetentionTests: StoreTestCase {
    /// Saves `old` at day 1 and then a batch of only `current` at `day`, so `old` left the feed.
    private func feedThatMovedOn(old: [Card], current: [Card], day: Int, source: SourceID) throws {
        try save(old + current, to: source, at: t(1))
        try save(current, to: source, at: t(day))
    }

    func testOldReadCardsGoButUnreadCardsStay() throws {
        let source = try addSource()
        try feedThatMovedOn(old: [article("read", published: t(0)), article("unread", published: t(0))],
                            current: [article("new", published: t(40))], day: 40, source: source)
        try store.markRead(.all)
        try store.markUnread(.cards(try allCards().filter { $0.card.id == "unread" }.map(\.id)))

        let deleted = try store.prune(now: t(40), defaultKeepDays: 30)
        XCTAssertEqual(deleted, 1)
        XCTAssertEqual(Set(try allCards().compactMap(\.card.id)), ["unread", "new"])
    }

    func testCardsTheSourceStillListsAreKeptHoweverOld() throws {
        let source = try addSource()
        try save([article("ancient", published: t(-1000))], to: source, at: t(1))
        try store.markRead(.all)
        // 304s for months: no card is touched, the card is still in the feed.
        try store.recordNotModified(sourceID: source, now: t(200), nextDue: nil)
        XCTAssertEqual(try store.prune(now: t(200), defaultKeepDays: 30), 0)
        XCTAssertEqual(try allCards().count, 1)
    }

    func testRecentlySeenCardsAreKeptEvenWithAnOldDate() throws {
        let source = try addSource()
        // Dated long ago but listed until day 20; gone from the feed since.
        try save([article("old-dated", published: t(-500)), article("x")], to: source, at: t(20))
        try save([article("x")], to: source, at: t(21))
        try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(30), defaultKeepDays: 30), 0)
        XCTAssertEqual(try store.prune(now: t(51), defaultKeepDays: 30), 1)
        XCTAssertEqual(try allCards().compactMap(\.card.id), ["x"])
    }

    func testSourceKeepDaysOverridesTheDefault() throws {
        let strict = try addSource("https://strict.example/feed", keepDays: 5)
        let lenient = try addSource("https://lenient.example/feed")
        for source in [strict, lenient] {
            try feedThatMovedOn(old: [article("old", published: t(0))], current: [article("cur", published: t(10))],
                                day: 10, source: source)
        }
        try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(10), defaultKeepDays: 30), 1)
        XCTAssertEqual(try store.cards(CardQuery(sourceID: strict)).compactMap(\.card.id), ["cur"])
        XCTAssertEqual(try store.cards(CardQuery(sourceID: lenient)).count, 2)
    }

    func testNoDefaultMeansKeepForever() throws {
        let source = try addSource()
        try feedThatMovedOn(old: [article("old", published: t(0))], current: [article("cur")], day: 900, source: source)
        try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(900), defaultKeepDays: nil), 0)
    }

    func testKeepCountKeepsTheNewestReadCards() throws {
        let source = try addSource(keepCount: 2)
        let old = (1...4).map { article("old\($0)", published: t($0)) }
        try feedThatMovedOn(old: old, current: [article("cur", published: t(10))], day: 10, source: source)
        try store.markRead(.all)
        try store.markUnread(.cards(try allCards().filter { $0.card.id == "old1" }.map(\.id)))
        // Newest first: cur, old4 | old3, old2, old1(unread). Beyond two: old3 and old2 go.
        XCTAssertEqual(try store.prune(now: t(10), defaultKeepDays: nil), 2)
        XCTAssertEqual(try allCards().compactMap(\.card.id), ["cur", "old4", "old1"])
    }

    func testDefaultKeepCountAppliesToSourcesWithoutTheirOwn() throws {
        let source = try addSource()
        try feedThatMovedOn(old: [article("a", published: t(1)), article("b", published: t(2))],
                            current: [article("c", published: t(3))], day: 5, source: source)
        try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(5), defaultKeepDays: nil, defaultKeepCount: 1), 2)
        XCTAssertEqual(try allCards().compactMap(\.card.id), ["c"])
    }

    /// Only sources some retention applies to are ranked; one with its own setting next to one
    /// without gives the same result as before, and with no setting anywhere nothing goes.
    func testSourcesWithoutRetentionKeepEverythingNextToOnesWithIt() throws {
        let kept = try addSource("https://a.example/feed")
        let trimmed = try addSource("https://b.example/feed", keepCount: 1)
        try feedThatMovedOn(old: [article("a1", published: t(1)), article("a2", published: t(2))],
                            current: [article("a3", published: t(3))], day: 5, source: kept)
        try feedThatMovedOn(old: [article("b1", published: t(1)), article("b2", published: t(2))],
                            current: [article("b3", published: t(3))], day: 5, source: trimmed)
        try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(5), defaultKeepDays: nil), 2)
        XCTAssertEqual(try allCards().compactMap(\.card.id).sorted(), ["a1", "a2", "a3", "b3"])
        XCTAssertEqual(try store.prune(now: t(5), defaultKeepDays: nil, defaultKeepCount: 2), 1)
        XCTAssertEqual(try allCards().compactMap(\.card.id).sorted(), ["a2", "a3", "b3"])
    }
}

