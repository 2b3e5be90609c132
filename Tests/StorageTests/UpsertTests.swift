import XCTest
import FeedModel
@testable import Storage

final class UpsertTests: StoreTestCase {
    func testNewCardsAreInsertedWithTheirContent() throws {
        let source = try addSource()
        let card = Card(id: "g1", title: "Hello", description: "<p>Body</p>", link: "https://example.org/1",
                        image: "https://example.org/1.png", published: t(1, 60), updated: t(2),
                        author: "Ann", enclosures: [Enclosure(url: "https://example.org/a.mp3",
                                                              type: "audio/mpeg", length: 1234)])
        let summary = try save([card], to: source, at: t(3))
        XCTAssertEqual(summary, SaveSummary(new: 1, updated: 0, unchanged: 0))
        let stored = try XCTUnwrap(try allCards().first)
        XCTAssertEqual(stored.card, card)
        XCTAssertEqual(stored.key, CardKey(rawValue: "id:g1"))
        XCTAssertEqual(stored.sourceID, source)
        XCTAssertFalse(stored.isRead)
        XCTAssertEqual(stored.firstSeenAt, t(3))
        XCTAssertEqual(stored.changedAt, t(3))
        XCTAssertEqual(stored.lastSeenAt, t(3))
        XCTAssertEqual(stored.sortDate, t(1, 60))
    }

    func testSameGuidInTwoSourcesIsTwoCards() throws {
        let first = try addSource("https://a.example/feed")
        let second = try addSource("https://b.example/feed")
        try save([article("shared")], to: first, at: t(1))
        try save([article("shared")], to: second, at: t(1))
        let cards = try allCards()
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(Set(cards.map(\.sourceID)), [first, second])
    }

    func testChangedContentIsUpdatedInPlaceKeepingReadStateAndFirstSeen() throws {
        let source = try addSource()
        try save([article("a", title: "Old title")], to: source, at: t(1))
        let before = try XCTUnwrap(try allCards().first)
        try store.markRead(.cards([before.id]))

        let summary = try save([article("a", title: "New title")], to: source, at: t(2))
        XCTAssertEqual(summary, SaveSummary(new: 0, updated: 1, unchanged: 0))
        let cards = try allCards()
        XCTAssertEqual(cards.count, 1, "an update must not duplicate the card")
        let after = try XCTUnwrap(cards.first)
        XCTAssertEqual(after.id, before.id)
        XCTAssertEqual(after.card.title, "New title")
        XCTAssertTrue(after.isRead)
        XCTAssertEqual(after.firstSeenAt, t(1))
        XCTAssertEqual(after.changedAt, t(2))
        XCTAssertEqual(after.lastSeenAt, t(2))
    }

    func testUnchangedCardsOnlyMoveLastSeen() throws {
        let source = try addSource()
        let cards = [article("a", published: t(0)), article("b", published: t(0, 5))]
        try save(cards, to: source, at: t(1))
        let summary = try save(cards, to: source, at: t(2))
        XCTAssertEqual(summary, SaveSummary(new: 0, updated: 0, unchanged: 2))
        for stored in try allCards() {
            XCTAssertEqual(stored.changedAt, t(1), "unchanged content must not be rewritten")
            XCTAssertEqual(stored.firstSeenAt, t(1))
            XCTAssertEqual(stored.lastSeenAt, t(2))
        }
    }

    func testMixedBatchIsCountedPerOutcome() throws {
        let source = try addSource()
        try save([article("a"), article("b")], to: source, at: t(1))
        let summary = try save([article("a"), article("b", title: "changed"), article("c")], to: source, at: t(2))
        XCTAssertEqual(summary, SaveSummary(new: 1, updated: 1, unchanged: 1))
        XCTAssertEqual(try allCards().count, 3)
    }

    func testRepeatedKeyInOneBatchCountsOnceAndFirstWins() throws {
        let source = try addSource()
        let summary = try save([article("a", title: "First"), article("a", title: "Second")], to: source, at: t(1))
        XCTAssertEqual(summary, SaveSummary(new: 1, updated: 0, unchanged: 0))
        XCTAssertEqual(try allCards().map(\.card.title), ["First"])
    }

    func testExplicitKeysOverrideTheCardsOwnKeys() throws {
        let source = try addSource("search:swift sqlite", kind: .search)
        let result1 = Card(id: "engine-1", title: "R", link: "https://r.example/page")
        let result2 = Card(id: "engine-2", title: "R again", link: "https://R.example:443/page#top")
        let keys = [CardKey.forSearchResult(result1), CardKey.forSearchResult(result2)]
        XCTAssertEqual(keys[0], keys[1])
        let summary = try store.saveFetch(sourceID: source, feed: FeedInfo(), cards: [result1, result2], keys: keys,
                                          validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertEqual(summary.new, 1)
        XCTAssertEqual(try allCards().map(\.key), [CardKey(rawValue: "link:https://r.example/page")])
    }

    func testSortDateFallsBackToUpdatedThenFirstSeen() throws {
        let source = try addSource()
        let onlyUpdated = Card(id: "u", title: "u", updated: t(5))
        let undated = Card(id: "n", title: "n")
        try save([onlyUpdated, undated], to: source, at: t(9))
        let byID = Dictionary(uniqueKeysWithValues: try allCards().map { ($0.card.id!, $0.sortDate) })
        XCTAssertEqual(byID["u"], t(5))
        XCTAssertEqual(byID["n"], t(9))
    }

    func testUndatedCardKeepsItsFirstSeenSortDateWhenUpdated() throws {
        let source = try addSource()
        try save([Card(id: "n", title: "one")], to: source, at: t(1))
        try save([Card(id: "n", title: "two")], to: source, at: t(4))
        XCTAssertEqual(try allCards().first?.sortDate, t(1))
    }

    func testEnclosuresWithAwkwardCharactersRoundTrip() throws {
        let source = try addSource()
        let enclosures = [
            Enclosure(url: "https://example.org/a\"b\\c.mp3", type: "audio/mpeg", length: 0),
            Enclosure(url: "https://example.org/\u{1}tab\there/ünï.ogg"),
        ]
        try save([Card(id: "e", enclosures: enclosures)], to: source, at: t(1))
        XCTAssertEqual(try allCards().first?.card.enclosures, enclosures)
        XCTAssertEqual(try save([Card(id: "e", enclosures: enclosures)], to: source, at: t(2)).unchanged, 1)
    }

    func testNilAndEmptyFieldsAreDifferentContent() throws {
        let source = try addSource()
        try save([Card(id: "x", title: nil, author: "")], to: source, at: t(1))
        let summary = try save([Card(id: "x", title: "", author: nil)], to: source, at: t(2))
        XCTAssertEqual(summary.updated, 1)
        XCTAssertEqual(try allCards().first?.card.title, "")
    }

    func testSavingToAMissingSourceWritesNothing() throws {
        XCTAssertThrowsError(try save([article("a")], to: SourceID(rawValue: 42), at: t(1))) { error in
            XCTAssertEqual(error as? StorageError, .noSuchSource(id: SourceID(rawValue: 42)))
        }
        XCTAssertEqual(try allCards().count, 0)
    }

    /// Text is bound with its length: an empty string stays empty (not NULL) and a NUL inside a
    /// value does not cut it.
    func testEmptyTextAndInnerNulRoundTrip() throws {
        let source = try addSource()
        let card = Card(id: "g", title: "", description: "before\u{0}after", link: "https://example.org/g", author: "Ann")
        try save([card], to: source, at: t(1))
        let stored = try XCTUnwrap(try allCards().first)
        XCTAssertEqual(stored.card.title, "")
        XCTAssertEqual(stored.card.description, "before\u{0}after")
        XCTAssertEqual(try save([card], to: source, at: t(2)), SaveSummary(unchanged: 1), "read back as written")
    }
}

