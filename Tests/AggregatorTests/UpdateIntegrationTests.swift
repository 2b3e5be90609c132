import Aggregator
import FeedModel
import Fetching
import Foundation
import Storage
import TestSupport
import XCTest

/// `feeds update` against real HTTP servers on loopback, with every fault the issue lists in
/// one run: healthy sources update, each failure is one stderr line naming its source, the exit
/// status is 1, and no card saved before is lost.
final class UpdateIntegrationTests: XCTestCase {
    func testOneRunWithEveryFault() throws {
        let server = try LoopbackHTTPServer()
        let hub = try LoopbackHTTPServer(address: "127.0.0.2")  // many feeds on one host
        let home = TemporaryDirectory()
        let lastModified = "Sat, 28 Nov 2026 10:00:00 GMT"
        let xml = "application/rss+xml; charset=utf-8"

        // Phase 1: every source healthy, so each has cards to lose.
        let names = ["etag", "lastmod", "gzip", "moved", "temp", "gone", "limited", "broken", "slow", "big", "bomb", "malformed", "charset", "charset2"]
        for n in names { server.route("/\(n)", .text(rss(n, items: ["\(n)-1", "\(n)-2"]), contentType: xml)) }
        server.routeConditional("/etag", etag: "\"v1\"", lastModified: nil, .text(rss("etag", items: ["etag-1", "etag-2"]), contentType: xml))
        server.routeConditional("/lastmod", etag: nil, lastModified: lastModified, .text(rss("lastmod", items: ["lastmod-1"]), contentType: xml))
        server.route("/gzip", .gzip(try [UInt8](Fixtures.data("http/small.rss.gz")), contentType: xml))
        for i in 0..<20 { hub.route("/f\(i)", .text(rss("hub\(i)", items: ["a", "b", "c"]), contentType: xml)) }

        var sources = names.map { "\(server.url("/\($0)")) name=\($0)" }
        sources += (0..<20).map { "\(hub.url("/f\($0)")) name=hub\($0) tags=hub" }
        try home.write("sources", sources.joined(separator: "\n") + "\n")
        let args = ["--home", home.path, "update", "--all", "--timeout", "1.5", "--max-size", "64K", "--per-host", "3", "--jobs", "8"]

        let first = try CLIRun.run(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "", "quiet when stdout is not a terminal")
        XCTAssertEqual(first.stderr, "")

        let db = home.file("feeds.db").path
        let before = try FeedStore(path: db).cards()
        XCTAssertEqual(before.count, 2 * names.count - 1 + 60, "lastmod has one item; everything else two, the hub 20×3")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.file("feeds.lock").path))

        // Phase 2: the faults.
        server.route("/moved", .redirect(301, to: "/moved-here"))
        server.route("/moved-here", .text(rss("moved", items: ["moved-1", "moved-2", "moved-3"]), contentType: xml))
        server.route("/temp", .redirect(302, to: "/temp-here"))
        server.route("/temp-here", .text(rss("temp", items: ["temp-1", "temp-2", "temp-3"]), contentType: xml))
        server.route("/gone", .text("gone\n", status: 410))
        server.route("/limited", .text("slow down\n", status: 429, headers: [("Retry-After", "120")]))
        server.route("/broken", .text("oops\n", status: 500))
        server.route("/slow", ScriptedResponse.text(rss("slow", items: ["slow-3"]), contentType: xml).delayed(by: .seconds(4)))
        server.route("/big", .text(rss("big", items: (0..<3000).map { "big-item-number-\($0)" }), contentType: xml))
        server.route("/bomb", .gzip(try [UInt8](Fixtures.data("http/bomb-200MiB-zeros.gz"))))
        server.route("/malformed", .text("<rss><channel><title>x</titl", contentType: xml))
        // Latin-1 bytes under a header that says UTF-8, no encoding declaration: read, repaired.
        server.route("/charset", ScriptedResponse(headers: [("Content-Type", "application/rss+xml; charset=utf-8")],
            body: Array("<rss version=\"2.0\"><channel><title>charset</title><item><guid>c-3</guid><title>caf".utf8) + [0xE9] + Array("</title></item></channel></rss>".utf8)))
        // A header that says Latin-1 for a document that declares (and is) UTF-8: the document wins.
        server.route("/charset2", .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>c2</title><item><guid>c2-3</guid><title>naïve été</title></item></channel></rss>",
                                        contentType: "application/rss+xml; charset=iso-8859-1"))

        let started = Date()
        let second = try CLIRun.run(args)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(second.status, 1, "some sources failed")
        XCTAssertEqual(second.stdout, "")
        let failing = ["gone", "limited", "broken", "slow", "big", "bomb", "malformed"]
        let errorLines = second.stderrLines.filter { !$0.hasPrefix("feeds: warning:") }
        XCTAssertEqual(errorLines.count, failing.count, second.stderr)
        for name in failing {
            XCTAssertEqual(errorLines.filter { $0.hasPrefix("feeds: \(name): ") }.count, 1, "one line for \(name):\n\(second.stderr)")
        }
        let line: (String) -> String = { name in errorLines.first { $0.hasPrefix("feeds: \(name): ") } ?? "" }
        XCTAssertTrue(line("gone").contains("410"), line("gone"))
        XCTAssertTrue(line("limited").contains("429"), line("limited"))
        XCTAssertTrue(line("broken").contains("500"), line("broken"))
        XCTAssertTrue(line("slow").contains("timeout"), line("slow"))
        XCTAssertTrue(line("big").contains("larger than"), line("big"))
        XCTAssertTrue(line("bomb").contains("larger than"), line("bomb"))
        XCTAssertTrue(line("malformed").contains("malformed"), line("malformed"))
        let notes = second.stderrLines.filter { $0.hasPrefix("feeds: warning:") }
        XCTAssertEqual(notes.count, 1, second.stderr)
        XCTAssertTrue(notes.first?.contains("moved permanently") == true, second.stderr)

        let store = try FeedStore(path: db)
        let after = try store.cards()
        let afterIDs = Set(after.map(\.id))
        for card in before { XCTAssertTrue(afterIDs.contains(card.id), "lost \(card.key)") }
        let byName = Dictionary(try store.sources().map { ($0.displayName, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byName["moved"]?.fetchURL, server.url("/moved-here"), "301 persisted")
        XCTAssertNil(byName["temp"]?.fetchURL, "302 not persisted")
        XCTAssertEqual(byName["moved"]?.cardCount, 3)
        XCTAssertEqual(byName["temp"]?.cardCount, 3)
        XCTAssertNotNil(byName["gone"]?.disabledReason)
        XCTAssertEqual(byName["charset"]?.cardCount, 3)
        XCTAssertTrue(after.contains { $0.card.title == "café" }, "the wrong charset header was survived")
        XCTAssertTrue(after.contains { $0.card.title == "naïve été" }, "the document's own encoding wins over the header")
        XCTAssertEqual(byName["charset2"]?.cardCount, 3)
        let limited = try XCTUnwrap(byName["limited"])
        let retryIn = (limited.nextDueAt?.secondsSince1970 ?? 0) - (limited.lastAttemptAt?.secondsSince1970 ?? 0)
        XCTAssertEqual(retryIn, 120, "Retry-After obeyed")
        for name in failing {
            XCTAssertEqual(byName[name]?.consecutiveFailures, 1, name)
            XCTAssertEqual(byName[name]?.cardCount, name == "lastmod" ? 1 : 2, "\(name) kept its cards")
            XCTAssertNotNil(byName[name]?.lastError, name)
        }
        for name in ["etag", "lastmod"] {
            XCTAssertNil(byName[name]?.lastError)
            let conditional = server.requests(path: "/\(name)").last
            XCTAssertEqual(conditional?.header(name == "etag" ? "If-None-Match" : "If-Modified-Since"), name == "etag" ? "\"v1\"" : lastModified)
        }
        XCTAssertEqual(server.requests(path: "/gzip").last?.header("Accept-Encoding")?.contains("gzip"), true)
        XCTAssertTrue(server.requests.allSatisfy { $0.header("User-Agent")?.hasPrefix("feeds/") == true })
        XCTAssertLessThanOrEqual(hub.maxConcurrentRequests, 3, "per-host limit")
        XCTAssertEqual(hub.requests.count, 40)
        XCTAssertLessThan(hub.connectionsAccepted, 40, "connections are reused")

        // Phase 3, verbose: the 301 note is not repeated (the new address is fetched directly),
        // the 410 source is not fetched again, the conditional ones are 304s.
        let goneRequests = server.requests(path: "/gone").count
        let third = try CLIRun.run(args + ["--verbose"])
        XCTAssertEqual(third.status, 1)
        XCTAssertFalse(third.stderr.contains("moved permanently"), third.stderr)
        XCTAssertEqual(server.requests(path: "/gone").count, goneRequests)
        XCTAssertEqual(server.requests(path: "/moved").count, 2, "the old address is not asked again")
        XCTAssertTrue(third.stdout.hasPrefix("33 sources: "), third.stdout)
        XCTAssertTrue(third.stdout.contains(" 2 not modified, 6 failed"), third.stdout)

        // Naming the disabled source asks for it again (and it is still gone).
        let named = try CLIRun.run(["--home", home.path, "update", "gone"])
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(server.requests(path: "/gone").count, goneRequests + 1)
    }

    func testNotModifiedWritesOnlyFetchState() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        server.routeConditional("/f", etag: "\"a\"", lastModified: nil, .text(rss("f", items: ["1", "2"]), contentType: "application/rss+xml"))
        try home.write("sources", server.url("/f") + " every=1h\n")
        nonisolated(unsafe) var clock: Int64 = 1_800_000_000
        let runner = UpdateRunner(limits: FetchLimitsForTests.make(), clock: { Timestamp(secondsSince1970: clock) })
        let paths = try FeedsPaths.resolve(home: home.path, environment: [:])
        let workspace = try Workspace(paths: paths, now: Timestamp(secondsSince1970: clock))
        let one = try runner.run(.due, in: workspace)
        XCTAssertEqual(one.line, "1 source: 1 ok (2 new cards), 0 not modified, 0 failed")
        let saved = try workspace.store.cards()
        // Not due yet: nothing fetched.
        clock += 1800
        XCTAssertEqual(try runner.run(.due, in: workspace).reports.count, 0)
        clock += 1801
        let two = try runner.run(.due, in: workspace)
        XCTAssertEqual(two.notModified, 1)
        XCTAssertEqual(try workspace.store.cards(), saved, "a 304 changes no card, not even last-seen")
        let source = try XCTUnwrap(workspace.store.sources().first)
        XCTAssertEqual(source.lastSuccessAt?.secondsSince1970, clock)
        XCTAssertEqual(source.nextDueAt?.secondsSince1970, clock + 3600, "every=1h")
        XCTAssertEqual(server.requests(path: "/f").count, 2)
    }

    func testNamedSourcesAndUnknownNames() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        server.route("/a", .text(rss("a", items: ["1"]), contentType: "application/rss+xml"))
        server.route("/b", .text(rss("b", items: ["1"]), contentType: "application/rss+xml"))
        try home.write("sources", "\(server.url("/a")) name=Alpha\n\(server.url("/b")) name=Beta\n")
        let run = try CLIRun.run(["--home", home.path, "update", "-v", "alpha"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "1 source: 1 ok (1 new card), 0 not modified, 0 failed\n")
        XCTAssertEqual(server.requests(path: "/b").count, 0)
        let bad = try CLIRun.run(["--home", home.path, "update", "gamma"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("no source matches 'gamma'"), bad.stderr)
    }

    /// A bad line is said and skipped, the other lines are updated, and the run fails (issue 19:
    /// it used to stop everything with status 2; Tests/CLITests/BrokenSetupTests has the rest).
    func testBadSourcesFileLineIsReportedAndSkipped() throws {
        let home = TemporaryDirectory()
        try home.write("a.rss", "<rss version=\"2.0\"><channel><title>A</title><item><guid>1</guid><title>x</title></item></channel></rss>")
        try home.write("sources", "a.rss\nhttps://b.example/f every=often\n")
        let run = try CLIRun.run(["--home", home.path, "update"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("sources:2: every=often is not a duration"), run.stderr)
        XCTAssertEqual(try CLIRun.run(["--home", home.path, "read", "--brief"]).stdout.components(separatedBy: "\n").filter { $0.contains(" x ") }.count, 1)
    }

    func testOverlappingRunExitsAtOnceWithStatusZero() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "")
        let held = try XCTUnwrap(RunLock.acquire(path: home.file("feeds.lock").path, wait: false))
        let run = try CLIRun.run(["--home", home.path, "update"], timeout: 5)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1)
        XCTAssertTrue(run.stdout.contains("another update is running"), run.stdout)
        withExtendedLifetime(held) {}
    }

    func testFileSourcesRelativeToTheSourcesFile() throws {
        let home = TemporaryDirectory()
        try FileManager.default.createDirectory(at: home.file("samples"), withIntermediateDirectories: true)
        try home.write("samples/one.rss", rss("one", items: ["x", "y"]))
        try home.write("sources", "samples/one.rss name=One\nfile://\(home.path)/samples/one.rss name=Two\nsamples/missing.rss name=Missing\n")
        let run = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("feeds: Missing: cannot read file"), run.stderr)
        let listing = try CLIRun.run(["--home", home.path, "sources", "--json"])
        XCTAssertEqual(listing.status, 0)
        let json = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(json?.map { $0["cards"] as? Int }, [2, 2, 0])
        XCTAssertEqual(json?.last?["failures"] as? Int, 1)
    }
}

enum FetchLimitsForTests {
    static func make() -> Fetching.FetchLimits {
        Fetching.FetchLimits(userAgent: "feeds/test", connectTimeout: .seconds(2), totalTimeout: .seconds(3))
    }
}
