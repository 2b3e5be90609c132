@testable import Aggregator
import FeedModel
import Fetching
import Foundation
import Storage
import TestSupport
import XCTest

/// What an update run holds per source for its whole length (issue 21: peak memory flat in the
/// number of feeds): a `RunSlot` (its line's index and its id), its `RunState` only from its
/// request to its outcome (read from the store by id), and its report only when the runner
/// keeps reports. None of it may change what the person is told.
final class RunHoldsLittlePerSourceTests: XCTestCase {
    private var homes: [TemporaryDirectory] = []

    override func tearDown() {
        homes = []
    }

    func testWhatTheRunHoldsPerSourceIsSmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<RunSlot>.stride, 16)
    }

    /// The state read by id when a request is made is the one made from the whole stored
    /// source, field by field.
    func testRunStateReadByIdIsTheStoredSources() throws {
        let home = TemporaryDirectory()
        homes.append(home)
        let store = try FeedStore(path: home.path + "/feeds.db")
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        let plain = try store.upsertSource(SourceConfiguration(url: "https://a.test/feed"), now: now)
        let named = try store.upsertSource(SourceConfiguration(url: "https://b.test/feed", name: "Bee"), now: now)
        let busy = try store.upsertSource(SourceConfiguration(url: "https://c.test/feed"), now: now)
        try store.saveFetch(sourceID: busy, feed: FeedInfo(title: "Sea", refreshHintSeconds: 7200), cards: [],
                            validators: CacheValidators(etag: "\"e1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"), now: now, nextDue: nil)
        try store.recordDegraded(sourceID: busy, note: "the XML is not well-formed at line 3")
        try store.recordFailure(sourceID: busy, message: "boom", now: now, nextDue: nil)
        try store.recordFailure(sourceID: busy, message: "boom", now: now, nextDue: nil)
        try store.updateFetchURL(sourceID: named, to: "https://b.test/moved")
        // Its items delivered, then answered 304 a minute later: the next request likely gets 304.
        let unchanged = try store.upsertSource(SourceConfiguration(url: "https://d.test/feed"), now: now)
        try store.saveFetch(sourceID: unchanged, feed: FeedInfo(title: "Dee"), cards: [],
                            validators: CacheValidators(etag: "\"d1\""), now: now, nextDue: nil)
        XCTAssertEqual(try store.runState(of: unchanged)?.lastAnswerNotModified, false, "the last answer brought its items")
        try store.recordNotModified(sourceID: unchanged, now: Timestamp(secondsSince1970: 1_800_000_060), nextDue: nil)
        XCTAssertEqual(try store.runState(of: unchanged)?.lastAnswerNotModified, true)
        XCTAssertEqual(try store.runState(of: plain)?.lastAnswerNotModified, false, "never fetched")
        for id in [plain, named, busy, unchanged] {
            let stored = try XCTUnwrap(store.source(id: id))
            XCTAssertEqual(try store.runState(of: id), RunState(stored))
        }
        let state = try XCTUnwrap(store.runState(of: busy))
        XCTAssertEqual(state.displayName, "Sea")
        XCTAssertTrue(state.hasFeedTitle)
        XCTAssertEqual(state.refreshHintSeconds, 7200)
        XCTAssertEqual(state.validators.etag, "\"e1\"")
        XCTAssertEqual(state.degraded, "the XML is not well-formed at line 3")
        XCTAssertEqual(state.consecutiveFailures, 2)
        XCTAssertEqual(try store.runState(of: named)?.fetchURL, "https://b.test/moved")
        XCTAssertEqual(try store.runState(of: named)?.displayName, "Bee")
        XCTAssertEqual(try store.runState(of: plain)?.displayName, "https://a.test/feed")
        XCTAssertNil(try store.runState(of: SourceID(rawValue: 999)))
    }

    /// A state is read when first asked for, held while its source is in flight, and let go of
    /// with its outcome; the pass up front learns a redirect target without reading any.
    func testStatesAreHeldOnlyInFlight() throws {
        let home = TemporaryDirectory()
        homes.append(home)
        let store = try FeedStore(path: home.path + "/feeds.db")
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        let a = try store.upsertSource(SourceConfiguration(url: "https://a.test/feed", name: "A"), now: now)
        let b = try store.upsertSource(SourceConfiguration(url: "https://b.test/feed"), now: now)
        try store.updateFetchURL(sourceID: b, to: "https://b.test/moved")
        let entries = [SourceEntry(url: "https://a.test/feed", name: "A", line: 1), SourceEntry(url: "https://b.test/feed", line: 2)]
        let slots = [RunSlot(entry: 0, id: a), RunSlot(entry: 1, id: b)]
        let states = RunStates(held: nil, store: store, fetchURLs: try store.fetchURLs())
        XCTAssertEqual(states.fetchURL(1, entry: entries[1]), "https://b.test/moved")
        XCTAssertNil(states.fetchURL(0, entry: entries[0]))
        XCTAssertEqual(states.readingCount, 0, "the pass up front reads no state")
        XCTAssertEqual(states.state(0, slots[0], entry: entries[0]).displayName, "A")
        XCTAssertEqual(states.state(1, slots[1], entry: entries[1]).fetchURL, "https://b.test/moved")
        XCTAssertEqual(states.readingCount, 2)
        XCTAssertEqual(states.take(0, slots[0], entry: entries[0]).id, a)
        XCTAssertEqual(states.readingCount, 1)
        XCTAssertEqual(states.take(1, slots[1], entry: entries[1]).id, b)
        XCTAssertEqual(states.readingCount, 0, "nothing held once every outcome is recorded")
        // A source removed while the run goes on: what its line says of it.
        let gone = RunSlot(entry: 0, id: SourceID(rawValue: 999))
        XCTAssertEqual(states.take(0, gone, entry: entries[0]).displayName, "A")
        XCTAssertEqual(states.readingCount, 0)
    }

    /// The same two passes (new sources, a 404, a permanent redirect, then 304s) in two homes,
    /// one runner keeping its reports and one only counting them: the same summary line and the
    /// same lines on standard error as `feeds update -v` prints them, and no report kept.
    func testCountingReportsPrintsTheSame() throws {
        let server = try LoopbackHTTPServer()
        server.route("/new", .text(rss("New", items: ["1", "2", "3"]), contentType: "application/rss+xml"))
        server.routeConditional("/cond", etag: "\"c\"", lastModified: nil, .text(rss("Cond", items: ["a"]), contentType: "application/rss+xml"))
        server.route("/gone", .text("no", status: 404))
        server.route("/moved", .redirect(301, to: "/moved-here"))
        server.route("/moved-here", .text(rss("Moved", items: ["m1", "m2"]), contentType: "application/rss+xml"))
        let lines = ["/new", "/cond", "/gone", "/moved"].map { server.url($0) }.joined(separator: "\n") + "\n"

        func passes(keeping: Bool) throws -> [(line: String, said: [String], summary: UpdateSummary)] {
            let home = TemporaryDirectory()
            homes.append(home)
            try home.write("sources", lines)
            let now = Timestamp(secondsSince1970: 1_800_000_000)
            var runner = UpdateRunner(limits: FetchLimitsForTests.make(), clock: { now })
            runner.keepsReports = keeping
            let workspace = try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]), now: now)
            return try (0..<2).map { _ in
                var said: [String] = []
                let summary = try runner.run(.all, in: workspace) { report, done, total in
                    // What `feeds update -v` writes of each report (UpdateCommand), and the count.
                    if let line = report.failureLine { said.append("error: " + line) }
                    if let note = report.note { said.append("warning: " + note) }
                    for note in report.limitNotes { said.append("warning: " + note) }
                    for w in report.warnings { said.append("warning: \(report.name): \(w)") }
                    said.append("progress \(done)/\(total)")
                }
                // Completion order is the network's: compared as a set of lines, in order.
                return (summary.line, said.sorted(), summary)
            }
        }
        let kept = try passes(keeping: true)
        let counted = try passes(keeping: false)
        XCTAssertEqual(kept[0].line, "4 sources: 3 ok (6 new cards), 0 not modified, 1 failed")
        XCTAssertEqual(kept[1].line, "4 sources: 2 ok (0 new cards), 1 not modified, 1 failed")
        for pass in 0..<2 {
            XCTAssertEqual(counted[pass].line, kept[pass].line)
            XCTAssertEqual(counted[pass].said, kept[pass].said)
            XCTAssertEqual(kept[pass].summary.reports.count, 4)
            XCTAssertEqual(counted[pass].summary.reports.count, 0, "counted, not kept")
            XCTAssertEqual(counted[pass].summary.sources, 4)
        }
        XCTAssertTrue(counted[0].said.contains { $0.hasPrefix("error: \(server.url("/gone")): HTTP 404") }, "\(counted[0].said)")
        XCTAssertTrue(counted[0].said.contains { $0.contains("moved permanently to \(server.url("/moved-here"))") }, "\(counted[0].said)")
        XCTAssertTrue(counted[0].said.contains("progress 4/4"))
        XCTAssertEqual(server.requests(path: "/cond").count, 4)
        XCTAssertEqual(server.requests(path: "/moved").count, 2, "the redirect recorded: fetched directly the second time")
    }
}
