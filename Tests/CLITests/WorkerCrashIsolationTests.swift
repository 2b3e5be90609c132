import Foundation
import TestSupport
import XCTest

/// A feed that crashes the worker reading it, on PostgreSQL (issue 22): the worker that takes
/// the source over fetches it in a process of its own, so the crash costs one worker once; a
/// source that keeps ending leases without an outcome is quarantined; a plain kill once costs
/// its sources nothing.
final class WorkerCrashIsolationTests: PostgresCLITestCase {
    private func sources(_ dir: TemporaryDirectory, _ database: String) throws -> String {
        let listed = try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return listed.stdout
    }

    private func stderr(_ dir: TemporaryDirectory, _ tag: String) -> String {
        (try? String(contentsOf: dir.file("\(tag).err"), encoding: .utf8)) ?? ""
    }

    /// A real trap (debug builds trap on purpose while reading a URL with FEEDS_TEST_TRAP_READING).
    func testAFeedThatCrashesItsWorkerCostsOneWorkerOnceThenOnlyItsOwnProcess() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 8, items: 2, delay: .zero)
        _ = try sources(dir, database)
        let trap = ["FEEDS_TEST_TRAP_READING": "/f3.xml"]
        let first = try startWorker(dir, database, ["--exit-when-idle", "--batch", "8"], tag: "first", environment: trap)
        wait(first)
        guard first.terminationReason == .uncaughtSignal else { throw XCTSkip("this build has no test trap (a release build)") }
        let victim = "lease_owner LIKE '%:\(first.processIdentifier)'"
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE url LIKE '%/f3.xml' AND reading_since IS NOT NULL AND \(victim)"), 1,
                       "the crash left its mark and its lease")
        // Its leases end (as they would at their deadline: the worker tests wait for that).
        _ = try psql(database, "UPDATE sources SET lease_until = 1 WHERE \(victim)")

        let second = try startWorker(dir, database, ["--exit-when-idle", "--batch", "8"], tag: "second", environment: trap)
        wait(second)
        let err = stderr(dir, "second")
        XCTAssertEqual(second.terminationReason, .exit, err)
        XCTAssertEqual(second.terminationStatus, 1, err)
        XCTAssertTrue(err.contains("/f3.xml: it crashed its process of its own (SIGILL"), err)
        XCTAssertEqual(err.components(separatedBy: "\n").filter { $0.hasPrefix("feeds: ") }.count, 1, err)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 14, "the other seven saved")
        XCTAssertEqual(try number(database, """
            SELECT count(*) FROM sources WHERE url LIKE '%/f3.xml' AND isolated_reason IS NOT NULL AND consecutive_failures = 1
              AND next_due_at - last_attempt_at >= 300 AND reading_since IS NULL AND lease_owner IS NULL AND lease_takeovers = 0
            """), 1, "backed off, isolated, its lease given back")
        let listed = try sources(dir, database)
        XCTAssertTrue(listed.contains("fetched last and alone, in a process of its own: a worker stopped while reading it"), listed)
        XCTAssertTrue(listed.contains("error (1x): it crashed its process of its own (SIGILL"), listed)

        // Fixed (no trap) and due: fetched alone once more, saved, back with the others.
        _ = try psql(database, "UPDATE sources SET next_due_at = NULL WHERE url LIKE '%/f3.xml'")
        let fixed = try startWorker(dir, database, tag: "fixed")
        wait(fixed)
        XCTAssertEqual(fixed.terminationStatus, 0, stderr(dir, "fixed"))
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 16)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE isolated_reason IS NOT NULL OR last_error IS NOT NULL"), 0)
    }

    /// As a worker killed while reading a source leaves it (its mark, its lease): the next
    /// worker fetches it in a process of its own, and that costs it no failure.
    func testAKillWhileReadingOnceCostsTheSourceNothing() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 3, items: 2, delay: .zero)
        _ = try sources(dir, database)
        _ = try psql(database, "UPDATE sources SET lease_owner = 'gone:1', lease_until = 1, reading_since = 1 WHERE url LIKE '%/f1.xml'")
        let worker = try startWorker(dir, database, tag: "w")
        wait(worker)
        XCTAssertEqual(worker.terminationStatus, 0, stderr(dir, "w"))
        XCTAssertEqual(site.requests(path: "/f1.xml").count, 1)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 6)
        XCTAssertEqual(try number(database, """
            SELECT count(*) FROM sources WHERE consecutive_failures = 0 AND last_error IS NULL AND isolated_reason IS NULL
              AND reading_since IS NULL AND lease_owner IS NULL AND lease_takeovers = 0
            """), 3)
    }

    /// `feeds update --all` on PostgreSQL while a worker reads a source: the worker's mark is
    /// no crash of an earlier run (as a mark left in a home's SQLite would be).
    func testAnUpdateOfAllLeavesALiveWorkersMarkAlone() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 2, items: 2, delay: .zero)
        _ = try sources(dir, database)
        _ = try psql(database, "UPDATE sources SET lease_owner = 'live:1', lease_until = 4000000000, reading_since = 1 WHERE url LIKE '%/f1.xml'")
        let all = try FeedsCommand.run(["--home", dir.path, "--database", database, "update", "--all", "-v"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertFalse(all.stderr.contains("stopped while reading"), all.stderr)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE isolated_reason IS NOT NULL OR consecutive_failures > 0"), 0)
    }

    /// Three leases in a row that ended while a worker was reading the source: it is not fetched
    /// again before its backoff, a failure naming it, and the worker goes on with the others.
    func testASourceWhoseLeasesKeepEndingWithoutAnOutcomeIsQuarantined() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 3, items: 2, delay: .zero)
        _ = try sources(dir, database)
        _ = try psql(database, """
            UPDATE sources SET lease_owner = 'gone:1', lease_until = 1, reading_since = 1, lease_takeovers = 2,
                isolated_reason = 'a worker stopped while reading it' WHERE url LIKE '%/f1.xml'
            """)
        let worker = try startWorker(dir, database, tag: "w")
        wait(worker)
        let err = stderr(dir, "w")
        XCTAssertEqual(worker.terminationStatus, 1, err)
        XCTAssertTrue(err.contains("/f1.xml: quarantined: 3 workers in a row stopped while reading this source (a crash or a kill"), err)
        XCTAssertEqual(site.requests(path: "/f1.xml").count, 0, "not fetched")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 4, "the others saved")
        XCTAssertEqual(try number(database, """
            SELECT count(*) FROM sources WHERE url LIKE '%/f1.xml' AND consecutive_failures = 1 AND next_due_at - last_attempt_at >= 300
              AND isolated_reason LIKE 'quarantined after 3 workers in a row stopped while reading it%'
              AND reading_since IS NULL AND lease_owner IS NULL
            """), 1)
        let listed = try sources(dir, database)
        XCTAssertTrue(listed.contains("error (1x): quarantined: 3 workers in a row stopped while reading this source"), listed)
        // Backed off: the next worker finds nothing to do.
        let next = try startWorker(dir, database, tag: "next")
        wait(next)
        XCTAssertEqual(next.terminationStatus, 0, stderr(dir, "next"))
        XCTAssertEqual(site.requests(path: "/f1.xml").count, 0)
    }
}
