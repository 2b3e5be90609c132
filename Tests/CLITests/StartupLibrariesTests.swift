import XCTest
import TestSupport

/// What the dynamic loader maps when `feeds` starts: libcurl and libpq (each with some twenty
/// libraries of its own) are loaded on first use, never at the start of a command that does
/// not need them (see ccurl_shim.h and cpq_shim.h).
final class StartupLibrariesTests: XCTestCase {
    func testNeitherLibcurlNorLibpqIsLoadedAtStart() throws {
        // glibc's loader lists every library it initialises on standard error with LD_DEBUG=libs.
        let result = try FeedsCommand.run(["--version"], environment: ["LD_DEBUG": "libs"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("libc.so"), "the loader's list is missing: \(result.stderr.prefix(500))")
        XCTAssertFalse(result.stderr.contains("libpq.so"), "libpq is loaded at start")
        XCTAssertFalse(result.stderr.contains("libcurl.so"), "libcurl is loaded at start")
    }

    /// `feeds update` starts loading libcurl on a thread of its own while it reads its sources
    /// (`Fetcher.loadLibraryInBackground`); the first transfer waits for it. In each new process
    /// the two race: every run must fetch, save and say so, whichever thread gets there first.
    func testUpdateLoadsLibcurlBesideItsStartAndEveryRunStillFetches() throws {
        let dir = TemporaryDirectory("feeds-cli-preload")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var lines: [String] = []
        for i in 0..<3 {
            let feed = """
                <rss version="2.0"><channel><title>Feed \(i)</title>
                <item><title>Item \(i)</title><link>http://example.test/\(i)</link><guid>g\(i)</guid></item>
                </channel></rss>
                """
            server.route("/f\(i).xml", .text(feed, contentType: "application/rss+xml"))
            lines.append(server.url("/f\(i).xml"))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        for run in 0..<8 {
            let result = try FeedsCommand.run(["--home", dir.path, "update", "--all", "--verbose"])
            XCTAssertEqual(result.status, 0, "run \(run): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("3 sources:") && result.stdout.contains(", 0 failed"), "run \(run): \(result.stdout)")
        }
        let read = try FeedsCommand.run(["--home", dir.path, "read", "--keep-unread", "--limit", "10"])
        for i in 0..<3 { XCTAssertTrue(read.stdout.contains("Item \(i)"), read.stdout) }
    }
}
