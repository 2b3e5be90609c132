import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Cards prepared away from the writing thread (`PreparedCards`): saved by the same rules as
/// plain cards, and indexed for search from the text they carry, never from a transaction that
/// rolled back and never for a card deleted before the refresh.
final class PreparedCardsTests: StoreTestCase {
    /// The converter marks its output, so a test can tell text that came from memory from text
    /// the refresh converted itself (the store's converter does not mark).
    private let marked: (String) -> String = { "memo " + $0.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "") }

    private func card(_ guid: String, _ title: String, _ description: String? = nil) -> Card {
        Card(id: guid, title: title, description: description, link: "https://example.org/\(guid)")
    }

    private func savePrepared(_ cards: [Card], to source: SourceID, at now: Timestamp) throws -> SaveSummary {
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"), prepared: PreparedCards(cards, descriptionText: marked),
                            validators: CacheValidators(), now: now, nextDue: nil)
    }

    private func found(_ text: String) throws -> [String] {
        try store.search(text, order: .newest).compactMap(\.card.id).sorted()
    }

    func testSavedLikePlainCardsRepeatedKeysOnce() throws {
        let source = try addSource()
        let first = try savePrepared([card("a", "One"), card("b", "Two"), card("a", "One again")], to: source, at: t(1))
        XCTAssertEqual(first, SaveSummary(new: 2))
        XCTAssertEqual(try store.cards().first { $0.card.id == "a" }?.card.title, "One", "the first copy wins")
        let second = try savePrepared([card("a", "One"), card("b", "Two, changed")], to: source, at: t(2))
        XCTAssertEqual(second, SaveSummary(updated: 1, unchanged: 1))
        // The same cards through the plain path: nothing changes (same hashes).
        XCTAssertEqual(try save([card("a", "One"), card("b", "Two, changed")], to: source, at: t(3)), SaveSummary(unchanged: 2))
    }

    func testIndexTakesTheTextFromMemory() throws {
        store.descriptionText = { $0 }  // would index the markup as it is
        let source = try addSource()
        try savePrepared([card("a", "Alpha", "<b>bold</b> words"), card("b", "Beta")], to: source, at: t(1))
        XCTAssertEqual(try store.refreshSearchIndex(), 2)
        XCTAssertEqual(try found("memo"), ["a"], "the prepared text was indexed")
        XCTAssertEqual(try found("bold"), ["a"])
        XCTAssertEqual(try found("beta"), ["b"])
        // A changed card: the change log names it and its text is read back (a row handed over
        // may be older than the card); the new text replaces the old one.
        try savePrepared([card("a", "Alpha", "fresh"), card("b", "Beta")], to: source, at: t(2))
        XCTAssertEqual(try store.refreshSearchIndex(), 1)
        XCTAssertEqual(try found("fresh"), ["a"])
        XCTAssertEqual(try found("bold"), [])
        XCTAssertEqual(try store.refreshSearchIndex(), 0, "nothing left waiting")
        assertSearchIndexInStep()
    }

    /// Cards saved without text (plain path) next to prepared ones: the refresh reads those.
    func testMixedWithCardsSavedWithoutText() throws {
        let source = try addSource()
        try savePrepared([card("a", "Alpha", "apple")], to: source, at: t(1))
        try save([card("b", "Beta", "banana")], to: source, at: t(1))
        try savePrepared([card("c", "Gamma", "cherry")], to: source, at: t(1))
        XCTAssertEqual(try store.refreshSearchIndex(), 3)
        XCTAssertEqual(try found("apple OR banana OR cherry"), ["a", "b", "c"])
        XCTAssertEqual(try found("memo"), ["a", "c"], "b came from the database, converted by the store")
    }

    /// A save that rolls back leaves nothing for the index; a card deleted before the refresh
    /// is not indexed.
    func testRolledBackSavesAndDeletedCardsAreNotIndexed() throws {
        let source = try addSource()
        let gone = try addSource("https://example.org/gone.xml")
        try savePrepared([card("g", "Ghost", "phantom")], to: gone, at: t(1))
        try store.removeSource(gone)
        XCTAssertThrowsError(try savePrepared([card("x", "Lost", "vanished")], to: SourceID(rawValue: 9_999), at: t(1)))
        try savePrepared([card("a", "Kept", "present")], to: source, at: t(1))
        try store.refreshSearchIndex()
        XCTAssertEqual(try found("phantom"), [])
        XCTAssertEqual(try found("vanished"), [])
        XCTAssertEqual(try found("present"), ["a"])
        assertSearchIndexInStep()
    }
}
