import Foundation
import TestSupport
import XCTest

/// `feeds --database URL update` and `update --worker` against a real PostgreSQL, the feeds on
/// the loopback server, as a person (or systemd) runs them (issue 22).
final class UpdateWorkersCommandTests: PostgresCLITestCase {
    func testAnUpdateOnPostgresSavesEveryCardAndTheNextFetchesNothing() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 12, items: 5, delay: .zero)
        let update = try FeedsCommand.run(["--home", dir.path, "--database", database, "update", "-v"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(update.stdout, "12 sources: 12 ok (60 new cards), 0 not modified, 0 failed\n")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 60)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE lease_owner IS NOT NULL"), 0, "leases given back")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("feeds.db").path), "no SQLite database made")
        // Nothing is due any more: a cron run finds nothing to do.
        let again = try FeedsCommand.run(["--home", dir.path, "--database", database, "update", "-v"], environment: [:])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "0 sources: 0 ok (0 new cards), 0 not modified, 0 failed\n")
        XCTAssertEqual(site.requests.count, 12)
        // FEEDS_DATABASE is the same as --database; --all fetches again (conditional GETs).
        let all = try FeedsCommand.run(["--home", dir.path, "update", "--all", "-v"], environment: ["FEEDS_DATABASE": database])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.stdout, "12 sources: 12 ok (0 new cards), 0 not modified, 0 failed\n")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 60)
    }

    func testTheSourceCommandsWorkOnPostgres() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 2, items: 3, delay: .zero)
        func feeds(_ arguments: [String]) throws -> FeedsCommand.Result {
            let result = try FeedsCommand.run(["--home", dir.path, "--database", database] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            return result
        }
        let added = try feeds(["add", "--as-is", "--name", "Third", site.url("/f1.xml") + "?third"])
        XCTAssertTrue(added.stdout.hasPrefix("added http://127.0.0.1:"), added.stdout)
        _ = try feeds(["update"])
        let listed = try feeds(["sources", "--json", "--cards", "1"])
        let sources = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(sources.count, 3, listed.stdout)
        XCTAssertEqual(sources.compactMap { $0["cards"] as? Int }, [3, 3, 3], listed.stdout)
        let exported = try feeds(["export"])
        XCTAssertTrue(exported.stdout.contains("<opml"), exported.stdout)
        _ = try feeds(["remove", "--yes", "Third"])
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources"), 2)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 6)
    }

    func testASourceTheFileNoLongerListsIsKeptAndDoesNotKeepAnUpdateGoing() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 3, items: 2, delay: .zero)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        // The third line deleted by hand: its source stays in the database, due, unfetched.
        try (site.url("/f0.xml") + "\n" + site.url("/f1.xml") + "\n").write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "--database", database, "update", "-v"], timeout: 20)
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(update.stdout, "2 sources: 2 ok (4 new cards), 0 not modified, 0 failed\n")
        XCTAssertEqual(site.requests(path: "/f2.xml").count, 0)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources"), 3, "kept, as on SQLite")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE lease_owner IS NOT NULL"), 0)
    }

    /// Every command works on PostgreSQL (the reading ones, the site and the image cache since
    /// issue 22): each one goes to the database, and an unreachable one is one line naming the
    /// server, never its password, exit 2.
    func testEveryCommandGoesToTheDatabaseAndAnUnreachableOneIsOneLine() throws {
        let dir = TemporaryDirectory("feeds-cli-workers-refused")
        try "https://a.example/feed.xml\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        for command in [["html", "--out", dir.file("site").path], ["cache", "stats"], ["read"], ["search", "x"],
                        ["mark", "read", "1"], ["sources"], ["update"]] {
            let result = try FeedsCommand.run(["--home", dir.path, "--database", "postgresql://feeds:secret@127.0.0.1:1/x"] + command)
            XCTAssertEqual(result.status, 2, "\(command)")
            XCTAssertTrue(result.stderr.hasPrefix("feeds: cannot connect to PostgreSQL postgresql://feeds@127.0.0.1:1/x"),
                          "\(command): \(result.stderr)")
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
            XCTAssertFalse(result.stderr.contains("secret"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("site").path), "\(command) wrote nothing")
        }
        let sqlite = try FeedsCommand.run(["--home", dir.path, "update", "--worker"])
        XCTAssertEqual(sqlite.status, 2)
        XCTAssertTrue(sqlite.stderr.contains("--worker needs a PostgreSQL database"), sqlite.stderr)
    }

    func testThreeWorkersFetchEachSourceOnceAndSaveEachCardOnce() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 30, items: 4)
        // The sources in the database first, so the three start on the same list.
        let add = try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"])
        XCTAssertEqual(add.status, 0, add.stderr)
        // Two at once to the host across all three: each alone would send it two.
        let workers = try (0..<3).map { try startWorker(dir, database, ["--exit-when-idle", "--batch", "4", "--per-host", "2"], tag: "w\($0)") }
        for worker in workers { wait(worker) }
        XCTAssertLessThanOrEqual(site.maxConcurrentRequests, 2, "the host's ceiling holds across workers")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM host_slots"), 0, "every slot given back")
        for (n, worker) in workers.enumerated() {
            XCTAssertEqual(worker.terminationStatus, 0, (try? String(contentsOf: dir.file("w\(n).err"), encoding: .utf8)) ?? "")
        }
        for n in 0..<30 { XCTAssertEqual(site.requests(path: "/f\(n).xml").count, 1, "feed \(n) fetched once") }
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 120)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE lease_owner IS NOT NULL"), 0)
    }

    func testAWorkerKilledAtARandomMomentLosesNothing() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 30, items: 4, delay: .milliseconds(150))
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        let workers = try (0..<3).map { try startWorker(dir, database, tag: "w\($0)") }
        // At a random moment while it holds a batch: its sources must wait for its lease to end.
        let victim = workers[1].processIdentifier
        let holding = "SELECT count(*) FROM sources WHERE lease_owner LIKE '%:\(victim)'"
        // Stopped first, so what it holds cannot change between the look and the kill: a batch
        // it ended during the random wait (a loaded machine, seen once in a clean checkout's
        // make test) lets it run on to its next batch and the moment is drawn again.
        let end = Date().addingTimeInterval(20)
        var held = 0
        while held == 0 && Date() < end {
            while try number(database, holding) == 0 && Date() < end { usleep(10_000) }
            usleep(UInt32.random(in: 0...100_000))
            kill(victim, SIGSTOP)
            held = try number(database, holding)
            if held == 0 { kill(victim, SIGCONT) }
        }
        kill(victim, SIGKILL)
        XCTAssertGreaterThan(held, 0, "killed holding leases")
        for worker in workers { wait(worker, seconds: 90) }
        // A lease it still holds is on a source it saved before the kill (killed between the
        // save and the release: nothing is due there, so nobody needs to take it over); every
        // source it had not saved was taken over when its lease ended.
        XCTAssertEqual(try number(database, holding + " AND last_success_at IS NULL"), 0, "its unsaved sources taken over")
        XCTAssertEqual(workers[0].terminationStatus, 0)
        XCTAssertEqual(workers[2].terminationStatus, 0)
        // The killed worker's sources went to the others when its lease ended.
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 120, "an undisturbed run's count")
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE next_due_at IS NULL OR last_success_at IS NULL"), 0)
        for n in 0..<30 { XCTAssertGreaterThanOrEqual(site.requests(path: "/f\(n).xml").count, 1) }
    }

    func testA503WithRetryAfterPausesTheHostForEveryWorker() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 4, items: 2, delay: .zero)
        site.route("/f0.xml", .text("busy", status: 503, headers: [("Retry-After", "120")]))
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        // One source a batch, in order: f0's answer comes before the others are asked for.
        let worker = try startWorker(dir, database, ["--exit-when-idle", "--batch", "1"], tag: "w")
        wait(worker)
        XCTAssertEqual(worker.terminationStatus, 1, "failures")
        XCTAssertEqual(site.requests.map(\.path), ["/f0.xml"], "nobody asks the host during its pause")
        let err = try String(contentsOf: dir.file("w.err"), encoding: .utf8)
        XCTAssertTrue(err.contains("HTTP 503 Service Unavailable: retrying after 120 s as the server asked"), err)
        XCTAssertTrue(err.contains("not fetched: 127.0.0.1 asked for a pause (429/503)"), err)
        // Each source retries after the pause, not before.
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE next_due_at - last_attempt_at < 115"), 0)
    }

    func testSIGTERMEndsAWorkerAndGivesItsLeasesBack() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 8, items: 2, delay: .milliseconds(400))
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        // Without --exit-when-idle it would sleep for the next due time: SIGTERM ends it.
        let worker = try startWorker(dir, database, ["--batch", "8"], tag: "w")
        let end = Date().addingTimeInterval(20)
        while site.requests.isEmpty && Date() < end { usleep(20_000) }
        XCTAssertTrue(try number(database, "SELECT count(*) FROM sources WHERE lease_owner IS NOT NULL") > 0, "a batch leased")
        kill(worker.processIdentifier, SIGTERM)
        wait(worker, seconds: 30)
        XCTAssertEqual(worker.terminationReason, .exit)
        XCTAssertEqual(worker.terminationStatus, 0)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources WHERE lease_owner IS NOT NULL"), 0)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM cards"), 16, "the batch it was on finished")
    }
}
