import Foundation
import TestSupport
import XCTest

/// What a daily reader expects beyond the digest: `--brief` (one line a card), enclosures in
/// the text, local time with `--utc` for UTC, and `mark unread --since/--before` to undo a read.
final class DailyReaderTests: XCTestCase {
    /// 2023-11-14T22:13:20Z: card i is dated i hours and a minute before.
    private let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

    private func feeds(_ home: CardHome, _ args: [String], environment: [String: String] = [:]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home.path] + args, environment: ["COLUMNS": "80"].merging(environment) { $1 })
    }

    func testBriefIsOneLineACardWithLocalDateSourceTitleAndID() throws {
        let home = try CardHome(count: 12, now: fixedNow)
        let r = try feeds(home, ["read", "--brief", "--limit", "3"], environment: ["TZ": "JST-9"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            N 2023-11-15 07:12  Local  Card 0  #1
            N 2023-11-15 06:12  Local  Card 1  #2
            N 2023-11-15 05:12  Local  Card 2  #3

            """)
        XCTAssertEqual(try home.unreadCount(), 12, "a list of titles marks nothing read")
        let utc = try feeds(home, ["read", "--brief", "--limit", "1", "--utc"], environment: ["TZ": "JST-9"])
        XCTAssertEqual(utc.stdout, "N 2023-11-14 22:12  Local  Card 0  #1\n")
        // Every filter and order, and search.
        let oldest = try feeds(home, ["read", "--brief", "--sort", "oldest", "--since", "2023-11-14T12:00:00Z", "--source", "Local", "--utc"])
        XCTAssertEqual(oldest.stdout.split(separator: "\n").map { $0.split(separator: " ").dropLast().last.map(String.init) ?? "" },
                       (0...10).reversed().map { "\($0)" }, "cards 10 (12:12Z) to 0, oldest first: \(oldest.stdout)")
        _ = try feeds(home, ["mark", "read", "1"])
        let unread = try feeds(home, ["read", "--brief", "--unread", "--limit", "1", "--utc"])
        XCTAssertEqual(unread.stdout, "N 2023-11-14 21:12  Local  Card 1  #2\n")
        let all = try feeds(home, ["read", "--brief", "--limit", "1", "--utc"])
        XCTAssertEqual(all.stdout, "  2023-11-14 22:12  Local  Card 0  #1\n", "a read card has no N")
        let search = try feeds(home, ["search", "river", "--brief", "--sort", "newest", "--limit", "2", "--utc"])
        XCTAssertEqual(search.stdout.split(separator: "\n").count, 2, search.stdout)
        XCTAssertFalse(search.stdout.contains("\u{1B}"), "plain when piped")
        let both = try feeds(home, ["read", "--brief", "--json"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--json and --brief do not go together"), both.stderr)
    }

    func testDatesAndDaysAreLocalUnlessUTC() throws {
        let home = try CardHome(count: 10, now: fixedNow)
        let local = try feeds(home, ["read", "--keep-unread", "--group", "day"], environment: ["TZ": "JST-9"])
        XCTAssertTrue(local.stdout.hasPrefix("== 2023-11-15 (8)\n"), local.stdout)
        XCTAssertTrue(local.stdout.contains("\n== 2023-11-14 (2)\n"), local.stdout)
        XCTAssertTrue(local.stdout.contains("  Local · 2023-11-15 · #1\n"), "an old card's date is local")
        let utc = try feeds(home, ["read", "--keep-unread", "--group", "day", "--utc"], environment: ["TZ": "JST-9"])
        XCTAssertTrue(utc.stdout.hasPrefix("== 2023-11-14 (10)\n"), utc.stdout)
        XCTAssertTrue(utc.stdout.contains("  Local · 2023-11-14 · #1\n"), utc.stdout)
        let json = try feeds(home, ["read", "--keep-unread", "--json", "--limit", "1"], environment: ["TZ": "JST-9"])
        XCTAssertTrue(json.stdout.contains("\"published\":\"2023-11-14T22:12:20Z\""), "JSON stays RFC 3339 UTC: \(json.stdout)")
    }

    func testEnclosuresAreInTheTextDigest() throws {
        let home = try CardHome(count: 6, now: fixedNow)
        let r = try feeds(home, ["read", "--keep-unread", "--utc"])
        XCTAssertTrue(r.stdout.contains("\n  [audio] https://local.example/ep0.mp3 (30.0 MB)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n  [audio] https://local.example/ep5.mp3 (30.0 MB)\n"), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "[audio]").count - 1, 2, "cards 1-4 have none")
    }

    func testMarkUnreadSinceAndBeforeUndoAMistakenRead() throws {
        let home = try CardHome(count: 20)
        XCTAssertEqual(try feeds(home, ["read"]).status, 0)
        XCTAssertEqual(try home.unreadCount(), 0)
        XCTAssertEqual(try feeds(home, ["mark", "unread", "--since", "5h"]).stdout, "5 cards marked unread\n")
        XCTAssertEqual(try feeds(home, ["mark", "unread", "--since", "10h", "--before", "5h"]).stdout, "5 cards marked unread\n")
        XCTAssertEqual(try feeds(home, ["mark", "unread", "--before", "18h"]).stdout, "2 cards marked unread\n")
        XCTAssertEqual(try home.unreadCount(), 12)
        XCTAssertEqual(try feeds(home, ["mark", "read", "--since", "1w"]).stdout, "12 cards marked read\n")
        for args in [["mark", "unread", "--since", "soon"], ["mark", "unread", "--since", "1h", "--all"], ["mark", "unread", "--before", "1x"]] {
            let r = try feeds(home, args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("feeds: "), r.stderr)
        }
        XCTAssertTrue(try feeds(home, ["mark", "unread", "--since", "soon"]).stderr
            .contains("--since soon is not a duration or a time: write 90s, 30m, 2h, 1d or 2w (back from now), a date"), "the one grammar of read --since")
    }
}
