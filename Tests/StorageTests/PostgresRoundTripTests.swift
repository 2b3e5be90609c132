import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// What a worker's outcomes cost in statements, each a round trip to the server (issue 22: a
/// new feed took 22.7, measured from PostgreSQL's log; a 304 10.1). Counted by the session
/// (`statementsSent`), which the bench checks against the server's log.
final class PostgresRoundTripTests: PostgresTestCase {
    private func statements(_ store: PostgresStore, _ body: () throws -> Void) rethrows -> Int {
        let before = store.statementsSent
        try body()
        return store.statementsSent - before
    }

    private func cards(_ n: Int, changed: Bool = false) -> [Card] {
        (0..<n).map { Card(id: "g\($0)", title: "T\($0)\(changed && $0 == 0 ? " (corrected)" : "")", description: "<p>words \($0)</p>",
                           link: "https://example.org/\($0)", published: t(1), author: "A") }
    }

    func testAFeedsOutcomesTakeOneStatementEachAndTheCardsTwo() throws {
        let store = try PostgresStore(address: databaseURL)
        store.fence = "w"
        let id = try store.upsertSource(SourceConfiguration(url: "https://example.org/feed.xml"), now: t(0))
        XCTAssertEqual(try store.leaseDueSources(batch: 1, leaseSeconds: 60, worker: "w", now: t(1)).map(\.id), [id])
        // A slot of the host, one call whatever the host's state; given back with the mark.
        var slot: HostSlot?
        XCTAssertEqual(try statements(store) {
            guard case .granted(let granted) = try store.acquireHostSlot(host: "example.org", limit: 2, worker: "w", leaseSeconds: 60, now: t(1))
            else { return XCTFail("no slot") }
            slot = granted
        }, 1)
        try store.releaseHostSlot(try XCTUnwrap(slot))
        XCTAssertEqual(try statements(store) { try store.markReading(sourceID: id, now: t(1), releasing: [id]) }, 1)
        XCTAssertEqual(try store.hostState(host: "example.org", now: t(1)).liveSlots, 0, "the mark gave the slot back")
        // New cards: the source's row, the cards, their search rows.
        XCTAssertEqual(try statements(store) {
            let saved = try store.saveFetch(sourceID: id, feed: FeedInfo(title: "F"), cards: cards(50), validators: CacheValidators(),
                                            now: t(1), nextDue: t(2))
            XCTAssertEqual(saved, SaveSummary(new: 50, updated: 0, unchanged: 0))
        }, 5, "BEGIN, the source, the cards, the search rows, COMMIT")
        // Within a batch's transaction the BEGIN and COMMIT are the batch's; unchanged cards need no search rows.
        var count = 0
        try store.inOneTransaction {
            count = try statements(store) {
                let saved = try store.saveFetch(sourceID: id, feed: FeedInfo(title: "F"), cards: cards(50), validators: CacheValidators(),
                                                now: t(2), nextDue: t(3))
                XCTAssertEqual(saved, SaveSummary(new: 0, updated: 0, unchanged: 50))
                try store.recordNotModified(sourceID: id, now: t(2), nextDue: t(3))
            }
        }
        XCTAssertEqual(count, 3)
        let changed = try store.saveFetch(sourceID: id, feed: FeedInfo(title: "F"), cards: cards(50, changed: true) + [Card(id: "n", title: "New")],
                                          validators: CacheValidators(), now: t(3), nextDue: t(4))
        XCTAssertEqual(changed, SaveSummary(new: 1, updated: 1, unchanged: 49))
        // The search rows are the cards' as written: the corrected title is found, the new card too.
        XCTAssertEqual(try store.search("corrected", query: CardQuery(), order: .newest).map(\.card.title), ["T0 (corrected)"])
        XCTAssertEqual(try store.search("new", query: CardQuery(), order: .newest).map(\.card.title), ["New"])
        XCTAssertEqual(try store.searchCount("words", query: CardQuery()), 50)
        // Ids in the fetch's order, as SQLite gives them.
        let ids = try store.connection.execute("SELECT card_key FROM cards ORDER BY id", context: "test")
        XCTAssertEqual(ids.string(0, 0).map { $0.contains("g0") }, true)
    }

    func testAFailedWriteRollsTheWholeBatchBackSoEachOutcomeIsWrittenAlone() throws {
        let store = try PostgresStore(address: databaseURL)
        let ids = try store.upsertSources((0..<2).map { SourceConfiguration(url: "https://example.org/\($0).xml") }, now: t(0))
        XCTAssertThrowsError(try store.inOneTransaction {
            try store.recordNotModified(sourceID: ids[0], now: t(1), nextDue: t(2))
            // A save that fails on the server (a refused value), its error caught by the caller
            // as the runner's writes catch theirs: the transaction cannot commit all the same.
            XCTAssertThrowsError(try store.connection.execute("UPDATE sources SET keep_days = -1 WHERE id = $1", [SQLValue(ids[1])],
                                                              context: "test"))
        }) { error in
            guard case PostgresError.batchRolledBack? = error as? PostgresError else { return XCTFail("\(error)") }
        }
        XCTAssertNil(try store.source(id: ids[0])?.lastAttemptAt, "nothing of the batch committed")
        // And the session goes on.
        try store.inOneTransaction { try store.recordNotModified(sourceID: ids[0], now: t(1), nextDue: t(2)) }
        XCTAssertEqual(try store.source(id: ids[0])?.lastAttemptAt, t(1))
    }
}
