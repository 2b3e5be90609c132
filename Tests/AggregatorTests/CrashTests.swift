import Foundation
import Storage
import TestSupport
import XCTest

/// `kill -9` at random moments during updates leaves a consistent database: after the kills, an
/// undisturbed run completes, `PRAGMA integrity_check` says ok, and the card count equals that of
/// a clean run (no card lost, none duplicated).
final class CrashTests: XCTestCase {
    func testRepeatedKillMinusNineDuringUpdates() throws {
        let binary = try feedsBinary()
        let server = try LoopbackHTTPServer()
        let feeds = 12
        for i in 0..<feeds {
            // Slow, dripped responses keep transfers and saves in progress when the kill lands:
            // each takes well over half a second, and a run needs two rounds of six, so every
            // kill below (at most 600 ms after the start) lands while the run is going on.
            let body = rss("feed\(i)", items: (0..<150).map { "item-\(i)-\($0)" })
            server.route("/f\(i)", ScriptedResponse.text(body, contentType: "application/rss+xml")
                .dripped(max(512, body.utf8.count / 40), every: .milliseconds(20)))
        }
        let sources = (0..<feeds).map { server.url("/f\($0)") }.joined(separator: "\n") + "\n"
        let crashed = TemporaryDirectory(), clean = TemporaryDirectory()
        try crashed.write("sources", sources)
        try clean.write("sources", sources)

        var generator = SplitMix64(seed: 9)   // random moments, the same ones on every run
        var killedMidRun = 0
        for _ in 0..<6 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--home", crashed.path, "update", "--all", "--jobs", "6"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 50_000...600_000, using: &generator))
            if process.isRunning { killedMidRun += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        XCTAssertGreaterThan(killedMidRun, 0, "at least one kill landed while the update ran")

        let finish = try CLIRun.run(["--home", crashed.path, "update", "--all"], timeout: 30)
        XCTAssertEqual(finish.status, 0, finish.stderr)
        let reference = try CLIRun.run(["--home", clean.path, "update", "--all"], timeout: 30)
        XCTAssertEqual(reference.status, 0, reference.stderr)

        let store = try FeedStore(path: crashed.file("feeds.db").path)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        let cleanStore = try FeedStore(path: clean.file("feeds.db").path)
        XCTAssertEqual(try cleanStore.cards().count, feeds * 150)
        XCTAssertEqual(try store.cards().count, try cleanStore.cards().count)
        XCTAssertEqual(try store.sources().count, feeds)
        XCTAssertTrue(try store.sources().allSatisfy { $0.lastError == nil && $0.cardCount == 150 })
    }
}
