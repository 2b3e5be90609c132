@testable import Aggregator
import FeedModel
import Fetching
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// Each host's concurrency carried from one `feeds update` to the next (issue 21: an all-304
/// pass of 5,000 feeds on 20 hosts at 50 ms spent its first round trips at 6 and 12 a host):
/// the store keeps the limit a run ended at for a week, a fetcher starts a host there, and a
/// run records what its hosts ended at.
final class HostStartLimitsTests: XCTestCase {
    private let now = Timestamp(secondsSince1970: 1_800_000_000)

    func testTheStoreKeepsRecentLimitsWithinBounds() throws {
        let home = TemporaryDirectory()
        let store = try FeedStore(path: home.path + "/feeds.db")
        XCTAssertEqual(try store.hostStartLimits(now: now), [:])
        try store.recordHostLimits(["a.test": 24, "b.test": 0, "c.test": 5_000, "": 3], now: now)
        XCTAssertEqual(try store.hostStartLimits(now: now), ["a.test": 24, "b.test": 1, "c.test": 1_000])
        // A week on they still count; a second later they do not.
        let week = FeedStore.hostLimitLifetimeSeconds
        XCTAssertEqual(try store.hostStartLimits(now: Timestamp(secondsSince1970: now.secondsSince1970 + week)).count, 3)
        let later = Timestamp(secondsSince1970: now.secondsSince1970 + week + 1)
        XCTAssertEqual(try store.hostStartLimits(now: later), [:])
        // Recording again replaces a host's limit and forgets the hosts gone quiet.
        try store.recordHostLimits(["a.test": 9], now: later)
        XCTAssertEqual(try store.hostStartLimits(now: later), ["a.test": 9])
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM host_limits").queryOne { $0.int(0) }, 1)
        // Times at the ends of Int64 neither trap nor lose the rows.
        try store.recordHostLimits(["d.test": 4], now: Timestamp(secondsSince1970: .min))
        XCTAssertEqual(try store.hostStartLimits(now: Timestamp(secondsSince1970: .min))["d.test"], 4)
    }

    /// Before any answer comes back, a host with a start limit has that many transfers at once
    /// (within the ceiling); without one, `perHostStart`.
    func testAFetcherStartsAHostAtItsRememberedLimit() throws {
        let server = try LoopbackHTTPServer()
        for i in 0..<40 { server.route("/f\(i)", .text("feed \(i)")) }
        let host = try XCTUnwrap(URL(string: server.url("/f0"))?.host)
        for (remembered, expected) in [(nil, 2), (8, 8), (50, 12)] as [(Int?, Int)] {
            var limits = FetchLimitsForTests.make()
            limits.maxInFlight = 40
            limits.maxPerHost = 12
            limits.perHostStart = 2
            let fetcher = try Fetcher(limits: limits)
            if let remembered { fetcher.hostStartLimits = [host: remembered] }
            var beforeAnyAnswer = 0, answers = 0
            fetcher.fetchAll(count: 40, request: { FetchRequest(id: Int64($0), url: server.url("/f\($0)")) },
                             onComplete: { _, result in if case .success = result { answers += 1 } },
                             mayStart: { load in
                                 // Asked before each further start, the host's limit tested after.
                                 if load.completed == 0 { beforeAnyAnswer = max(beforeAnyAnswer, load.running) }
                                 return true
                             })
            XCTAssertEqual(answers, 40)
            XCTAssertEqual(beforeAnyAnswer, expected, "remembered \(String(describing: remembered))")
            // Healthy answers raise it towards the ceiling (a slow one, on a loaded machine, holds it).
            let ended = try XCTUnwrap(fetcher.hostLimits[host]?.limit)
            XCTAssertTrue((expected...12).contains(ended), "ended at \(ended)")
        }
    }

    /// An update records where its hosts ended, and the next one starts there.
    func testAnUpdateRecordsItsHostsLimits() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        for i in 0..<30 { server.route("/f\(i)", .text(rss("f\(i)", items: ["a\(i)"]), contentType: "application/rss+xml")) }
        try home.write("sources", (0..<30).map { server.url("/f\($0)") }.joined(separator: "\n") + "\n")
        var limits = FetchLimitsForTests.make()
        limits.maxPerHost = 24
        limits.perHostStart = 6
        let runner = UpdateRunner(limits: limits, clock: { [now] in now })
        let paths = try FeedsPaths.resolve(home: home.path, environment: [:])
        let workspace = try Workspace(paths: paths, now: now)
        XCTAssertEqual(try runner.run(.all, in: workspace).ok, 30)
        let host = try XCTUnwrap(URL(string: server.url("/f0"))?.host)
        // 30 answers from 6: up to the ceiling when all are fast (a slow one holds the limit).
        let recorded = try workspace.store.hostStartLimits(now: now)
        XCTAssertEqual(Array(recorded.keys), [host])
        XCTAssertTrue((7...24).contains(recorded[host] ?? 0), "recorded \(recorded)")
        // Without an adaptive limit nothing is read or recorded.
        try workspace.store.db.execute("DELETE FROM host_limits")
        var fixed = limits
        fixed.perHostStart = nil
        XCTAssertEqual(try UpdateRunner(limits: fixed, clock: { [now] in now }).run(.all, in: workspace).reports.count, 30)
        XCTAssertEqual(try workspace.store.hostStartLimits(now: now), [:])
    }
}
