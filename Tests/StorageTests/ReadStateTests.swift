import XCTest
import FeedModel
@testable import Storage

final class ReadStateTests: StoreTestCase {
    private var first: SourceID!
    private var second: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        first = try addSource("https://a.example/feed")
        second = try addSource("https://b.example/feed")
        try save([article("a1", published: t(1)), article("a2", published: t(2))], to: first, at: t(5))
        try save([article("b1", published: t(3))], to: second, at: t(5))
    }

    private func readIDs() throws -> Set<String> {
        Set(try allCards().filter(\.isRead).compactMap(\.card.id))
    }

    func testNewCardsAreUnread() throws {
        XCTAssertEqual(try readIDs(), [])
        XCTAssertEqual(try store.sources().map(\.unreadCount), [2, 1])
    }

    func testMarkByCardIDs() throws {
        let ids = try allCards().filter { $0.card.id != "a2" }.map(\.id)
        XCTAssertEqual(try store.markRead(.cards(ids)), 2)
        XCTAssertEqual(try readIDs(), ["a1", "b1"])
        XCTAssertEqual(try store.markRead(.cards(ids)), 0, "already read cards do not count")
        XCTAssertEqual(try store.markRead(.cards([])), 0)
    }

    func testMarkBySource() throws {
        XCTAssertEqual(try store.markRead(.source(first)), 2)
        XCTAssertEqual(try readIDs(), ["a1", "a2"])
        let counts = try store.sources().map { ($0.cardCount, $0.unreadCount) }
        XCTAssertEqual(counts.map(\.0), [2, 1])
        XCTAssertEqual(counts.map(\.1), [0, 1])
    }

    func testMarkAllAndUnmark() throws {
        XCTAssertEqual(try store.markRead(.all), 3)
        XCTAssertEqual(try readIDs(), ["a1", "a2", "b1"])
        XCTAssertEqual(try store.markUnread(.source(second)), 1)
        XCTAssertEqual(try readIDs(), ["a1", "a2"])
    }

    func testMarkBeforeADate() throws {
        XCTAssertEqual(try store.markRead(.before(t(3))), 2)
        XCTAssertEqual(try readIDs(), ["a1", "a2"])
    }

    func testUnreadOnlyListing() throws {
        try store.markRead(.cards(try allCards().filter { $0.card.id == "a2" }.map(\.id)))
        XCTAssertEqual(try store.cards(CardQuery(unreadOnly: true)).compactMap(\.card.id), ["b1", "a1"])
    }

    func testUnreadCountsPerSourceAndConfigurationsWithoutCounts() throws {
        try store.markRead(.cards(try allCards().filter { $0.card.id == "a2" }.map(\.id)))
        XCTAssertEqual(try store.sources().map(\.unreadCount), [1, 1])
        XCTAssertEqual(try store.sourceConfigurations().map(\.url), try store.sources().map(\.configuration.url))
    }
}
