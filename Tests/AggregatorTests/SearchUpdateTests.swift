import Aggregator
import FeedModel
import Foundation
import Storage
import TestSupport
import XCTest

/// Saved searches through `feeds update`: each engine's response shape served on loopback,
/// polled with the feeds, saved as cards with the right fields; bad responses as one line each.
final class SearchUpdateTests: XCTestCase {
    let json = "application/json; charset=utf-8"

    func fixture(_ name: String) throws -> String { try Fixtures.string("search/" + name) }

    func cards(_ home: TemporaryDirectory, _ url: String) throws -> [Card] {
        let store = try FeedStore(path: home.file("feeds.db").path)
        guard let source = try store.source(url: url) else { XCTFail("no source \(url)"); return [] }
        XCTAssertEqual(source.configuration.kind, .search)
        return try store.cards(CardQuery(sourceID: source.id)).map(\.card)
    }

    func testEveryEngineIsPolledAndSavedAsCards() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        server.route("/ddg/", .text(try fixture("ddg.json"), contentType: json))
        server.route("/searx/search", .text(try fixture("searxng.json"), contentType: json))
        server.route("/searx-rss/search", .text(try fixture("searxng.rss"), contentType: "application/rss+xml"))
        server.route("/os/description.xml", .text(try fixture("opensearch-description.xml"), contentType: "application/opensearchdescription+xml"))
        server.route("/os/results", .text(try fixture("opensearch-results.atom"), contentType: "application/atom+xml"))
        server.route("/susi/susi/chat.json", .text(try fixture("susi-rss.json"), contentType: json))
        server.route("/susi-web/chat.json", .text(try fixture("susi-websearch.json"), contentType: json))
        server.route("/web-ddg/", .text(try fixture("ddg.json"), contentType: json))
        server.route("/hn/search", .text(try fixture("hn.json"), contentType: json))
        try home.write("sources", """
            search:ddg "swift programming" endpoint=\(server.url("/ddg/")) name=ddg
            search:searxng "sqlite wal" endpoint=\(server.url("/searx/")) name=searx
            search:searx "sqlite wal rss" endpoint=\(server.url("/searx-rss")) format=rss name=searx-rss
            search:opensearch "libxml2 sax" endpoint=\(server.url("/os/description.xml")) count=5 name=os
            search:susi "news about swift" endpoint=\(server.url("/susi/")) name=susi
            search:susi "what is structured concurrency" endpoint=\(server.url("/susi-web/chat.json")) websearch=ddg websearch-endpoint=\(server.url("/web-ddg/")) name=susi-web
            search:hn "swift concurrency" endpoint=\(server.url("/hn/search")) count=20 name=hn

            """)
        let run = try CLIRun.run(["--home", home.path, "update", "--all", "--verbose"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue((run.stdout + run.stderr).contains("7 sources: 7 ok"), run.stdout + run.stderr)

        // The requests each engine's API expects.
        XCTAssertEqual(server.requests(path: "/ddg/").first?.target, "/ddg/?q=swift%20programming&format=json&no_redirect=1&skip_disambig=1")
        XCTAssertEqual(server.requests(path: "/searx/search").first?.target, "/searx/search?q=sqlite%20wal&format=json")
        XCTAssertEqual(server.requests(path: "/searx-rss/search").first?.target, "/searx-rss/search?q=sqlite%20wal%20rss&format=rss")
        XCTAssertEqual(server.requests(path: "/os/results").first?.target, "/os/results?q=libxml2%20sax&n=&p=1&lang=*")
        XCTAssertEqual(server.requests(path: "/susi/susi/chat.json").first?.target, "/susi/susi/chat.json?q=news%20about%20swift")
        XCTAssertEqual(server.requests(path: "/web-ddg/").first?.target, "/web-ddg/?q=structured%20concurrency&format=json&no_redirect=1&skip_disambig=1",
                       "the SUSI websearch action's query goes to the configured engine")
        XCTAssertEqual(server.requests(path: "/hn/search").first?.target, "/hn/search?query=swift%20concurrency&tags=story&hitsPerPage=20")
        XCTAssertEqual(server.requests(path: "/ddg/").first?.header("Accept")?.hasPrefix("application/json"), true)

        // DuckDuckGo: abstract, results, topics, and the topics of nested groups.
        let ddg = try cards(home, "search:ddg swift programming")
        XCTAssertEqual(Set(ddg.compactMap(\.title)), ["Swift (programming language)", "Official site", "Swift concurrency", "Objective-C", "Swift (bird)", "Taylor Swift"])
        let objc = try XCTUnwrap(ddg.first { $0.title == "Objective-C" })
        XCTAssertEqual(objc.link, "https://duckduckgo.com/Objective-C")
        XCTAssertEqual(objc.image, "https://duckduckgo.com/i/objc.png", "relative icon resolved against the site")
        XCTAssertEqual(objc.description?.contains("script"), false, "HTML in text fields is sanitized")
        XCTAssertEqual(ddg.first { $0.title == "Swift concurrency" }?.description, "Structured concurrency with <i>async/await</i> &amp; actors.")

        // SearXNG JSON: missing fields, HTML in content, thumbnail, dates; no url, no card.
        let searx = try cards(home, "search:searxng sqlite wal")
        XCTAssertEqual(searx.count, 3)
        let wal = try XCTUnwrap(searx.first { $0.link == "https://example.org/blog/wal-mode#intro" })
        XCTAssertEqual(wal.title, "WAL mode & checkpoints explained")
        XCTAssertEqual(wal.image, "https://example.org/thumbs/wal.webp")
        XCTAssertEqual(wal.published?.iso8601, "2024-01-02T10:00:00Z")
        XCTAssertEqual(wal.author, "Ann Example")
        XCTAssertNil(wal.description)

        // SearXNG RSS: its date format.
        let rss = try cards(home, "search:searxng sqlite wal rss")
        XCTAssertEqual(rss.first { $0.link == "https://www.sqlite.org/wal.html" }?.published?.iso8601, "2024-01-02T08:00:00Z")

        // OpenSearch: description document → template → Atom results, relative links resolved.
        let os = try cards(home, "search:opensearch libxml2 sax")
        XCTAssertEqual(Set(os.compactMap(\.link)), ["https://gnome.pages.example/libxml2/sax2.html", server.url("/docs/push.html")])

        // SUSI: the rss action's keys, count -1 is all, and the image answer is an image card.
        let susi = try cards(home, "search:susi news about swift")
        XCTAssertEqual(susi.count, 4)
        let released = try XCTUnwrap(susi.first { $0.title == "Swift 6.2 released" })
        XCTAssertEqual(released.link, "https://www.swift.org/blog/swift-6.2-released/")
        XCTAssertEqual(released.image, "https://www.swift.org/assets/images/blog/6.2.png")
        XCTAssertEqual(released.description, "<p>Approachable <em>concurrency</em></p>")
        let image = try XCTUnwrap(susi.first { $0.kind == .image })
        XCTAssertEqual(image.image, "https://images.example.org/swift-logo.PNG?size=large#top")

        // SUSI websearch: the web engine's results are the source's cards.
        XCTAssertEqual(try cards(home, "search:susi what is structured concurrency").count, 6)

        // Hacker News: the item page when url is null.
        let hn = try cards(home, "search:hn swift concurrency")
        XCTAssertEqual(hn.first { $0.title?.hasPrefix("Ask HN") == true }?.link, "https://news.ycombinator.com/item?id=41000002")
        XCTAssertEqual(hn.first { $0.author == "alice" }?.published?.iso8601, "2026-11-20T09:15:00Z")
    }

    func testBadResponsesFailOneLineEachAndTheOthersStillUpdate() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        server.route("/good", .text(try fixture("hn.json"), contentType: json))
        server.route("/feed", .text(rss("feed", items: ["a", "b"]), contentType: "application/rss+xml"))
        server.route("/html/", .text(try fixture("error-page.html"), contentType: "text/html"))
        server.route("/truncated/", .text(try fixture("truncated-ddg.json"), contentType: json))
        server.route("/forbidden/search", .text("<html><body>403 Forbidden</body></html>", status: 403, contentType: "text/html"))
        server.route("/limited/", .text("{\"error\": \"rate limited\"}", status: 429, contentType: json, headers: [("Retry-After", "600")]))
        server.route("/other/", .text(try fixture("searxng.json"), contentType: json))
        server.route("/apierror", .text("{\"message\": \"invalid parameters\", \"status\": 400}", contentType: json))
        try home.write("sources", """
            search:hn "fine" endpoint=\(server.url("/good")) name=good
            \(server.url("/feed")) name=feed
            search:ddg "html" endpoint=\(server.url("/html/")) name=html
            search:ddg "truncated" endpoint=\(server.url("/truncated/")) name=truncated
            search:searxng "forbidden" endpoint=\(server.url("/forbidden/")) name=forbidden
            search:ddg "limited" endpoint=\(server.url("/limited/")) name=limited
            search:ddg "other" endpoint=\(server.url("/other/")) name=other
            search:hn "apierror" endpoint=\(server.url("/apierror")) name=apierror

            """)
        let run = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(run.status, 1, "some sources failed")
        let lines = run.stderrLines
        let failing = ["html", "truncated", "forbidden", "limited", "other", "apierror"]
        XCTAssertEqual(lines.count, failing.count, run.stderr)
        func line(_ name: String) -> String {
            let found = lines.filter { $0.hasPrefix("feeds: \(name): ") }
            XCTAssertEqual(found.count, 1, "one line for \(name):\n\(run.stderr)")
            return found.first ?? ""
        }
        XCTAssertTrue(line("html").contains("HTML page"), line("html"))
        XCTAssertTrue(line("truncated").contains("not valid JSON"), line("truncated"))
        XCTAssertTrue(line("forbidden").contains("403") && line("forbidden").contains("format=json"), line("forbidden"))
        XCTAssertTrue(line("limited").contains("429") && line("limited").contains("600"), line("limited"))
        XCTAssertTrue(line("other").contains("SearXNG response, not DuckDuckGo"), line("other"))
        XCTAssertTrue(line("apierror").contains("invalid parameters"), line("apierror"))

        let store = try FeedStore(path: home.file("feeds.db").path)
        XCTAssertEqual(try store.cards(CardQuery(sourceID: try XCTUnwrap(store.source(url: "search:hn fine")).id)).count, 3)
        XCTAssertEqual(try store.cards(CardQuery(sourceID: try XCTUnwrap(store.source(url: server.url("/feed"))).id)).count, 2)
        let limited = try XCTUnwrap(store.source(url: "search:ddg limited"))
        XCTAssertEqual(limited.consecutiveFailures, 1)
        XCTAssertNotNil(limited.lastError)
        XCTAssertNil(limited.disabledReason)
    }

    /// A result that stays in the results is one card; a new result is a new card.
    func testResultsDedupByNormalizedURLAcrossRuns() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        func results(_ items: [(String, String)]) -> ScriptedResponse {
            let list = items.map { "{\"url\": \"\($0.0)\", \"title\": \"\($0.1)\", \"engine\": \"x\"}" }.joined(separator: ",")
            return .text("{\"query\": \"q\", \"results\": [\(list)]}", contentType: json)
        }
        server.route("/s/search", results([("https://a.example/1", "One"), ("https://b.example/2", "Two")]))
        try home.write("sources", "search:searxng \"q\" endpoint=\(server.url("/s/"))\n")
        let first = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(first.status, 0, first.stderr)
        // Same results (one with another host case, a fragment and a new title), plus a new one.
        server.route("/s/search", results([("https://B.EXAMPLE:443/2#top", "Two, retitled"), ("https://a.example/1", "One"), ("https://c.example/3", "Three")]))
        let second = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let saved = try cards(home, "search:searxng q")
        XCTAssertEqual(saved.count, 3, saved.map { $0.link ?? "" }.joined(separator: " "))
        XCTAssertEqual(saved.first { $0.link?.contains("2") == true }?.title, "Two, retitled", "the same card, updated in place")
    }

    /// `preview=yes`: a result without an image gets its page's og:image, read once (cached).
    func testPreviewImagesComeFromThePageHeadAndAreCached() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        let page = try fixture("page-with-og.html")
        // A page longer than the head that is read: only its beginning is needed.
        server.route("/article", .text(page + String(repeating: "<p>filler</p>\n", count: 40_000), contentType: "text/html; charset=utf-8"))
        server.route("/plain", .text("<html><head><title>no image</title></head></html>", contentType: "text/html"))
        server.route("/s/search", .text("""
            {"query": "p", "results": [
              {"url": "\(server.url("/article"))", "title": "With og:image"},
              {"url": "\(server.url("/plain"))", "title": "Without"},
              {"url": "\(server.url("/own"))", "title": "Own image", "thumbnail": "https://img.example/own.jpg"}
            ]}
            """, contentType: json))
        try home.write("sources", "search:searxng \"p\" endpoint=\(server.url("/s/")) preview=yes\n")
        let first = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let saved = try cards(home, "search:searxng p")
        XCTAssertEqual(saved.first { $0.title == "With og:image" }?.image, server.url("/img/cover.jpg"))
        XCTAssertNil(saved.first { $0.title == "Without" }?.image)
        XCTAssertEqual(saved.first { $0.title == "Own image" }?.image, "https://img.example/own.jpg")
        XCTAssertEqual(server.requests(path: "/article").count, 1)
        XCTAssertEqual(server.requests(path: "/own").count, 0, "a card with an image needs no preview")

        let second = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.requests(path: "/article").count, 1, "cached: the page is not fetched again")
        XCTAssertEqual(server.requests(path: "/plain").count, 1, "no image is cached too")
        XCTAssertEqual(try cards(home, "search:searxng p").first { $0.title == "With og:image" }?.image, server.url("/img/cover.jpg"))
    }

    /// Without preview=yes no page is fetched.
    func testNoPreviewWithoutOptIn() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        server.route("/article", .text(try fixture("page-with-og.html"), contentType: "text/html"))
        server.route("/s/search", .text("{\"query\": \"p\", \"results\": [{\"url\": \"\(server.url("/article"))\", \"title\": \"A\"}]}", contentType: json))
        try home.write("sources", "search:searxng \"p\" endpoint=\(server.url("/s/"))\n")
        XCTAssertEqual(try CLIRun.run(["--home", home.path, "update", "--all"]).status, 0)
        XCTAssertEqual(server.requests(path: "/article").count, 0)
        XCTAssertNil(try cards(home, "search:searxng p").first?.image)
    }

    /// The offline demo (`make run`): its saved searches give cards next to the feeds' cards.
    func testDemoSourcesShowSearchCards() throws {
        let home = TemporaryDirectory()
        try FileManager.default.createSymbolicLink(at: home.file("sources"),
                                                   withDestinationURL: Fixtures.repositoryRoot.appendingPathComponent("Feeds/sources"))
        let run = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try cards(home, "search:ddg swift concurrency").count, 5)
        // The bundled answers name no picture: an engine's image is on the engine's host, which
        // the offline demo cannot reach (its pictures are the feeds', files next to them).
        XCTAssertEqual(try cards(home, "search:ddg swift concurrency").filter { $0.image != nil }.count, 0)
        let susi = try cards(home, "search:susi show me the swift logo")
        XCTAssertEqual(susi.map(\.title), ["Swift logo"])
        XCTAssertEqual(susi.filter { $0.image != nil }.count, 0)
        let list = try CLIRun.run(["--home", home.path, "sources", "--cards", "5"])
        XCTAssertTrue(list.stdout.contains("Web: Swift concurrency"), list.stdout)
        XCTAssertTrue(list.stdout.contains("Swift blog"), list.stdout)
    }
}
