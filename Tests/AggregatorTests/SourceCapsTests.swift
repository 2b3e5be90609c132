@testable import Aggregator
import Foundation
import TestSupport
import XCTest

/// Issue 15: no per-source cap. One feed of 10^6 items cost 594 MB to update, and fresh guids
/// at each fetch doubled its cards. Now a fetch keeps the first `max-items=` items in the feed's
/// order (default 5,000) with a warning naming the source and the counts, and a source keeps
/// `max-cards=` cards (default 10,000): read cards the feed no longer lists go first, oldest
/// first, then unread ones it no longer lists, with a warning; cards it lists never go.
final class SourceCapsTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws { home = TemporaryDirectory("feeds-source-caps") }
    override func tearDown() { home = nil }

    /// A feed of `count` items whose guids start with `prefix`, newest first.
    /// Items dated a minute apart, newest first; a later batch (`newest:`) is dated after an earlier one.
    private func feed(_ prefix: String, count: Int, newest: Int = 1_700_000_000) -> String {
        var s = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Huge</title><link>https://h.example/</link>\n"
        for i in 0..<count {
            s += "<item><guid>\(prefix)\(i)</guid><title>\(prefix) \(i)</title><link>https://h.example/\(prefix)/\(i)</link>"
            s += "<pubDate>\(rfc822(newest - i * 60))</pubDate></item>\n"
        }
        return s + "</channel></rss>\n"
    }

    private func rfc822(_ seconds: Int) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    private func feeds(_ args: [String]) throws -> CLIRun { try CLIRun.run(["--home", home.path] + args, timeout: 60) }

    private func cards() throws -> [[String: Any]] {
        let r = try feeds(["read", "--json", "--keep-unread"])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    func testAFetchKeepsTheFirstItemsAndSaysSo() throws {
        try home.write("huge.rss", feed("a", count: 200))
        try home.write("sources", "huge.rss name=Huge max-items=50\n")
        let run = try feeds(["update", "--all", "-v"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderrLines, ["feeds: warning: Huge: the feed lists 200 items; kept the first 50 in its order (max-items=50; raise it on the source's line to keep more)"])
        XCTAssertTrue(run.stdout.contains("1 ok (50 new cards)"), run.stdout)
        let titles = try cards().compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.count, 50)
        XCTAssertEqual(titles.first, "a 0")
        XCTAssertEqual(titles.last, "a 49", "the first 50 in the feed's order")
        // Quiet under cron too? No: the warning is printed without --verbose (it means items
        // the person will not see).
        let again = try feeds(["update", "--all"])
        XCTAssertEqual(again.stderrLines.count, 1, again.stderr)
    }

    func testTheDefaultItemCapIsFiveThousand() throws {
        try home.write("huge.rss", feed("d", count: 5_200))
        try home.write("sources", "huge.rss\n")
        let run = try feeds(["update", "--all", "-v"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the feed lists 5,200 items; kept the first 5,000 in its order (max-items=5000;"), run.stderr)
        XCTAssertTrue(run.stdout.contains("(5,000 new cards)"), run.stdout)
    }

    func testTheCardCapDeletesReadUnlistedCardsFirstThenUnreadOnesAndSaysSo() throws {
        try home.write("sources", "huge.rss name=Huge max-cards=100\n")
        // Three fetches of 40 fresh items each: 120 cards > 100.
        try home.write("huge.rss", feed("a", count: 40))
        XCTAssertEqual(try feeds(["update", "--all"]).status, 0)
        // Ten of the first batch are read.
        let first = try cards().filter { ($0["title"] as? String)?.hasPrefix("a ") == true }
        let readIDs = first.prefix(10).compactMap { $0["cardID"] as? Int }.map(String.init)
        XCTAssertEqual(readIDs.count, 10)
        XCTAssertEqual(try feeds(["mark", "read"] + readIDs).status, 0)
        // Which cards a source still lists is told by the second of its last fetch, so each
        // fetch here is in a second of its own (as cron's runs are).
        Thread.sleep(forTimeInterval: 1.1)
        try home.write("huge.rss", feed("b", count: 40, newest: 1_700_010_000))
        let second = try feeds(["update", "--all"])
        XCTAssertEqual(second.stderr, "", "80 cards: under the cap")
        Thread.sleep(forTimeInterval: 1.1)
        try home.write("huge.rss", feed("c", count: 40, newest: 1_700_020_000))
        let third = try feeds(["update", "--all"])
        XCTAssertEqual(third.status, 0, third.stderr)
        // 120 cards: 20 go, the 10 read ones first, then the 10 oldest unread, with a warning.
        XCTAssertEqual(third.stderrLines, ["feeds: warning: Huge: over max-cards=100: deleted the 10 oldest unread cards the feed no longer lists (and 10 read); raise max-cards= on the source's line to keep more"])
        let left = try cards()
        XCTAssertEqual(left.count, 100)
        XCTAssertFalse(left.contains { $0["read"] as? Bool == true }, "the read cards went first")
        let titles = Set(left.compactMap { $0["title"] as? String })
        XCTAssertTrue((0..<40).allSatisfy { titles.contains("c \($0)") }, "the listed cards are all kept")
        XCTAssertTrue((0..<40).allSatisfy { titles.contains("b \($0)") })
        // The oldest of the first batch went (its items are dated newest first): a 30...39.
        XCTAssertEqual(titles.filter { $0.hasPrefix("a ") }.sorted(), (10..<30).map { "a \($0)" }.sorted())
    }

    func testListedCardsNeverGoEvenUnderASmallerCap() throws {
        try home.write("huge.rss", feed("a", count: 30))
        try home.write("sources", "huge.rss max-cards=10\n")
        let run = try feeds(["update", "--all"])
        XCTAssertEqual(run.stderr, "", "the 30 cards are all listed by the feed: none goes")
        XCTAssertEqual(try cards().count, 30)
    }

    func testOptionsReadAndWriteBack() throws {
        let entries = try SourcesFile.parse("https://a.example/ max-items=100 max-cards=300\nhttps://b.example/\n")
        XCTAssertEqual(entries[0].itemLimit, 100)
        XCTAssertEqual(entries[0].cardLimit, 300)
        XCTAssertEqual(entries[1].itemLimit, SourceEntry.defaultMaxItems)
        XCTAssertEqual(entries[1].cardLimit, SourceEntry.defaultMaxCards)
        XCTAssertEqual(try SourcesFile.parse(entries[0].formatted).first?.maxCards, 300)
        for bad in ["max-items=0", "max-items=-1", "max-cards=lots", "max-items=99999999999999999999"] {
            XCTAssertThrowsError(try SourcesFile.parse("https://a.example/ \(bad)"), bad)
        }
    }
}
