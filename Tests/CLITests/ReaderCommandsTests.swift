import Foundation
import TestSupport
import XCTest

/// `feeds read`, `feeds search`, `feeds mark` and the unread counts of `feeds sources`, run as
/// the built binary on a home folder updated from a local feed file.
final class ReaderCommandsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-cli-reader")
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Local feed</title><link>https://local.example/</link>
            <item><guid>c1</guid><title>Café au lait</title><link>https://local.example/cafe</link>
              <pubDate>Fri, 05 Jan 2024 08:00:00 GMT</pubDate><author>ann@example.org (Ann)</author>
              <description>&lt;p&gt;Milk and coffee, the &lt;b&gt;French&lt;/b&gt; way.&lt;/p&gt;</description></item>
            <item><guid>c2</guid><title>Lists of things</title><link>https://local.example/lists</link>
              <pubDate>Wed, 03 Jan 2024 08:00:00 GMT</pubDate>
              <description>&lt;ul&gt;&lt;li&gt;tea&lt;/li&gt;&lt;li&gt;espresso, short and strong&lt;/li&gt;&lt;/ul&gt;</description></item>
            <item><guid>c3</guid><link>https://local.example/untitled</link>
              <description>An untitled note about green tea.</description></item>
            </channel></rss>
            """
        try feed.write(to: directory.file("feed.rss"), atomically: false, encoding: .utf8)
        try "feed.rss name=Local tags=drinks\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let update = try feeds(["update", "--all"])
        XCTAssertEqual(update.status, 0, update.stderr)
    }

    override func tearDown() { directory = nil }

    private func feeds(_ args: [String], environment: [String: String] = ["COLUMNS": "60"]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args, environment: environment)
    }

    private func jsonCards(_ args: [String]) throws -> [[String: Any]] {
        let r = try feeds(args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    func testReadPrintsPlainTextWhenPipedAndMarksWhatItShowed() throws {
        let r = try feeds(["read"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("\u{1B}"), "no escapes through a pipe")
        XCTAssertEqual(r.stdout, try Fixtures.string("snapshots/cli-read-plain-60.txt"))
        XCTAssertEqual(try feeds(["read", "--unread"]).stdout, "", "everything shown is read now")
        XCTAssertTrue(try feeds(["sources"]).stdout.contains("cards 3 (0 unread)"))
    }

    func testKeepUnreadAndUnreadCounts() throws {
        XCTAssertTrue(try feeds(["sources"]).stdout.contains("cards 3 (3 unread)"))
        _ = try feeds(["read", "--limit", "1", "--keep-unread"])
        XCTAssertTrue(try feeds(["sources"]).stdout.contains("cards 3 (3 unread)"))
        _ = try feeds(["read", "--limit", "1"])
        XCTAssertTrue(try feeds(["sources"]).stdout.contains("cards 3 (2 unread)"))
        XCTAssertEqual(try jsonCards(["read", "--unread", "--keep-unread"]).map { $0["title"] as? String }, ["Lists of things", nil])
    }

    func testJSONCarriesTheCardModelSourceAndReadState() throws {
        let cards = try jsonCards(["read", "--keep-unread"])
        XCTAssertEqual(cards.map { $0["id"] as? String }, ["c1", "c2", "c3"])
        XCTAssertEqual(cards[0]["source"] as? String, "Local")
        XCTAssertEqual(cards[0]["read"] as? Bool, false)
        XCTAssertEqual(cards[0]["published"] as? String, "2024-01-05T08:00:00Z")
        XCTAssertEqual(cards[0]["author"] as? String, "ann@example.org (Ann)")
        XCTAssertNotNil(cards[0]["cardID"] as? Int)
        _ = try feeds(["read"])
        XCTAssertEqual(try jsonCards(["read"]).map { $0["read"] as? Bool }, [true, true, true])
    }

    func testOrdersFiltersAndGroups() throws {
        let titles = { (args: [String]) in try self.jsonCards(["read", "--keep-unread"] + args).map { $0["id"] as? String ?? "-" } }
        XCTAssertEqual(try titles(["--sort", "oldest"]), ["c2", "c1", "c3"], "undated last in oldest too")
        XCTAssertEqual(try titles(["--sort", "title"]), ["c1", "c2", "c3"])
        XCTAssertEqual(try titles(["--since", "2024-01-04"]), ["c1", "c3"], "c3 is dated by its first sighting: now")
        XCTAssertEqual(try titles(["--source", "Local", "--limit", "2"]), ["c1", "c2"])
        XCTAssertEqual(try titles(["--tag", "drinks"]).count, 3)
        XCTAssertEqual(try titles(["--tag", "other"]), [])
        let grouped = try feeds(["read", "--keep-unread", "--group", "source"])
        XCTAssertTrue(grouped.stdout.hasPrefix("== Local (3)\n"), grouped.stdout)
    }

    func testUsageErrors() throws {
        let sort = try feeds(["read", "--sort", "bogus"])
        XCTAssertEqual(sort.status, 2)
        XCTAssertTrue(sort.stderr.contains("unknown sort order \"bogus\""), sort.stderr)
        XCTAssertTrue(sort.stderr.contains("newest: newest first; cards without a date last"), sort.stderr)
        XCTAssertTrue(sort.stderr.contains("relevance: "), sort.stderr)
        for args in [["read", "--source", "Nope"], ["read", "--since", "yesterday-ish"], ["read", "--limit", "0"],
                     ["read", "--group", "week"], ["search"], ["search", "\"unclosed"], ["mark", "read"],
                     ["mark", "maybe", "1"], ["mark", "read", "x1"], ["mark", "read", "--all", "--source", "Local"]] {
            let r = try feeds(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("feeds: "), r.stderr)
        }
        XCTAssertEqual(try jsonCards(["read", "--unread"]).count, 3, "failed commands marked nothing")
    }

    func testSearchFoldsAccentsKeepsReadStateAndExplainsBadQueries() throws {
        XCTAssertEqual(try jsonCards(["search", "cafe"]).map { $0["id"] as? String }, ["c1"])
        XCTAssertEqual(try jsonCards(["search", "tea", "--sort", "newest"]).map { $0["id"] as? String }, ["c2", "c3"])
        XCTAssertEqual(try jsonCards(["search", "\"short and strong\""]).map { $0["id"] as? String }, ["c2"])
        XCTAssertEqual(try jsonCards(["search", "espress*", "OR", "author:ann"]).count, 2)
        XCTAssertEqual(try jsonCards(["search", "french", "NOT", "milk"]).count, 0)
        let text = try feeds(["search", "coffee"])
        XCTAssertTrue(text.stdout.hasPrefix("Café au lait\n"), text.stdout)
        XCTAssertEqual(try jsonCards(["read", "--unread"]).count, 3, "searching marks nothing read")
        let bad = try feeds(["search", "AND"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("cannot search for AND"), bad.stderr)
    }

    func testMarkByIdSourceAllAndBefore() throws {
        let ids = try jsonCards(["read", "--keep-unread"]).compactMap { $0["cardID"] as? Int }
        XCTAssertEqual(try feeds(["mark", "read", String(ids[0]), "#\(ids[1])"]).stdout, "2 cards marked read\n")
        XCTAssertEqual(try feeds(["mark", "read", String(ids[0])]).stdout, "0 cards marked read\n", "already read")
        XCTAssertEqual(try feeds(["mark", "unread", "--all"]).stdout, "2 cards marked unread\n")
        XCTAssertEqual(try feeds(["mark", "read", "--before", "2024-01-04"]).stdout, "1 card marked read\n")
        XCTAssertEqual(try feeds(["mark", "read", "--source", "Local"]).stdout, "2 cards marked read\n")
        XCTAssertEqual(try feeds(["mark", "unread", "--source", "feed.rss"]).stdout, "3 cards marked unread\n", "a source by its URL")
        // An id that is no card: a usage error naming it, and nothing marked.
        let missing = try feeds(["mark", "read", String(ids[0]), "99999"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no card #99999"), missing.stderr)
        XCTAssertEqual(try feeds(["mark", "read", String(ids[0])]).stdout, "1 card marked read\n", "the valid id was not marked either")
    }
}
