import XCTest
import FeedModel
@testable import Storage

final class ReadingTests: StoreTestCase {
    func testNewestFirstWithIdBreakingTies() throws {
        let source = try addSource()
        try save([article("mid", published: t(2)), article("tieA", published: t(3)),
                  article("tieB", published: t(3)), article("old", published: t(1))], to: source, at: t(4))
        XCTAssertEqual(try allCards().compactMap(\.card.id), ["tieB", "tieA", "mid", "old"])
    }

    func testFilterBySourceTagSinceAndLimit() throws {
        let news = try addSource("https://news.example/feed", name: "News", tags: ["news", "daily"])
        let blog = try addSource("https://blog.example/feed", tags: ["blogs"])
        try save([article("n1", published: t(1)), article("n2", published: t(3))], to: news, at: t(4))
        try save([article("b1", published: t(2))], to: blog, at: t(4))

        XCTAssertEqual(try store.cards(CardQuery(sourceID: blog)).compactMap(\.card.id), ["b1"])
        XCTAssertEqual(try store.cards(CardQuery(tag: "daily")).compactMap(\.card.id), ["n2", "n1"])
        XCTAssertEqual(try store.cards(CardQuery(tag: "dail")).count, 0, "tags match whole words")
        XCTAssertEqual(try store.cards(CardQuery(since: t(2))).compactMap(\.card.id), ["n2", "b1"])
        XCTAssertEqual(try store.cards(CardQuery(limit: 2)).compactMap(\.card.id), ["n2", "b1"])
        XCTAssertEqual(try store.cards(CardQuery(sourceID: news, since: t(2), limit: 5)).compactMap(\.card.id), ["n2"])
    }

    func testStoredCardCarriesSourceName() throws {
        let named = try addSource("https://a.example/feed", name: "Mine")
        let unnamed = try addSource("https://b.example/feed")
        try store.saveFetch(sourceID: named, feed: FeedInfo(title: "Their title"), cards: [article("1")],
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        try store.saveFetch(sourceID: unnamed, feed: FeedInfo(title: "Their title"), cards: [article("2")],
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        let names = Dictionary(uniqueKeysWithValues: try allCards().map { ($0.card.id!, $0.sourceName) })
        XCTAssertEqual(names, ["1": "Mine", "2": "Their title"])
    }

    func testCardByID() throws {
        let source = try addSource()
        try save([article("a"), article("b")], to: source, at: t(1))
        let b = try XCTUnwrap(try allCards().first { $0.card.id == "b" })
        XCTAssertEqual(try store.card(id: b.id)?.card.id, "b")
        XCTAssertNil(try store.card(id: CardID(rawValue: 9999)))
    }
}
