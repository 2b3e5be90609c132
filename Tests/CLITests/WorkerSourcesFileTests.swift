import Foundation
import TestSupport
import XCTest

/// A long-running worker reads the sources file again when it changes, between batches, as
/// each cron run reads it at its start (issue 22): lines added are fetched, lines deleted are
/// not, without a restart.
final class WorkerSourcesFileTests: PostgresCLITestCase {
    private func waitUntil(_ seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    func testALineAddedWhileAWorkerSleepsIsFetchedWithoutARestart() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 3, items: 2, delay: .zero)
        // Two lines of the three to begin with.
        let lines = try String(contentsOf: dir.file("sources"), encoding: .utf8).split(separator: "\n").map(String.init)
        try (lines[0] + "\n" + lines[1] + "\n").write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        let worker = try startWorker(dir, database, ["--batch", "4", "-v"], tag: "w")
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL); worker.waitUntilExit() } }
        XCTAssertTrue(try waitUntil { try number(database, "SELECT count(*) FROM cards") == 4 }, "the first two saved")
        // Sleeping now (nothing due for a while). An editor's save: a new file renamed over it.
        try (lines[0] + "\n" + lines[2] + "\n").write(to: dir.file("sources"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try waitUntil { try number(database, "SELECT count(*) FROM cards") == 6 }, "the added line fetched")
        XCTAssertEqual(site.requests(path: "/f2.xml").count, 1)
        XCTAssertEqual(site.requests(path: "/f1.xml").count, 1, "the deleted line is not fetched again")
        kill(worker.processIdentifier, SIGTERM)
        wait(worker, seconds: 30)
        XCTAssertEqual(worker.terminationStatus, 0)
        let err = (try? String(contentsOf: dir.file("w.err"), encoding: .utf8)) ?? ""
        XCTAssertTrue(err.contains("sources changed: read again, 2 sources"), err)
        XCTAssertEqual(try number(database, "SELECT count(*) FROM sources"), 3, "the deleted line's source kept, as on SQLite")
    }

    func testALineThatDoesNotReadIsSaidAndTheOthersGoOn() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try home(site, count: 2, items: 2, delay: .zero)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "--database", database, "sources"]).status, 0)
        let worker = try startWorker(dir, database, ["--batch", "4"], tag: "w")
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL); worker.waitUntilExit() } }
        XCTAssertTrue(try waitUntil { try number(database, "SELECT count(*) FROM cards") == 4 })
        let handle = try FileHandle(forWritingTo: dir.file("sources"))
        handle.seekToEndOfFile()
        handle.write(Data("not a url at all\n".utf8))
        try handle.close()
        let err = { (try? String(contentsOf: dir.file("w.err"), encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil { err().contains("(this line is skipped until it is fixed)") }, err())
        XCTAssertTrue(err().contains("sources:3"), err())
        XCTAssertTrue(worker.isRunning, "a bad line is no reason to stop")
        kill(worker.processIdentifier, SIGTERM)
        wait(worker, seconds: 30)
        XCTAssertEqual(worker.terminationReason, .exit)
    }
}
