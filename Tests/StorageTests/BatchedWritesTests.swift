import XCTest
import FeedModel
@testable import Storage

/// `inOneTransaction`: many sources' writes in one commit (what `feeds update` does), all of
/// them or none; a failing one breaks the batch, which the caller then writes one by one.
final class BatchedWritesTests: StoreTestCase {
    func testWritesOfABatchAreSavedTogetherAndTheirSearchRowsWaitForTheCommit() throws {
        let a = try addSource("https://a.example/feed"), b = try addSource("https://b.example/feed")
        let prepared = { (guid: String) in PreparedCards([self.article(guid)], descriptionText: { $0 }) }
        try store.inOneTransaction {
            try store.saveFetch(sourceID: a, feed: FeedInfo(title: "A"), prepared: prepared("a1"),
                                validators: CacheValidators(etag: "ea"), now: t(1), nextDue: t(2))
            XCTAssertTrue(store.searchBacklog.isEmpty, "not committed yet: no row may reach the index")
            try store.recordNotModified(sourceID: b, now: t(1), nextDue: t(3))
            try store.saveFetch(sourceID: b, feed: FeedInfo(title: "B"), prepared: prepared("b1"),
                                validators: CacheValidators(etag: "eb"), now: t(1), nextDue: t(2))
            // Another connection sees nothing of the batch before its commit.
            let other = try FeedStore(path: databasePath)
            XCTAssertEqual(try other.cards().count, 0)
        }
        XCTAssertEqual(try allCards().compactMap(\.card.id).sorted(), ["a1", "b1"])
        XCTAssertEqual(try store.source(id: a)?.validators.etag, "ea")
        XCTAssertEqual(try store.source(id: b)?.validators.etag, "eb")
        XCTAssertEqual(store.searchBacklog.count, 2)
        assertSearchIndexInStep()
    }

    func testOneFailingWriteRollsTheWholeBatchBackAndEachCanBeWrittenAgainAlone() throws {
        let a = try addSource("https://a.example/feed")
        let missing = SourceID(rawValue: 999)
        var errors: [Error] = []
        XCTAssertThrowsError(try store.inOneTransaction {
            try store.saveFetch(sourceID: a, feed: FeedInfo(title: "A"), cards: [article("a1")],
                                validators: CacheValidators(), now: t(1), nextDue: nil)
            do { try store.recordNotModified(sourceID: missing, now: t(1), nextDue: nil) } catch { errors.append(error) }
            // Broken: nothing further is written in it.
            do { try store.recordFailure(sourceID: a, message: "x", now: t(1), nextDue: nil) } catch { errors.append(error) }
        }) { error in
            XCTAssertEqual(error as? StorageError, .batchNotCommitted(path: databasePath))
        }
        XCTAssertEqual(errors.first as? StorageError, .noSuchSource(id: missing), "its caller sees the write's own error")
        XCTAssertEqual(errors.count, 2)
        XCTAssertEqual(try allCards().count, 0, "rolled back whole")
        XCTAssertNil(try store.source(id: a)?.lastSuccessAt)
        XCTAssertTrue(store.searchBacklog.isEmpty)

        // The store is usable again, and the good write succeeds on its own.
        try save([article("a1")], to: a, at: t(2))
        XCTAssertEqual(try allCards().compactMap(\.card.id), ["a1"])
    }

    func testAMarkReleasedWithTheNextOneIsClearedInTheSameTransaction() throws {
        let a = try addSource("https://a.example/feed"), b = try addSource("https://b.example/feed")
        try store.markReading(sourceID: a, now: t(1))
        try store.markReading(sourceID: b, now: t(1), releasing: [a])
        XCTAssertEqual(try store.interruptedSources(), [b])
    }
}
