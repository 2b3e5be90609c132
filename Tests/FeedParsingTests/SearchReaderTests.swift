import FeedModel
import FeedParsing
import TestSupport
import XCTest

/// The search engine readers on fixtures modelled on each engine's real responses, odd ones
/// included: bytes in, cards out, no network.
final class SearchReaderTests: XCTestCase {
    func read(_ name: String, _ engine: SearchEngine?, query: String? = nil, base: String? = nil) throws -> SearchResult {
        try SearchReader.read([UInt8](Fixtures.data("search/" + name)), engine: engine, query: query, base: base)
    }

    func readText(_ text: String, _ engine: SearchEngine?) throws -> SearchResult {
        try SearchReader.read(Array(text.utf8), engine: engine)
    }

    func error(_ body: () throws -> Any) -> String {
        do { _ = try body(); XCTFail("expected an error"); return "" } catch { return error.localizedDescription }
    }

    // MARK: DuckDuckGo

    func testDuckDuckGoAbstractResultsTopicsAndNestedGroups() throws {
        let r = try read("ddg.json", .ddg)
        XCTAssertEqual(r.cards.map(\.title), ["Swift (programming language)", "Official site", "Swift concurrency",
                                               "Objective-C", "Swift (bird)", "Taylor Swift"])
        let abstract = r.cards[0]
        XCTAssertEqual(abstract.link, "https://en.wikipedia.org/wiki/Swift_(programming_language)")
        XCTAssertEqual(abstract.image, "https://duckduckgo.com/i/5d7e4e2e.png", "relative Image resolved against the site")
        XCTAssertTrue(abstract.description?.hasPrefix("Swift is a high-level") == true)
        // Result HTML: anchor text is the title, the rest the (sanitized) description.
        XCTAssertEqual(r.cards[2].description, "Structured concurrency with <i>async/await</i> &amp; actors.")
        XCTAssertNil(r.cards[2].image, "an empty Icon.URL is no image")
        XCTAssertEqual(r.cards[3].description, "The language Swift replaced on Apple platforms.")
        XCTAssertFalse(r.cards[3].description?.contains("alert") ?? true, "script dropped")
        XCTAssertEqual(r.cards[3].image, "https://duckduckgo.com/i/objc.png")
        XCTAssertNil(r.cards[1].description, "an empty second anchor is no description")
        XCTAssertEqual(r.cards[4].image, "https://duckduckgo.com/i/bird.jpg", "topics of a {Name, Topics} group are read")
        XCTAssertEqual(r.cards[5].link, "https://duckduckgo.com/Taylor_Swift", "upper-case <A> anchors too")
        XCTAssertTrue(r.cards.allSatisfy { $0.kind == .article })
    }

    func testDuckDuckGoWithoutAnswerIsZeroCards() throws {
        XCTAssertEqual(try read("ddg-empty.json", .ddg).cards.count, 0)
    }

    func testDuckDuckGoIconSizesAsStringsOrNumbers() throws {
        let json = """
            {"Heading": "", "RelatedTopics": [
              {"FirstURL": "https://duckduckgo.com/A", "Result": "<a href=\\"https://duckduckgo.com/A\\">A</a>", "Icon": {"URL": "/i/a.png", "Height": "64", "Width": 64}},
              {"FirstURL": "https://duckduckgo.com/B", "Result": "<a href=\\"https://duckduckgo.com/B\\">B</a>", "Icon": {"URL": "/i/px.gif", "Height": 1, "Width": "1"}},
              {"FirstURL": "https://duckduckgo.com/C", "Text": "C only as text", "Icon": null}
            ]}
            """
        let r = try readText(json, .ddg)
        XCTAssertEqual(r.cards.map(\.image), ["https://duckduckgo.com/i/a.png", nil, nil])
        XCTAssertEqual(r.cards[2].title, "C only as text")
    }

    // MARK: SearXNG

    func testSearXNGJSON() throws {
        let r = try read("searxng.json", .searxng)
        XCTAssertEqual(r.cards.map(\.link), ["https://www.sqlite.org/wal.html", "https://example.org/blog/wal-mode#intro",
                                              "https://images.example.net/photo/123"], "no url or an unsafe one: no card")
        XCTAssertEqual(r.cards[0].description, "The default method by which SQLite implements <b>atomic commit</b> and rollback is a rollback journal.")
        XCTAssertNil(r.cards[0].published, "publishedDate null")
        XCTAssertEqual(r.cards[1].title, "WAL mode & checkpoints explained")
        XCTAssertEqual(r.cards[1].published?.iso8601, "2024-01-02T10:00:00Z")
        XCTAssertEqual(r.cards[2].image, "https://images.example.net/full/123.PNG", "img_src before thumbnail")
        XCTAssertNil(r.totalResults, "number_of_results 0 means unknown")
    }

    func testSearXNGRSSAndItsDates() throws {
        let r = try read("searxng.rss", .searxng)
        XCTAssertEqual(r.cards.count, 2)
        XCTAssertEqual(r.cards[0].published?.iso8601, "2024-01-02T08:00:00Z", "YYYY-MM-DD HH:MM:SS+ZZZZ")
        XCTAssertEqual(r.cards[1].description, "<p>Checkpoints and readers</p>")
        XCTAssertEqual(r.totalResults, 2, "opensearch:totalResults")
    }

    // MARK: OpenSearch

    func testOpenSearchDescriptionGivesTheResultsTemplate() throws {
        let r = try read("opensearch-description.xml", .opensearch, query: "libxml2 sax", base: "https://search.example.com/os.xml")
        XCTAssertEqual(r.cards.count, 0)
        XCTAssertEqual(r.followUp, .fetch(url: "https://search.example.com/os/results?q=libxml2%20sax&n=&p=1&lang=*"))
    }

    func testOpenSearchAtomResults() throws {
        let r = try read("opensearch-results.atom", .opensearch, base: "https://search.example.com/os/results?q=x")
        XCTAssertEqual(r.cards.map(\.link), ["https://gnome.pages.example/libxml2/sax2.html", "https://search.example.com/docs/push.html"])
        XCTAssertEqual(r.cards[0].description, "<b>startElementNs</b> and friends")
        XCTAssertEqual(r.totalResults, 4_230_000)
    }

    func testOpenSearchTemplateExpansion() {
        XCTAssertEqual(OpenSearch.expand("https://e.org/s?q={searchTerms}&c={count?}&i={startIndex?}&p={startPage}&t={time:start?}",
                                         query: "C++ & \"ünïcode\"", count: 25),
                       "https://e.org/s?q=C%2B%2B%20%26%20%22%C3%BCn%C3%AFcode%22&c=25&i=1&p=1&t=")
        XCTAssertEqual(OpenSearch.expand("https://e.org/{searchTerms", query: "x"), "https://e.org/{searchTerms", "unclosed brace kept")
    }

    func testOpenSearchDescriptionDoesNotReadExternalEntities() throws {
        let doc = """
            <?xml version="1.0"?>
            <!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
              <Url type="application/rss+xml" template="https://e.org/s?q={searchTerms}&amp;x=&secret;"/>
            </OpenSearchDescription>
            """
        let r = try SearchReader.read(Array(doc.utf8), engine: .opensearch, query: "q")
        guard case .fetch(let url)? = r.followUp else { return XCTFail("no template found") }
        XCTAssertFalse(url.contains("root"), url)
        XCTAssertTrue(url.hasPrefix("https://e.org/s?q=q&x="), url)
    }

    func testOpenSearchDescriptionWithoutFeedTemplateIsAnError() {
        let doc = "<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\"><Url type=\"text/html\" template=\"https://e.org/?q={searchTerms}\"/></OpenSearchDescription>"
        XCTAssertTrue(error { try self.readText(doc, .opensearch) }.contains("no <Url> template for RSS or Atom"))
    }

    // MARK: SUSI

    func testSUSIRSSActionImageAnswerAndCountAll() throws {
        let r = try read("susi-rss.json", .susi)
        XCTAssertEqual(r.cards.count, 4, "count -1: all three data objects, then the image answer")
        XCTAssertEqual(r.cards[0].title, "Swift 6.2 released")
        XCTAssertEqual(r.cards[0].link, "https://www.swift.org/blog/swift-6.2-released/")
        XCTAssertEqual(r.cards[0].image, "https://www.swift.org/assets/images/blog/6.2.png", "the image key when the action names one")
        XCTAssertEqual(r.cards[0].description, "<p>Approachable <em>concurrency</em></p>")
        XCTAssertEqual(r.cards[1].description, "Vapor &amp; Hummingbird")
        XCTAssertNil(r.cards[2].link)
        XCTAssertEqual(r.cards[3].kind, .image)
        XCTAssertEqual(r.cards[3].image, "https://images.example.org/swift-logo.PNG?size=large#top", ".PNG in capitals, query and fragment ignored")
        XCTAssertNil(r.followUp)
    }

    func testSUSICountLargerThanTheDataIsAllOfIt() throws {
        let r = try read("susi-count-large.json", .susi)
        XCTAssertEqual(r.cards.map(\.title), ["First", "Second"])
        XCTAssertEqual(r.cards.map(\.description), [nil, nil], "a key the data lacks is no description")
    }

    func testSUSICountClamp() throws {
        let data = (1...5).map { "{\"t\": \"n\($0)\", \"l\": \"https://e.org/\($0)\"}" }.joined(separator: ",")
        func cards(count: String) throws -> Int {
            try readText("{\"answers\": [{\"data\": [\(data)], \"actions\": [{\"type\": \"rss\", \"title\": \"t\", \"link\": \"l\", \"count\": \(count)}]}]}", .susi).cards.count
        }
        XCTAssertEqual(try cards(count: "-1"), 5)
        XCTAssertEqual(try cards(count: "2"), 2)
        XCTAssertEqual(try cards(count: "5"), 5)
        XCTAssertEqual(try cards(count: "6"), 5)
        XCTAssertEqual(try cards(count: "\"3\""), 3, "a count sent as a string")
        XCTAssertEqual(try cards(count: "0"), 5)
        XCTAssertEqual(try cards(count: "-7"), 5)
        XCTAssertEqual(try cards(count: "null"), 5)
    }

    func testSUSIWebsearchIsAFollowUp() throws {
        let r = try read("susi-websearch.json", .susi)
        XCTAssertEqual(r.followUp, .webSearch(query: "structured concurrency"))
        XCTAssertEqual(r.cards.count, 0, "text answers are chat replies, not cards")
    }

    func testSUSIWithoutAnswersIsAnError() {
        XCTAssertTrue(error { try self.readText("{\"query\": \"x\", \"answers\": []}", .susi) }.contains("answers"))
    }

    // MARK: Hacker News

    func testHackerNewsHits() throws {
        let r = try read("hn.json", .hn)
        XCTAssertEqual(r.cards.count, 3)
        XCTAssertEqual(r.cards[0].link, "https://blog.example.com/swift-concurrency")
        XCTAssertEqual(r.cards[0].author, "alice")
        XCTAssertEqual(r.cards[1].link, "https://news.ycombinator.com/item?id=41000002", "url null: the item page")
        XCTAssertEqual(r.cards[1].description, "<p>Has anyone moved a big codebase to Swift 6?</p><p>What broke <a href=\"https://example.com/x\">first</a>?</p>")
        XCTAssertEqual(r.cards[2].title, "Swift concurrency in practice", "a comment hit carries its story's title")
        XCTAssertEqual(r.cards[2].description, "Actors made our code <i>simpler</i>.")
        XCTAssertEqual(r.totalResults, 3)
    }

    // MARK: Detection and bad responses

    func testJSONShapesAreDetected() throws {
        for (name, engine) in [("ddg.json", SearchEngine.ddg), ("searxng.json", .searxng), ("susi-rss.json", .susi), ("hn.json", .hn)] {
            XCTAssertEqual(SearchReader.detect(json: [UInt8](try Fixtures.data("search/" + name))), engine, name)
            XCTAssertEqual(try read(name, nil).engine, engine, name)
        }
        XCTAssertNil(SearchReader.detect(json: [UInt8](try Fixtures.data("feeds/jsonfeed.json"))), "a JSON Feed is no search")
    }

    func testBadResponsesSayWhatCameInstead() {
        XCTAssertTrue(error { try self.read("error-page.html", .ddg) }.contains("HTML page"))
        XCTAssertTrue(error { try self.read("truncated-ddg.json", .ddg) }.contains("not valid JSON"))
        XCTAssertEqual(error { try self.read("searxng.json", .ddg) }, "this is a SearXNG response, not DuckDuckGo: check the source's engine and endpoint")
        XCTAssertTrue(error { try self.read("hn.json", .susi) }.contains("Hacker News"))
        XCTAssertTrue(error { try self.read("ddg.json", .opensearch) }.contains("DuckDuckGo"))
        XCTAssertTrue(error { try self.readText("{\"foo\": 1}", .hn) }.contains("hits"))
        XCTAssertTrue(error { try self.readText("[1, 2]", .ddg) }.contains("not an object"))
        XCTAssertTrue(error { try self.readText("", .searxng) }.contains("empty"))
        XCTAssertTrue(error { try self.readText("Rate limit exceeded", .ddg) }.contains("not JSON"))
        XCTAssertTrue(error { try self.readText("<rss version=\"2.0\"><channel></channel></rss>", .hn) }.contains("XML"))
        XCTAssertTrue(error { try self.readText("{\"error\": {\"message\": \"quota used up\"}}", .ddg) }.contains("quota used up"))
    }

    // MARK: Image answers and previews

    func testImageURLs() {
        for yes in ["https://e.org/a.jpg", "http://e.org/a.JPEG", "https://e.org/p/a.PNG", "https://e.org/a.gif?x=1",
                    "https://e.org/a.webp#f", "https://e.org/a.AviF"] {
            XCTAssertTrue(WebAddress.looksLikeImageURL(yes), yes)
        }
        for no in ["https://e.org/a.jpg.html", "ftp://e.org/a.png", "/a.png", "https://e.org/png", "https://e.org/?f=a.png",
                   "data:image/png;base64,AAAA", "https:///a.png", "just text"] {
            XCTAssertFalse(WebAddress.looksLikeImageURL(no), no)
        }
    }

    func testPagePreviewFromACutHead() throws {
        let page = [UInt8](try Fixtures.data("search/page-with-og.html"))
        XCTAssertEqual(PagePreview.image(inPageHead: page, base: "https://blog.example.com/post", charset: "utf-8"),
                       "https://blog.example.com/img/cover.jpg")
        // Cut inside the og:image tag: the next candidate (twitter:image) is taken.
        let text = String(decoding: page, as: UTF8.self)
        let cut = text.range(of: "content=\"/img")!.lowerBound
        let twitter = PagePreview.image(inPageHead: Array(text[..<cut].utf8) + Array(text[text.range(of: "<meta name=\"twitter")!.lowerBound...].utf8),
                                        base: "https://blog.example.com/post", charset: nil)
        XCTAssertEqual(twitter, "https://blog.example.com/img/twitter.jpg")
        XCTAssertNil(PagePreview.image(inPageHead: Array("<html><head><title>x</title>".utf8), base: nil, charset: nil))
    }
}
