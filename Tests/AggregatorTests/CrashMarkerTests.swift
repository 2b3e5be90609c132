import FeedModel
import Foundation
import Storage
import TestSupport
import XCTest

/// A crash must not repeat forever. A run that dies inside a source leaves the source's reading
/// mark in the store; the next run reports that source failed ("the last update stopped while
/// reading this source"), backs it off and updates the others; from then on the source is
/// fetched last, alone, in a child process, where even a trap is only its failure.
final class CrashMarkerTests: XCTestCase {
    var server: LoopbackHTTPServer!
    var home: TemporaryDirectory!
    let others = ["/a", "/b", "/c"]

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        home = TemporaryDirectory()
        for path in others + ["/suspect"] {
            // The others answer late, so a fetch of the suspect alongside them would overlap them.
            server.route(path, ScriptedResponse.text(rss("feed \(path)", items: ["\(path)-1", "\(path)-2"]), contentType: "application/rss+xml")
                .delayed(by: path == "/suspect" ? .zero : .milliseconds(150)))
        }
        try home.write("sources", (others + ["/suspect"]).map { server.url($0) }.joined(separator: "\n") + "\n")
    }

    override func tearDown() { server.stop() }

    func update(_ extra: [String] = ["--all"], trap: String? = nil) throws -> CLIRun {
        try CLIRun.run(["--home", home.path, "update", "-v"] + extra, timeout: 60,
                       environment: trap.map { ["FEEDS_TEST_TRAP_READING": $0] } ?? [:])
    }

    func suspect(_ store: FeedStore) throws -> StoredSource {
        try XCTUnwrap(store.source(url: server.url("/suspect")))
    }

    /// As a crashed run leaves it: the mark set on one source.
    func testAMarkLeftByACrashedRunFailsThatSourceBacksItOffAndFetchesItLastAndAlone() throws {
        XCTAssertEqual(try update().status, 0)
        let store = try FeedStore(path: home.file("feeds.db").path)
        try store.markReading(sourceID: try suspect(store).id, now: Timestamp(secondsSince1970: 1_800_000_000))
        let before = server.requests(path: "/suspect").count

        let next = try update()
        XCTAssertEqual(next.status, 1, next.stderr)
        XCTAssertTrue(next.stderr.contains("/suspect: the last update stopped while reading this source"), next.stderr)
        XCTAssertTrue(next.stdout.contains("4 sources: 3 ok"), next.stdout)
        XCTAssertEqual(server.requests(path: "/suspect").count, before, "backed off: not fetched again in that run")
        var s = try suspect(store)
        XCTAssertNil(s.readingSince)
        XCTAssertNotNil(s.isolatedReason)
        XCTAssertEqual(s.consecutiveFailures, 1)
        XCTAssertGreaterThan(try XCTUnwrap(s.nextDueAt).seconds(since: try XCTUnwrap(s.lastAttemptAt)), 5 * 60)
        XCTAssertTrue(try store.sources().filter { $0.id != s.id }.allSatisfy { $0.lastError == nil && $0.cardCount == 2 })
        let listed = try CLIRun.run(["--home", home.path, "sources"])
        XCTAssertTrue(listed.stdout.contains("fetched last and alone, in a process of its own: an update stopped while reading it"), listed.stdout)

        // Due again (--all): fetched after every other source has been answered, in its own process.
        let isolated = try update()
        XCTAssertEqual(isolated.status, 0, isolated.stderr)
        XCTAssertTrue(isolated.stdout.contains("4 sources: 4 ok"), isolated.stdout)
        let log = server.requests
        XCTAssertEqual(log.last?.path, "/suspect")
        let lastOther = try XCTUnwrap(log.filter { others.contains($0.path) }.last)
        XCTAssertGreaterThan(try XCTUnwrap(log.last).receivedAt, lastOther.receivedAt + .milliseconds(150),
                             "the suspect is fetched once the others are done, not alongside them")
        s = try suspect(store)
        XCTAssertNil(s.isolatedReason, "a success ends the isolation")
        XCTAssertNil(s.lastError)
        XCTAssertEqual(s.cardCount, 2)
    }

    /// A real trap (debug builds trap on purpose while reading a URL with FEEDS_TEST_TRAP_READING).
    func testATrapStopsOneRunOnlyAndThenOnlyItsOwnProcess() throws {
        let crashed = try update(trap: "/suspect")
        guard crashed.status != 0 && crashed.status != 1 else {
            throw XCTSkip("this build has no test trap (a release build)")
        }
        let store = try FeedStore(path: home.file("feeds.db").path)
        XCTAssertNotNil(try suspect(store).readingSince, "the crashed run left its mark")

        let next = try update(trap: "/suspect")
        XCTAssertEqual(next.status, 1, next.stderr)
        XCTAssertTrue(next.stderr.contains("the last update stopped while reading this source"), next.stderr)
        XCTAssertTrue(next.stdout.contains("4 sources: 3 ok"), next.stdout)

        // Still trapping: now in its own process, a failure of that source only.
        let alone = try update(trap: "/suspect")
        XCTAssertEqual(alone.status, 1, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("/suspect: it crashed its process of its own (SIGILL"), alone.stderr)
        XCTAssertTrue(alone.stdout.contains("4 sources: 3 ok"), alone.stdout)
        var s = try suspect(store)
        XCTAssertNil(s.readingSince)
        XCTAssertNotNil(s.isolatedReason)
        XCTAssertEqual(s.consecutiveFailures, 2)

        // Fixed (no trap): fetched alone once more, saved, back with the others.
        let fixed = try update()
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        s = try suspect(store)
        XCTAssertNil(s.isolatedReason)
        XCTAssertEqual(s.cardCount, 2)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }
}
