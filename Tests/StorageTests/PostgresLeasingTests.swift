import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Leases of due sources: what keeps update workers on several machines apart.
final class PostgresLeasingTests: PostgresTestCase {
    private func addSources(_ store: PostgresStore, _ count: Int) throws -> [SourceID] {
        try store.upsertSources((0..<count).map { SourceConfiguration(url: "https://h\($0 % 7).example/\($0).xml") }, now: t(0))
    }

    func testTwoWorkersLeasingAtOnceNeverGetTheSameSource() throws {
        let store = try PostgresStore(address: databaseURL)
        let all = try addSources(store, 300)
        let url = databaseURL!
        let now = t(1)
        let leased = Locked<[String: [SourceID]]>([:])
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let worker = "worker-\(index)"
            do {
                let mine = try PostgresStore(address: url)
                var got: [SourceID] = []
                // Small batches, as fast as they come: the two workers' statements interleave.
                while true {
                    let batch = try mine.leaseDueSources(batch: 7, leaseSeconds: 600, worker: worker, now: now)
                    if batch.isEmpty { break }
                    got += batch.map(\.id)
                }
                leased.withLock { $0[worker] = got }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let byWorker = leased.withLock { $0 }
        let first = byWorker["worker-0"] ?? [], second = byWorker["worker-1"] ?? []
        XCTAssertEqual(Set(first).intersection(second), [], "a source leased twice")
        XCTAssertEqual(first.count + second.count, all.count, "a source leased twice by one worker, or not at all")
        XCTAssertEqual(Set(first).union(second), Set(all))
        for id in first.prefix(5) { XCTAssertEqual(try store.lease(of: id), SourceLease(worker: "worker-0", until: t(1, 600))) }
    }

    func testALockedSourceIsSkippedNotWaitedFor() throws {
        let store = try PostgresStore(address: databaseURL)
        let ids = try addSources(store, 3)
        // Another worker in the middle of leasing source 1: its row is locked.
        let other = try PGConnection(address: databaseURL)
        try other.execute("BEGIN", context: "test")
        try other.execute("SELECT id FROM sources WHERE id = $1 FOR UPDATE", [SQLValue(ids[0])], context: "test")
        let got = try store.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "a", now: t(1))
        XCTAssertEqual(got.map(\.id), [ids[1], ids[2]])
        try other.execute("ROLLBACK", context: "test")
        XCTAssertEqual(try store.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "a", now: t(1)).map(\.id), [ids[0]])
    }

    func testAnExpiredLeaseIsTakenByAnotherWorker() throws {
        let a = try PostgresStore(address: databaseURL)
        let b = try PostgresStore(address: databaseURL)
        let ids = try addSources(a, 4)
        XCTAssertEqual(try a.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "a", now: t(1)).map(\.id), ids)
        // Worker a was killed: nothing released. Until the deadline nobody else gets them...
        XCTAssertEqual(try b.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "b", now: t(1, 59)), [])
        // ...at it, worker b does, for a lease of its own.
        XCTAssertEqual(try b.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "b", now: t(1, 60)).map(\.id), ids)
        XCTAssertEqual(try b.lease(of: ids[0]), SourceLease(worker: "b", until: t(1, 120)))
        // The dead worker's release (should it come back) no longer touches them.
        XCTAssertEqual(try a.releaseLeases(worker: "a", sources: nil), 0)
        XCTAssertEqual(try b.lease(of: ids[3])?.worker, "b")
    }

    func testATakeoverIsCountedOnlyWhenTheWorkerBeforeStoppedWhileReadingTheSource() throws {
        let a = try PostgresStore(address: databaseURL)
        let b = try PostgresStore(address: databaseURL)
        let ids = try addSources(a, 3)
        a.fence = "a"
        _ = try a.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "a", now: t(1))
        // Worker a dies while reading ids[0]; ids[1] it had not begun; ids[2] it finished but
        // did not release.
        try a.markReading(sourceID: ids[0], now: t(1))
        try a.recordNotModified(sourceID: ids[2], now: t(1), nextDue: t(1, 30))
        XCTAssertEqual(try b.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "b", now: t(1, 60)).map(\.id), ids)
        XCTAssertEqual(try b.leaseTakeovers(of: ids), [ids[0]: 1, ids[1]: 0, ids[2]: 0])
        // b dies too, still reading ids[0] (its mark never cleared), and c takes over: two in a row.
        XCTAssertEqual(try b.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "c", now: t(1, 120)).count, 3)
        XCTAssertEqual(try b.leaseTakeovers(of: [ids[0]]), [ids[0]: 2])
        // An outcome ends the count; so does a failure (also an outcome).
        b.fence = "c"
        try b.recordFailure(sourceID: ids[0], message: "x", now: t(1, 121), nextDue: nil)
        XCTAssertEqual(try b.leaseTakeovers(of: [ids[0]]), [ids[0]: 0])
        // A released lease is no takeover, mark or not.
        try b.markReading(sourceID: ids[1], now: t(1, 122))
        try b.releaseLeases(worker: "c", sources: nil)
        _ = try a.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "d", now: t(1, 123))
        XCTAssertEqual(try a.leaseTakeovers(of: [ids[1]]), [ids[1]: 0])
    }

    func testOnlyDueEnabledSourcesAreLeasedTheLongestWaitingFirst() throws {
        let store = try PostgresStore(address: databaseURL)
        let ids = try addSources(store, 5)
        try store.recordNotModified(sourceID: ids[0], now: t(0), nextDue: t(0, 300))
        try store.recordNotModified(sourceID: ids[1], now: t(0), nextDue: t(0, 100))
        try store.recordNotModified(sourceID: ids[2], now: t(0), nextDue: t(5))
        try store.disable(sourceID: ids[3], reason: "HTTP 410 Gone")
        // Never scheduled (ids[4]) first, then by due time.
        let got = try store.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "w", now: t(1))
        XCTAssertEqual(got.map(\.id), [ids[0], ids[1], ids[4]].sorted(), "read back in id order")
        XCTAssertEqual(try store.releaseLeases(worker: "w", sources: nil), 3)
        XCTAssertEqual(try store.leaseDueSources(batch: 2, leaseSeconds: 60, worker: "w", now: t(1)).map(\.id).sorted(),
                       [ids[1], ids[4]].sorted())
        // A batch below one takes one.
        XCTAssertEqual(try store.leaseDueSources(batch: 0, leaseSeconds: 60, worker: "w", now: t(1)).map(\.id), [ids[0]])
    }

    func testReleasingGivesBackOnlyTheWorkersOwnLeases() throws {
        let store = try PostgresStore(address: databaseURL)
        let ids = try addSources(store, 4)
        _ = try store.leaseDueSources(batch: 2, leaseSeconds: 60, worker: "a", now: t(1))
        _ = try store.leaseDueSources(batch: 2, leaseSeconds: 60, worker: "b", now: t(1))
        XCTAssertEqual(try store.releaseLeases(worker: "a", sources: [ids[0], ids[2]]), 1, "ids[2] is b's")
        XCTAssertNil(try store.lease(of: ids[0]))
        XCTAssertEqual(try store.lease(of: ids[1])?.worker, "a")
        XCTAssertEqual(try store.lease(of: ids[2])?.worker, "b")
        // Released, a source is leasable again at once.
        XCTAssertEqual(try store.leaseDueSources(batch: 10, leaseSeconds: 60, worker: "c", now: t(1)).map(\.id), [ids[0]])
        XCTAssertEqual(try store.releaseLeases(worker: "b", sources: nil), 2)
    }

    func testRecordingAnOutcomeKeepsTheLeaseUntilReleased() throws {
        // The worker releases after recording; a save alone does not free the source for
        // another worker within the same round (it is due again only at nextDue anyway).
        let store = try PostgresStore(address: databaseURL)
        let ids = try addSources(store, 1)
        _ = try store.leaseDueSources(batch: 1, leaseSeconds: 60, worker: "a", now: t(1))
        try store.saveFetch(sourceID: ids[0], feed: FeedInfo(), cards: [], validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertEqual(try store.lease(of: ids[0])?.worker, "a")
        XCTAssertEqual(try store.leaseDueSources(batch: 1, leaseSeconds: 60, worker: "b", now: t(1, 1)), [])
        XCTAssertEqual(try store.releaseLeases(worker: "a", sources: ids), 1)
        XCTAssertEqual(try store.leaseDueSources(batch: 1, leaseSeconds: 60, worker: "b", now: t(1, 1)).map(\.id), ids)
    }

    func testAnIdleWorkerKnowsWhenTheNextSourceIsLeasable() throws {
        let store = try PostgresStore(address: databaseURL)
        XCTAssertNil(try store.nextLeasableAt(now: t(1)), "no source at all")
        let ids = try addSources(store, 3)
        XCTAssertEqual(try store.nextLeasableAt(now: t(1)), t(1), "never scheduled: now")
        try store.recordNotModified(sourceID: ids[0], now: t(1), nextDue: t(1, 600))
        try store.recordNotModified(sourceID: ids[1], now: t(1), nextDue: t(1, 300))
        try store.recordNotModified(sourceID: ids[2], now: t(1), nextDue: t(1, 100))
        XCTAssertEqual(try store.nextLeasableAt(now: t(1)), t(1, 100))
        // Leased past its due time, a source is leasable when the lease ends.
        XCTAssertEqual(try store.leaseDueSources(batch: 5, leaseSeconds: 400, worker: "a", now: t(1, 100)).map(\.id), [ids[2]])
        XCTAssertEqual(try store.nextLeasableAt(now: t(1, 100)), t(1, 300))
        try store.recordNotModified(sourceID: ids[1], now: t(1), nextDue: t(1, 900))
        XCTAssertEqual(try store.nextLeasableAt(now: t(1, 100)), t(1, 500), "the lease of ids[2] ends before ids[0] is due")
        try store.disable(sourceID: ids[2], reason: "gone")
        XCTAssertEqual(try store.nextLeasableAt(now: t(1, 100)), t(1, 600))
        // A due time in the past is now.
        XCTAssertEqual(try store.nextLeasableAt(now: t(2)), t(2))
    }

    func testAWorkerWhoseLeaseWasTakenOverRecordsNothing() throws {
        let a = try PostgresStore(address: databaseURL)
        let b = try PostgresStore(address: databaseURL)
        a.fence = "a"
        b.fence = "b"
        let ids = try addSources(a, 2)
        _ = try a.leaseDueSources(batch: 2, leaseSeconds: 60, worker: "a", now: t(1))
        // a's fetch of ids[0] outlives its lease; b takes the source over and saves first.
        XCTAssertEqual(try b.leaseDueSources(batch: 1, leaseSeconds: 60, worker: "b", now: t(1, 60)).map(\.id), [ids[0]])
        try b.saveFetch(sourceID: ids[0], feed: FeedInfo(title: "New"), cards: [Card(id: "new", title: "New")],
                        validators: CacheValidators(etag: "new"), now: t(1, 61), nextDue: t(2))
        let late62 = t(1, 62)
        let late: [(String, () throws -> Void)] = [
            ("saveFetch", { _ = try a.saveFetch(sourceID: ids[0], feed: FeedInfo(title: "Old"), cards: [Card(id: "old", title: "Old")],
                                                validators: CacheValidators(etag: "old"), now: late62, nextDue: late62) }),
            ("recordNotModified", { try a.recordNotModified(sourceID: ids[0], now: late62, nextDue: nil) }),
            ("recordFailure", { _ = try a.recordFailure(sourceID: ids[0], message: "timed out", now: late62, nextDue: nil) }),
            ("updateFetchURL", { try a.updateFetchURL(sourceID: ids[0], to: "https://elsewhere.example/") }),
            ("markReading", { try a.markReading(sourceID: ids[0], now: late62) }),
        ]
        for (name, call) in late {
            XCTAssertThrowsError(try call(), name) { error in
                XCTAssertEqual(error as? PostgresError,
                               .leaseLost(server: a.server, source: ids[0].rawValue, worker: "a", holder: "b"), name)
                XCTAssertTrue(error.localizedDescription.contains("the lease of source \(ids[0]) is no longer a's (it expired; b holds it now)"),
                              error.localizedDescription)
            }
        }
        let kept = try XCTUnwrap(try a.source(id: ids[0]))
        XCTAssertEqual(kept.feed.title, "New")
        XCTAssertEqual(kept.validators.etag, "new")
        XCTAssertEqual(kept.cardCount, 1)
        XCTAssertEqual(kept.consecutiveFailures, 0)
        XCTAssertNil(kept.fetchURL)
        // Its expired lease that nobody took (ids[1]) still lets a record; a missing source is still noSuchSource.
        try a.saveFetch(sourceID: ids[1], feed: FeedInfo(), cards: [], validators: CacheValidators(), now: t(1, 62), nextDue: nil)
        XCTAssertThrowsError(try a.recordFailure(sourceID: SourceID(rawValue: 999), message: "x", now: t(2), nextDue: nil)) { error in
            XCTAssertEqual(error as? StorageError, .noSuchSource(id: SourceID(rawValue: 999)))
        }
        // A person's command is never fenced.
        try a.enable(sourceID: ids[0])
    }
}
