import Foundation
import TestSupport
import XCTest

/// `feeds parse --as ENGINE` and search JSON detected without it: the card model of a saved
/// search response, and one-line errors for responses of the wrong kind.
final class ParseSearchCommandTests: XCTestCase {
    func path(_ name: String) -> String { Fixtures.url("search/" + name).path }

    func testAsEngineGivesTheCardModel() throws {
        let r = try FeedsCommand.run(["parse", "--json", "--as", "hn", path("hn.json")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "hn")
        let entries = try XCTUnwrap(json["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[1]["link"] as? String, "https://news.ycombinator.com/item?id=41000002")
        XCTAssertEqual(entries[1]["key"] as? String, "link:https://news.ycombinator.com/item?id=41000002")
        XCTAssertEqual(entries[0]["kind"] as? String, "article")
    }

    func testTextOutputMatchesSnapshot() throws {
        let r = try FeedsCommand.run(["parse", "--as", "susi", path("susi-rss.json")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try Fixtures.string("snapshots/parse-search-susi.txt"))
    }

    func testJSONShapesAreDetectedWithoutAs() throws {
        for (name, engine) in [("ddg.json", "ddg"), ("searxng.json", "searxng"), ("susi-rss.json", "susi"), ("hn.json", "hn")] {
            let r = try FeedsCommand.run(["parse", "--json", path(name)])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasSuffix("\"format\":\"\(engine)\"}\n"), name)
        }
        // From standard input too, and a JSON Feed stays a JSON Feed.
        let stdin = try FeedsCommand.run(["parse", "--json", "-"], stdin: try Fixtures.data("search/ddg.json"))
        XCTAssertTrue(stdin.stdout.hasSuffix("\"format\":\"ddg\"}\n"), stdin.stderr)
        let feed = try FeedsCommand.run(["parse", "--json", Fixtures.url("feeds/jsonfeed.json").path])
        XCTAssertEqual(feed.status, 0, feed.stderr)
        XCTAssertTrue(feed.stdout.contains("\"format\":\"json1"), feed.stdout)
    }

    func testImageAnswerIsAnImageCard() throws {
        let r = try FeedsCommand.run(["parse", "--json", "--as", "susi", path("susi-rss.json")])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let entries = try XCTUnwrap(json["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.filter { $0["kind"] as? String == "image" }.count, 1)
    }

    func testWrongResponsesAreOneLineErrors() throws {
        let cases: [([String], String)] = [
            (["--as", "ddg", path("searxng.json")], "this is a SearXNG response, not DuckDuckGo"),
            (["--as", "ddg", path("truncated-ddg.json")], "not valid JSON"),
            (["--as", "searxng", path("error-page.html")], "HTML page"),
            (["--as", "bing", path("ddg.json")], "--as bing is not a search engine"),
        ]
        for (args, message) in cases {
            let r = try FeedsCommand.run(["parse"] + args)
            XCTAssertEqual(r.status, 2, args.joined(separator: " "))
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
    }

    func testFollowUpIsAWarning() throws {
        let r = try FeedsCommand.run(["parse", "--as", "susi", path("susi-websearch.json")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("web search for \"structured concurrency\""), r.stderr)
    }
}
