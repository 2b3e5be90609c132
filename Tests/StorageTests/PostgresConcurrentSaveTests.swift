import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Two workers saving the same fetch at the same moment (a lease that expired under a slow
/// fetch): the identity key (source, card key) and ON CONFLICT keep every card once.
final class PostgresConcurrentSaveTests: PostgresTestCase {
    func testTheSameFetchSavedByTwoWorkersAtOnceIsSavedOnce() throws {
        let store = try PostgresStore(address: databaseURL)
        let sources = try store.upsertSources((0..<5).map { SourceConfiguration(url: "https://example.org/\($0).xml") }, now: t(0))
        let cards = (0..<60).map { Card(id: "g\($0)", title: "T\($0)", link: "https://example.org/\($0)", published: t(1)) }
        let prepared = PreparedCards(cards)
        let url = databaseURL!
        let now = t(1)
        let summaries = Locked<[SaveSummary]>([])
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let worker = try PostgresStore(address: url)
                for source in sources {
                    let summary = try worker.saveFetch(sourceID: source, feed: FeedInfo(title: "F"), prepared: prepared,
                                                       validators: CacheValidators(), now: now, nextDue: nil, skipped: 0)
                    summaries.withLock { $0.append(summary) }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let all = summaries.withLock { $0 }
        XCTAssertEqual(all.count, 10)
        // Per source, one save inserted the 60 cards and the other found them all unchanged.
        XCTAssertEqual(all.reduce(0) { $0 + $1.new }, 5 * 60)
        XCTAssertEqual(all.reduce(0) { $0 + $1.unchanged }, 5 * 60)
        XCTAssertEqual(all.reduce(0) { $0 + $1.updated }, 0)
        for source in try store.sources() { XCTAssertEqual(source.cardCount, 60, "\(source.id)") }
        let rows = try store.connection.execute("SELECT count(*), count(DISTINCT (source_id, card_key)) FROM cards", context: "test")
        XCTAssertEqual(try rows.int(0, 0), 300)
        XCTAssertEqual(try rows.int(0, 1), 300)
    }

    func testTheIdentityKeyRefusesADuplicateWrittenByHand() throws {
        // The constraint lives in the schema, not only in the store's code.
        let store = try PostgresStore(address: databaseURL)
        let id = try store.upsertSource(SourceConfiguration(url: "https://example.org/feed.xml"), now: t(0))
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [Card(id: "a", title: "A")],
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertThrowsError(try store.connection.execute("""
            INSERT INTO cards (source_id, card_key, kind, content_hash, first_seen_at, changed_at, last_seen_at, sort_date)
            SELECT source_id, card_key, kind, 'x', 0, 0, 0, 0 FROM cards
            """, context: "copying a card")) { error in
            guard case PostgresError.constraintViolated? = error as? PostgresError else { return XCTFail("\(error)") }
        }
    }
}
