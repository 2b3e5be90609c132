import Foundation
import TestSupport
import XCTest

/// Issue 19: cron is never silent about a broken setup. No sources (no file, an empty one) is
/// exit 2 with where feeds looked; a bad line is reported by every command (file:line and why)
/// and skipped: `update` fetches the other lines and exits 1, the reading commands go on.
final class BrokenSetupTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }

    override func setUpWithError() throws { directory = TemporaryDirectory("feeds-cli-setup") }
    override func tearDown() { directory = nil }

    private func feeds(_ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args)
    }

    private func write(_ text: String, to name: String) throws {
        try text.write(to: directory.file(name), atomically: false, encoding: .utf8)
    }

    private let feed = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>A</title>
        <item><guid>1</guid><title>Kept going</title></item></channel></rss>
        """

    func testUpdateWithoutSourcesFileSaysWhereItLookedAndExits2() throws {
        for all in [[], ["--all"]] {
            let r = try feeds(["update"] + all)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("no sources file at \(home)/sources"), r.stderr)
            XCTAssertTrue(r.stderr.contains("feeds add URL"), r.stderr)
        }
    }

    func testUpdateWithEmptyOrCommentOnlySourcesFileExits2() throws {
        for text in ["", "# my feeds\n\n   \n"] {
            try write(text, to: "sources")
            let r = try feeds(["update"])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("\(home)/sources lists no sources"), r.stderr)
            XCTAssertTrue(r.stderr.contains("feeds add URL"), r.stderr)
        }
    }

    func testBadLinesAreReportedAndSkippedByEveryCommand() throws {
        try write(feed, to: "a.rss")
        try write("a.rss name=A\nb.rss evry=30m\nsearch:nope \"q\"\na.rss name=again\n\"unclosed\n", to: "sources")
        let problems = ["sources:2: unknown option 'evry'", "sources:3: unknown search engine 'nope'",
                        "sources:4: a.rss is already listed on line 1", "sources:5: unclosed quote"]

        let update = try feeds(["update"])
        XCTAssertEqual(update.status, 1, "a skipped line fails the run: cron mails it")
        for p in problems { XCTAssertTrue(update.stderr.contains("feeds: \(home)/\(p)"), update.stderr) }

        for command in [["read", "--keep-unread", "--brief"], ["sources"], ["search", "kept"], ["export"], ["mark", "read", "--all"]] {
            let r = try feeds(command)
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            for p in problems { XCTAssertTrue(r.stderr.contains("feeds: warning: \(home)/\(p)"), "\(command): \(r.stderr)") }
        }
        XCTAssertTrue(try feeds(["read", "--json"]).stdout.contains("Kept going"), "the valid line was updated")
    }

    func testOnlyBadLinesIsNothingToUpdate() throws {
        try write("b.rss evry=30m\n", to: "sources")
        let r = try feeds(["update"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("sources:2") == false && r.stderr.contains("sources:1: unknown option 'evry'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing to update"), r.stderr)
    }

    /// A source whose line broke keeps its cards and is not called an orphan to delete.
    func testSourceOnABrokenLineIsNotAnOrphan() throws {
        try write(feed, to: "a.rss")
        try write("a.rss name=A\n", to: "sources")
        XCTAssertEqual(try feeds(["update"]).status, 0)
        try write("a.rss name=A every=soon\n", to: "sources")
        let r = try feeds(["sources"])
        XCTAssertTrue(r.stderr.contains("sources:1: every=soon"), r.stderr)
        XCTAssertFalse(r.stdout.contains("not in"), r.stdout)
    }
}
