import Foundation
import TestSupport
import XCTest

/// Issue 19: every option that takes a duration or a time takes the one grammar (`TimeSpec`)
/// and refuses with the one message: `read`/`search`/`html --since`, `mark --since/--before`,
/// `add --every`, and `every=`, `keep-days=` in the sources file.
final class OneGrammarTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-cli-grammar")
        let feed = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>A</title>
            <item><guid>1</guid><title>Old</title><pubDate>Fri, 05 Jan 2024 08:00:00 GMT</pubDate></item>
            </channel></rss>
            """
        try feed.write(to: directory.file("a.rss"), atomically: false, encoding: .utf8)
        try "a.rss name=A every=90s keep-days=2w\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let update = try feeds(["update"])
        XCTAssertEqual(update.status, 0, update.stderr)
    }

    override func tearDown() { directory = nil }

    private func feeds(_ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args)
    }

    private var site: String { directory.file("site").path }

    private func commands(_ when: String) -> [[String]] {
        [["read", "--since", when, "--keep-unread"], ["search", "old", "--since", when], ["mark", "unread", "--since", when],
         ["mark", "unread", "--before", when], ["html", "--out", site, "--no-images", "--since", when]]
    }

    func testEveryOptionTakesTheSameForms() throws {
        for when in ["90s", "30m", "2h", "1d", "2w", "2026-11-01", "2026-11-01T08:00:00Z", "2026-11-01T08:00:00+01:00"] {
            for command in commands(when) {
                let r = try feeds(command)
                XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            }
        }
        XCTAssertTrue(try feeds(["read", "--since", "2024-01-05T07:59:59Z", "--brief"]).stdout.contains("Old"))
        XCTAssertFalse(try feeds(["read", "--since", "2024-01-05T08:00:01Z", "--brief"]).stdout.contains("Old"))
        for every in ["90s", "30m", "2h", "1d", "2w"] {
            let r = try feeds(["add", "--as-is", "https://example.org/\(every).xml", "--every", every])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
    }

    func testEveryOptionRefusesWithTheOneMessage() throws {
        for command in commands("soon") {
            let r = try feeds(command)
            XCTAssertEqual(r.status, 2, "\(command)")
            XCTAssertTrue(r.stderr.contains("soon is not a duration or a time: write 90s, 30m, 2h, 1d or 2w (back from now)"),
                          "\(command): \(r.stderr)")
        }
        let add = try feeds(["add", "https://example.org/x.xml", "--every", "2026-11-01"])
        XCTAssertEqual(add.status, 2)
        XCTAssertTrue(add.stderr.contains("--every 2026-11-01 is not a duration: write 90s, 30m, 2h, 1d or 2w"), add.stderr)
        try "a.rss every=soon\nb.rss keep-days=36h\nc.rss keep-days=2026-11-01\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let r = try feeds(["sources"])
        XCTAssertTrue(r.stderr.contains("sources:1: every=soon is not a duration: write 90s, 30m, 2h, 1d or 2w"), r.stderr)
        XCTAssertTrue(r.stderr.contains("sources:2: keep-days=36h is not whole days"), r.stderr)
        XCTAssertTrue(r.stderr.contains("sources:3: keep-days=2026-11-01 is not a duration"), r.stderr)
    }
}
