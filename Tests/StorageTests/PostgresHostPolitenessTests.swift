import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Per-host politeness shared by the workers: slots across all of them, and backoff.
final class PostgresHostPolitenessTests: PostgresTestCase {
    private func slot(_ grant: HostSlotGrant, file: StaticString = #filePath, line: UInt = #line) throws -> HostSlot {
        guard case .granted(let slot) = grant else {
            XCTFail("expected a slot, got \(grant)", file: file, line: line)
            throw XCTSkip("no slot")
        }
        return slot
    }

    func testWorkersTogetherHoldNoMoreSlotsOfAHostThanTheLimit() throws {
        let a = try PostgresStore(address: databaseURL)
        let b = try PostgresStore(address: databaseURL)
        let host = "feeds.example"
        var held: [HostSlot] = []
        for (index, store) in [a, b, a, b].enumerated() {
            held.append(try slot(store.acquireHostSlot(host: host, limit: 4, worker: "w\(index % 2)", leaseSeconds: 60, now: t(1))))
        }
        XCTAssertEqual(try b.acquireHostSlot(host: host, limit: 4, worker: "w1", leaseSeconds: 60, now: t(1)), .full(held: 4))
        // Another host is not affected.
        _ = try slot(b.acquireHostSlot(host: "other.example", limit: 4, worker: "w1", leaseSeconds: 60, now: t(1)))
        // Given back with a's next statement about hosts (a round trip saved per request):
        // until then the host is full for the others, never fuller than the limit.
        try a.releaseHostSlot(held[1])
        XCTAssertEqual(try b.acquireHostSlot(host: host, limit: 4, worker: "w1", leaseSeconds: 60, now: t(1)), .full(held: 4))
        _ = try slot(a.acquireHostSlot(host: "other.example", limit: 4, worker: "w0", leaseSeconds: 60, now: t(1)))
        _ = try slot(b.acquireHostSlot(host: host, limit: 4, worker: "w1", leaseSeconds: 60, now: t(1)))
        try a.releaseHostSlot(held[0])
        try a.flushReleasedHostSlots()
        _ = try slot(b.acquireHostSlot(host: host, limit: 4, worker: "w1", leaseSeconds: 60, now: t(1)))
        XCTAssertEqual(try a.hostState(host: host, now: t(1)), HostState(backoffUntil: nil, liveSlots: 4))
    }

    func testThreeWorkersRacingNeverExceedTheLimit() throws {
        let url = databaseURL!
        let now = t(1)
        let inFlight = Locked((current: 0, most: 0, grants: 0))
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            do {
                let store = try PostgresStore(address: url)
                for _ in 0..<40 {
                    guard case .granted(let slot) = try store.acquireHostSlot(host: "busy.example", limit: 2, worker: "w\(index)",
                                                                              leaseSeconds: 600, now: now) else { continue }
                    inFlight.withLock { $0.current += 1; $0.most = max($0.most, $0.current); $0.grants += 1 }
                    // The "request": a round trip to the server, while the slot is held.
                    _ = try store.hostState(host: "busy.example", now: now)
                    inFlight.withLock { $0.current -= 1 }
                    try store.releaseHostSlot(slot)
                }
                try store.flushReleasedHostSlots()
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let seen = inFlight.withLock { $0 }
        XCTAssertLessThanOrEqual(seen.most, 2)
        XCTAssertGreaterThan(seen.grants, 0)
        XCTAssertEqual(try PostgresStore(address: url).hostState(host: "busy.example", now: now).liveSlots, 0)
    }

    func testAKilledWorkersSlotsExpire() throws {
        let store = try PostgresStore(address: databaseURL)
        _ = try slot(store.acquireHostSlot(host: "h.example", limit: 1, worker: "dead", leaseSeconds: 30, now: t(1)))
        XCTAssertEqual(try store.acquireHostSlot(host: "h.example", limit: 1, worker: "live", leaseSeconds: 30, now: t(1, 29)), .full(held: 1))
        let taken = try slot(store.acquireHostSlot(host: "h.example", limit: 1, worker: "live", leaseSeconds: 30, now: t(1, 30)))
        XCTAssertEqual(taken.host, "h.example")
        // A limit below one is one.
        XCTAssertEqual(try store.acquireHostSlot(host: "h.example", limit: 0, worker: "live", leaseSeconds: 30, now: t(1, 31)), .full(held: 1))
    }

    func testABackoffHoldsEveryWorkerUntilItEnds() throws {
        let a = try PostgresStore(address: databaseURL)
        let b = try PostgresStore(address: databaseURL)
        try a.recordHostBackoff(host: "slow.example", until: t(1, 120))
        // A shorter one recorded later (another worker's 429 with a smaller Retry-After) keeps the longer.
        try b.recordHostBackoff(host: "slow.example", until: t(1, 60))
        XCTAssertEqual(try b.acquireHostSlot(host: "slow.example", limit: 4, worker: "b", leaseSeconds: 60, now: t(1, 90)),
                       .backingOff(until: t(1, 120)))
        _ = try slot(b.acquireHostSlot(host: "slow.example", limit: 4, worker: "b", leaseSeconds: 60, now: t(1, 120)))
        try b.recordHostBackoff(host: "slow.example", until: t(2))
        XCTAssertEqual(try a.hostState(host: "slow.example", now: t(1, 121)), HostState(backoffUntil: t(2), liveSlots: 1))
        XCTAssertEqual(try a.hostState(host: "never.example", now: t(1)), HostState(backoffUntil: nil, liveSlots: 0))
    }
}
