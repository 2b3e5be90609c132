@testable import Aggregator
import FeedParsing
import TestSupport
import XCTest

/// Search lines of the sources file: `search:ENGINE "QUERY" [options]`, their identity, their
/// request URLs, their errors, and `formatted` reading back as the same entry.
final class SearchSourcesTests: XCTestCase {
    func testSearchLinesParseAndRoundTrip() throws {
        let text = """
            search:ddg "swift concurrency" every=6h preview=yes name="DDG swift"
            search:searxng "sqlite wal" endpoint=https://searx.example/ format=rss tags=db
            search:opensearch "a=b \\"quoted\\"" endpoint="https://e.org/s?q={searchTerms}&n={count?}" count=5
            search:susi "weather" websearch=searxng websearch-endpoint=https://searx.example/
            search:hn rust   # a one-word query needs no quotes
            search:DuckDuckGo "rust"
            https://example.org/feed.xml name=feed
            """
        let entries = try SourcesFile.parse(text)
        XCTAssertEqual(entries.map(\.url), ["search:ddg swift concurrency", "search:searxng sqlite wal",
                                            "search:opensearch a=b \"quoted\"", "search:susi weather", "search:hn rust",
                                            "search:ddg rust", "https://example.org/feed.xml"])
        let ddg = try XCTUnwrap(entries[0].search)
        XCTAssertEqual(ddg, SavedSearch(engine: .ddg, query: "swift concurrency", preview: true))
        XCTAssertEqual(entries[0].everySeconds, 6 * 3600)
        XCTAssertEqual(entries[0].name, "DDG swift")
        XCTAssertEqual(entries[1].search?.format, "rss")
        XCTAssertEqual(entries[2].search?.count, 5)
        XCTAssertEqual(entries[3].search?.webSearch, .searxng)
        XCTAssertNil(entries[6].search)
        XCTAssertEqual(entries[0].configuration.kind, .search)
        XCTAssertEqual(entries[6].configuration.kind, .feed)
        for entry in entries {
            var again = try XCTUnwrap(SourcesFile.parse(entry.formatted).first, entry.formatted)
            again.line = entry.line
            XCTAssertEqual(again, entry, entry.formatted)
        }
        XCTAssertEqual(entries[2].formatted, "search:opensearch \"a=b \\\"quoted\\\"\" endpoint=https://e.org/s?q={searchTerms}&n={count?} count=5")
    }

    func testRequestURLs() {
        let folder = "/srv/feeds"
        func url(_ s: SavedSearch) -> String { SourceEntry(url: s.identity, search: s).requestURL(relativeTo: folder) }
        XCTAssertEqual(url(SavedSearch(engine: .ddg, query: "a b&c")), "https://api.duckduckgo.com/?q=a%20b%26c&format=json&no_redirect=1&skip_disambig=1")
        XCTAssertEqual(url(SavedSearch(engine: .searxng, query: "x", endpoint: "https://searx.example")), "https://searx.example/search?q=x&format=json")
        XCTAssertEqual(url(SavedSearch(engine: .searxng, query: "x", endpoint: "https://searx.example/search?lang=en", format: "rss")),
                       "https://searx.example/search?lang=en&q=x&format=rss")
        XCTAssertEqual(url(SavedSearch(engine: .susi, query: "hi")), "https://api.susi.ai/susi/chat.json?q=hi")
        XCTAssertEqual(url(SavedSearch(engine: .susi, query: "hi", endpoint: "http://localhost:4000")), "http://localhost:4000/susi/chat.json?q=hi")
        XCTAssertEqual(url(SavedSearch(engine: .hn, query: "swift", count: 30)), "https://hn.algolia.com/api/v1/search?query=swift&tags=story&hitsPerPage=30")
        XCTAssertEqual(url(SavedSearch(engine: .opensearch, query: "q", endpoint: "https://e.org/os.xml")), "https://e.org/os.xml")
        XCTAssertEqual(url(SavedSearch(engine: .opensearch, query: "q r", endpoint: "https://e.org/s?q={searchTerms}&n={count?}", count: 5)),
                       "https://e.org/s?q=q%20r&n=5")
        // A saved response on disk, for offline use: read as is.
        let file = SourceEntry(url: "search:ddg x", search: SavedSearch(engine: .ddg, query: "x", endpoint: "samples/ddg.json"))
        XCTAssertEqual(file.requestURL(relativeTo: folder), "file:///srv/feeds/samples/ddg.json")
        XCTAssertTrue(file.isFile)
        XCTAssertFalse(SourceEntry(url: "search:ddg x", search: SavedSearch(engine: .ddg, query: "x")).isFile)
    }

    func testBadSearchLinesNameTheLine() {
        let cases: [(String, String)] = [
            ("search:bing \"x\"", "unknown search engine 'bing'"),
            ("search:ddg", "needs a query"),
            ("search:ddg every=6h", "needs a query"),
            ("search:searxng \"x\"", "needs endpoint="),
            ("search:opensearch \"x\"", "needs endpoint="),
            ("search:ddg \"x\" format=rss", "format= is an option of search:searxng only"),
            ("search:searxng \"x\" endpoint=https://s.example/ format=xml", "format=xml"),
            ("search:ddg \"x\" preview=maybe", "preview=maybe"),
            ("search:ddg \"x\" count=lots", "count=lots"),
            ("search:ddg \"x\" endpoint=gopher://x/", "endpoint=gopher://x/"),
            ("search:susi \"x\" websearch=susi", "websearch=susi"),
            ("search:susi \"x\" websearch=searxng", "websearch=searxng needs websearch-endpoint="),
            ("search:ddg \"x\" colour=red", "unknown option 'colour'"),
            ("https://a.example/f endpoint=https://b.example/", "endpoint= is an option of search lines"),
            ("search:ddg \"x\"\nsearch:duckduckgo x", "search:ddg x is already listed on line 1"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try SourcesFile.parse(text, path: "sources"), text) { error in
                let d = error.localizedDescription
                XCTAssertTrue(d.hasPrefix("sources:"), d)
                XCTAssertTrue(d.contains(message), "\(text) → \(d)")
            }
        }
    }

    func testRemoveFindsSearchLinesByIdentity() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("sources").path
        try """
            # mine
            search:ddg "swift concurrency"  every=6h
            search:ddg "swift"
            https://example.org/feed.xml

            """.write(toFile: path, atomically: false, encoding: .utf8)
        try SourcesFile.remove(urls: ["search:ddg swift concurrency"], from: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "# mine\nsearch:ddg \"swift\"\nhttps://example.org/feed.xml\n")
    }

    func testAddRemoveAndParseFromTheCommandLine() throws {
        let home = TemporaryDirectory()
        let feeds = ["--home", home.path]
        let add = try CLIRun.run(feeds + ["add", "--search", "ddg", "swift concurrency", "--every", "6h", "--preview", "--name", "Swift web"])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--search", "ddg", "swift concurrency"]).status, 2, "already listed")
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--search", "searxng", "x"]).status, 2, "searxng needs an endpoint")
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--search", "bing", "x"]).status, 2)
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "https://a.example/f", "--preview"]).status, 2, "--preview goes with --search")
        let added = try CLIRun.run(feeds + ["add", "--search", "searxng", "sqlite wal", "--endpoint", "http://127.0.0.1:9/"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let text = try String(contentsOf: home.file("sources"), encoding: .utf8)
        XCTAssertTrue(text.contains("search:ddg \"swift concurrency\" preview=yes name=\"Swift web\" every=6h\n"), text)
        XCTAssertTrue(text.contains("search:searxng \"sqlite wal\" endpoint=http://127.0.0.1:9/\n"), text)
        let list = try CLIRun.run(feeds + ["sources"])
        XCTAssertTrue(list.stdout.contains("Swift web"), list.stdout)
        let removed = try CLIRun.run(feeds + ["remove", "Swift web"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(try String(contentsOf: home.file("sources"), encoding: .utf8).contains("swift concurrency"))
    }
}
