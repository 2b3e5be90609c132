import Foundation
import TestSupport
import XCTest

/// `feeds read`, `feeds search` and `feeds mark` on a real PostgreSQL (`--database`), compared
/// with the same home's run on SQLite: the same feeds updated in the same order, the same
/// output byte for byte (issue 22).
final class ReaderOnPostgresTests: PostgresCLITestCase {
    /// Two feeds on `site` (dated items with descriptions, authors, an enclosure), named and
    /// tagged in the sources file.
    private func publish(_ site: LoopbackHTTPServer) -> String {
        let topics = ["heat pump", "swift actors", "garden soil", "night trains", "sourdough"]
        var lines = ""
        for feed in 0..<2 {
            let items = (0..<5).map { n in
                let day = 10 + n * 3 + feed
                return """
                <item><guid>g\(feed)-\(n)</guid><title>\(topics[n].capitalized) \(feed)</title>
                <link>http://127.0.0.1/\(feed)/\(n)</link><author>ann@example.org (Ann \(feed))</author>
                <pubDate>\(day) Nov 2026 08:\(10 + n):00 GMT</pubDate>
                <description>&lt;p&gt;All about \(topics[n]) and more, part \(n).&lt;/p&gt;</description>
                \(n == 2 ? "<enclosure url=\"http://127.0.0.1/a\(feed).mp3\" length=\"3000000\" type=\"audio/mpeg\"/>" : "")
                </item>
                """
            }.joined()
            site.route("/f\(feed).xml", .text("<rss version=\"2.0\"><channel><title>Feed \(feed)</title>\(items)</channel></rss>",
                                               contentType: "application/rss+xml"))
            lines += site.url("/f\(feed).xml") + " name=Feed\(feed) tags=" + (feed == 0 ? "tech" : "home") + "\n"
        }
        return lines
    }

    /// The homes of the test, kept until it ends (a released one is removed).
    private var folders: [TemporaryDirectory] = []

    /// A home on SQLite and one on PostgreSQL with the same sources, updated one source after
    /// the other (the card ids then follow the same order on both).
    private func homes(_ site: LoopbackHTTPServer, database: String) throws -> (sqlite: [String], postgres: [String]) {
        let sources = publish(site)
        let a = TemporaryDirectory("feeds-cli-pgread-sqlite"), b = TemporaryDirectory("feeds-cli-pgread-pg")
        folders += [a, b]
        for dir in [a, b] { try sources.write(to: dir.file("sources"), atomically: false, encoding: .utf8) }
        let sqlite = ["--home", a.path], postgres = ["--home", b.path, "--database", database]
        for base in [sqlite, postgres] {
            for name in ["Feed0", "Feed1"] {
                let update = try FeedsCommand.run(base + ["update", site.url("/\(name == "Feed0" ? "f0" : "f1").xml")])
                XCTAssertEqual(update.status, 0, update.stderr)
            }
        }
        return (sqlite, postgres)
    }

    private func feeds(_ arguments: [String], environment: [String: String] = ["TZ": "Europe/Berlin", "COLUMNS": "72"]) throws -> FeedsCommand.Result {
        let result = try FeedsCommand.run(arguments, environment: environment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result
    }

    func testReadListsTheSameCardsAsOnSQLiteAndMarksThemRead() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let (sqlite, postgres) = try homes(site, database: database)
        let listings: [[String]] = [
            ["read", "--limit", "4", "--keep-unread"],
            ["read", "--sort", "oldest", "--group", "source", "--keep-unread"],
            ["read", "--sort", "title", "--tag", "TECH", "--brief"],
            ["read", "--source", "feed1", "--since", "2026-11-15", "--keep-unread"],
            ["read", "--sort", "source", "--json", "--utc", "--limit", "3", "--keep-unread"],
        ]
        for listing in listings {
            var expected = try feeds(sqlite + listing).stdout
            var got = try feeds(postgres + listing).stdout
            if listing.contains("--json") {
                // The moment each home first saw a card is its own.
                let seen = try NSRegularExpression(pattern: "\"firstSeen\" *: *\"[^\"]*\"")
                expected = seen.stringByReplacingMatches(in: expected, range: NSRange(expected.startIndex..., in: expected), withTemplate: "")
                got = seen.stringByReplacingMatches(in: got, range: NSRange(got.startIndex..., in: got), withTemplate: "")
            }
            XCTAssertFalse(expected.isEmpty, "\(listing)")
            XCTAssertEqual(got, expected, "\(listing)")
        }
        // Reading four marks them read, on PostgreSQL as on SQLite: --unread shows the other six.
        for base in [sqlite, postgres] { _ = try feeds(base + ["read", "--limit", "4"]) }
        let unread = try feeds(postgres + ["read", "--unread", "--brief"]).stdout
        XCTAssertEqual(unread, try feeds(sqlite + ["read", "--unread", "--brief"]).stdout)
        XCTAssertEqual(unread.split(separator: "\n").count, 6, unread)
    }

    func testSearchFindsTheSameTitlesAsOnSQLite() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let (sqlite, postgres) = try homes(site, database: database)
        for query in [["swift"], ["trains", "--sort", "newest"], ["\"heat pump\" OR sourdough", "--sort", "oldest"],
                      ["part", "--source", "Feed0", "--sort", "title"], ["author:ann", "--tag", "home", "--sort", "newest"]] {
            let expected = try feeds(sqlite + ["search"] + query + ["--brief"]).stdout
            let got = try feeds(postgres + ["search"] + query + ["--brief"]).stdout
            XCTAssertFalse(expected.isEmpty, "\(query)")
            XCTAssertEqual(got, expected, "\(query)")
        }
        // Relevance is bm25 on one and ts_rank on the other: the same titles, maybe not in one order.
        func titles(_ base: [String]) throws -> [String] {
            let json = try feeds(base + ["search", "soil"] + ["--json"]).stdout
            let cards = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
            return cards.compactMap { $0["title"] as? String }.sorted()
        }
        XCTAssertEqual(try titles(postgres), ["Garden Soil 0", "Garden Soil 1"])
        XCTAssertEqual(try titles(postgres), try titles(sqlite))
        let bad = try FeedsCommand.run(postgres + ["search", "\"unclosed"])
        let badOnSQLite = try FeedsCommand.run(sqlite + ["search", "\"unclosed"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertEqual(bad.stderr, badOnSQLite.stderr)
    }

    func testMarkedCardsLeaveTheUnreadListingOnPostgres() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let (sqlite, postgres) = try homes(site, database: database)
        for base in [sqlite, postgres] {
            XCTAssertEqual(try feeds(base + ["mark", "read", "1", "#2"]).stdout, "2 cards marked read\n")
            XCTAssertEqual(try feeds(base + ["mark", "read", "--source", "FEED1"]).stdout, "5 cards marked read\n")
            XCTAssertEqual(try feeds(base + ["mark", "read", "--before", "2026-11-14"]).stdout, "0 cards marked read\n")
        }
        let unread = try feeds(postgres + ["read", "--unread", "--brief"]).stdout
        XCTAssertEqual(unread, try feeds(sqlite + ["read", "--unread", "--brief"]).stdout)
        XCTAssertEqual(unread.split(separator: "\n").count, 3, unread)
        XCTAssertFalse(unread.contains("Feed1"), unread)
        XCTAssertEqual(try feeds(postgres + ["mark", "unread", "--all"]).stdout, "7 cards marked unread\n")
        XCTAssertEqual(try feeds(postgres + ["read", "--unread", "--brief"]).stdout.split(separator: "\n").count, 10)
        let missing = try FeedsCommand.run(postgres + ["mark", "read", "99"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, try FeedsCommand.run(sqlite + ["mark", "read", "99"]).stderr)
        let unknown = try FeedsCommand.run(postgres + ["read", "--source", "nosuch"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no source named 'nosuch'"), unknown.stderr)
    }
}
