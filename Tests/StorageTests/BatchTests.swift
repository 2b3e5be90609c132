import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Batch mode (`feeds update`): the write methods join one transaction until a commit, each
/// still all-or-nothing on its own; another connection sees nothing of a batch before its commit
/// (so a kill before it loses the batch whole), and the search index takes only committed cards.
final class BatchTests: StoreTestCase {
    private func prepared(_ cards: [Card]) -> PreparedCards {
        PreparedCards(cards, descriptionText: { $0 })
    }

    func testOtherConnectionsSeeTheBatchOnlyOnceCommitted() throws {
        let first = try addSource("https://a.example/feed")
        let second = try addSource("https://b.example/feed")
        store.beginBatch()
        XCTAssertTrue(store.inBatch)
        XCTAssertFalse(store.batchHasWrites, "no transaction before the first write")
        try save([article("a1"), article("a2")], to: first, at: t(1))
        try store.recordNotModified(sourceID: second, now: t(1), nextDue: t(2))
        XCTAssertTrue(store.batchHasWrites)
        let reader = try FeedStore(path: databasePath)
        XCTAssertEqual(try reader.cards().count, 0, "uncommitted")
        try store.commitBatch()
        XCTAssertTrue(store.inBatch, "batch mode goes on")
        XCTAssertFalse(store.batchHasWrites)
        XCTAssertEqual(try reader.cards().count, 2)
        XCTAssertEqual(try reader.sources().first { $0.id == second }?.lastSuccessAt, t(1))
        try save([article("a3")], to: first, at: t(2))
        try store.endBatch()
        XCTAssertFalse(store.inBatch)
        XCTAssertEqual(try reader.cards().count, 3)
        try save([article("a4")], to: first, at: t(3))
        XCTAssertEqual(try reader.cards().count, 4, "out of batch mode: a transaction per call again")
    }

    func testAFailedSaveLeavesTheBatchsOtherWrites() throws {
        let source = try addSource()
        store.beginBatch()
        try save([article("kept")], to: source, at: t(1))
        XCTAssertThrowsError(try save([article("lost")], to: SourceID(rawValue: 999), at: t(1))) { error in
            XCTAssertEqual(error as? StorageError, .noSuchSource(id: SourceID(rawValue: 999)))
        }
        try save([article("after")], to: source, at: t(1))
        try store.endBatch()
        XCTAssertEqual(try allCards().compactMap(\.card.id).sorted(), ["after", "kept"])
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testSearchIndexTakesCommittedCardsFromMemory() throws {
        let source = try addSource()
        var conversions = 0
        store.descriptionText = { conversions += 1; return $0 }
        store.beginBatch()
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"),
                            prepared: prepared([article("p", description: "plum jam")]),
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        try store.commitBatch()
        XCTAssertEqual(try store.refreshSearchIndex(), 1)
        try store.endBatch()
        XCTAssertEqual(conversions, 0, "the text came with the prepared card")
        XCTAssertEqual(try store.search("plum").compactMap(\.card.id), ["p"])
    }

    func testADroppedBatchLeavesNothingAndNothingToIndex() throws {
        let source = try addSource()
        do {
            let other = try FeedStore(path: databasePath)
            other.beginBatch()
            try other.saveFetch(sourceID: source, feed: FeedInfo(title: "Feed"),
                                prepared: prepared([article("gone", description: "ghost words")]),
                                validators: CacheValidators(), now: t(1), nextDue: nil)
            // Closed without a commit, as a killed process would leave it.
        }
        XCTAssertEqual(try allCards().count, 0)
        try save([article("real", description: "ghost words")], to: source, at: t(2))
        XCTAssertEqual(try store.search("ghost").compactMap(\.card.id), ["real"])
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }
}
