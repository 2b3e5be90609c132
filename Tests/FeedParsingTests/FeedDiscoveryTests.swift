import FeedParsing
import TestSupport
import XCTest

/// The feeds a page announces (issue 19), from its bytes: the link forms sites write, and the
/// hostile ones a page may hold.
final class FeedDiscoveryTests: XCTestCase {
    func links(_ head: String, base: String? = "https://site.example/blog/post.html", charset: String? = nil) -> [FeedDiscovery.Candidate] {
        FeedDiscovery.announced(inPage: Array("<html><head>\(head)</head><body></body></html>".utf8), base: base, charset: charset)
    }

    func testRelativeHrefsResolveAgainstThePageOrItsBase() {
        XCTAssertEqual(links("<link rel=alternate type=application/rss+xml href=feed.xml>").map(\.url),
                       ["https://site.example/blog/feed.xml"])
        XCTAssertEqual(links("<link rel=alternate type=application/rss+xml href=/feed.xml>").map(\.url),
                       ["https://site.example/feed.xml"])
        XCTAssertEqual(links("<base href='https://cdn.example/x/'><link rel=alternate type=application/atom+xml href=a.atom>").map(\.url),
                       ["https://cdn.example/x/a.atom"])
        XCTAssertEqual(links("<link rel=alternate type=application/feed+json href=//other.example/f.json>").map(\.format), ["json"])
    }

    func testOnlyFeedTypesOfAlternateLinksCount() {
        let head = """
            <link rel="alternate stylesheet" type="text/css" href="a.css">
            <link rel="alternate" type="text/html" href="/fr/">
            <link rel="feed" type="application/rss+xml" href="/not-alternate.xml">
            <link rel="ALTERNATE" type=" application/atom+xml ; charset=utf-8" href="/yes.atom" title="  Yes  ">
            <script>document.write('<link rel="alternate" type="application/rss+xml" href="/script.xml">')</script>
            """
        XCTAssertEqual(links(head), [FeedDiscovery.Candidate(url: "https://site.example/yes.atom", title: "Yes", format: "atom")])
    }

    func testHostileHrefsAreRefusedAndTheCountIsBounded() {
        // A generator of hrefs no feed is at: other schemes, empty, blank, broken.
        let bad = ["javascript:alert(1)", "data:text/xml,<rss/>", "file:///etc/passwd", "", "   ", "mailto:a@b", "ftp://x/"]
        for href in bad {
            XCTAssertEqual(links("<link rel=alternate type=application/rss+xml href=\"\(href)\">"), [], href)
        }
        let many = (0..<500).map { "<link rel=alternate type=application/rss+xml href=/f\($0).xml>" }.joined()
        XCTAssertEqual(links(many).count, 32)
        let repeated = String(repeating: "<link rel=alternate type=application/rss+xml href=/same.xml>", count: 10)
        XCTAssertEqual(links(repeated).count, 1, "each URL once")
    }

    func testOnlyTheFirstBytesOfAPageAreRead() {
        let filler = String(repeating: "<meta name=x content=y>", count: 300_000 / 23)
        let late = "<link rel=alternate type=application/rss+xml href=/late.xml>"
        XCTAssertEqual(links(filler + late), [], "a link past the first 256 KiB is not looked at")
        XCTAssertEqual(links("<link rel=alternate type=application/rss+xml href=/early.xml>" + filler).count, 1)
    }

    func testTheUsualPathsAreOnThePagesOrigin() {
        XCTAssertEqual(FeedDiscovery.usualCandidates(for: "https://site.example/a/b?c"),
                       ["https://site.example/feed", "https://site.example/rss.xml", "https://site.example/atom.xml",
                        "https://site.example/index.xml", "https://site.example/feed.json"])
        XCTAssertEqual(FeedDiscovery.usualCandidates(for: "file:///x"), [])
    }
}
