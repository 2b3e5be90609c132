import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// The generated pages against golden files, and every page through the page checker.
/// Set FEEDS_UPDATE_GOLDEN=1 to rewrite the golden files after an intended change.
final class DigestPagesTests: DigestTestCase {
    static let goldenFiles = ["index.html", "sort-title.html", "archive/index.html", "sources/1.html", "digest.atom", "style.css"]

    func testPagesMatchGoldenFiles() throws {
        try fillStore()
        try writeSite()
        for name in Self.goldenFiles {
            let golden = "digest/" + name.replacingOccurrences(of: "/", with: "-")
            let actual = try read(name)
            if ProcessInfo.processInfo.environment["FEEDS_UPDATE_GOLDEN"] == "1" {
                try actual.write(to: Fixtures.url(golden), atomically: false, encoding: .utf8)
                continue
            }
            XCTAssertEqual(actual, try Fixtures.string(golden), "\(name) differs from Tests/Fixtures/\(golden)")
        }
    }

    func testEveryPagePassesThePageChecker() throws {
        try fillStore()
        try writeSite()
        let pages = try pages()
        XCTAssertEqual(pages, ["archive/2026-10-20.html", "archive/2026-11-27.html", "archive/2026-11-28.html", "archive/2026-11-29.html",
                               "archive/index.html", "index.html", "sort-newest.html", "sort-oldest.html", "sort-source.html",
                               "sort-title.html", "sources/1.html", "sources/2.html", "sources/3.html", "sources/index.html", "tags/index.html"])
        for page in pages { XCTAssertEqual(PageChecker.problems(in: try read(page), name: page), []) }
    }

    func testThePageCheckerCatchesWhatItLooksFor() {
        let head = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">"
        XCTAssertEqual(PageChecker.problems(in: head + "<p>ok</p><img src=\"images/a.png\">", name: "p"), [])
        XCTAssertFalse(PageChecker.problems(in: head + "<script>x()</script>", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: head + "<p onclick=\"x()\">a</p>", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: head + "<a href=\" JavaScript:x()\">a</a>", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: head + "<img src=\"https://tracker.example/p.gif\">", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: head + "<img src=\"//tracker.example/p.gif\">", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: head + "<link rel=\"stylesheet\" href=\"http://cdn.example/x.css\">", name: "p").isEmpty)
        XCTAssertFalse(PageChecker.problems(in: "<p>no policy</p>", name: "p").isEmpty)
    }

    func testHostileStringsAreEscapedAndUnsafeLinksDropped() throws {
        try fillStore()
        try writeSite()
        let index = try read("index.html")
        XCTAssertTrue(index.contains("Hello &lt;script&gt;alert(1)&lt;/script&gt; world"))
        XCTAssertTrue(index.contains("Blog &lt;&amp;&gt; \"quotes\""))
        XCTAssertTrue(index.contains("aria-label=\"Cards of Blog &lt;&amp;&gt; &quot;quotes&quot;\""))
        let archive = try read("archive/2026-10-20.html")
        XCTAssertTrue(archive.contains("<h2 class=\"title\">Old post</h2>"), "a javascript: link is not linked")
        XCTAssertFalse(archive.contains("javascript:"))
    }

    func testCardsShowCachedImagesSizedAndPlaceholdersOtherwise() throws {
        try fillStore()
        try writeSite()
        let index = try read("index.html")
        XCTAssertTrue(index.contains("<a class=\"pic\" href=\"images/aaaa.png\" tabindex=\"-1\"><img src=\"images/aaaa.png\" width=\"640\" height=\"360\" alt=\"Hello &lt;script&gt;alert(1)&lt;/script&gt; world\""))
        XCTAssertTrue(index.contains("<article class=\"card image-answer\"><a class=\"pic\" href=\"images/cccc.gif\""))
        XCTAssertTrue(try read("sources/2.html").contains("<span class=\"pic placeholder\" aria-hidden=\"true\"></span>"))
        XCTAssertTrue(try read("archive/2026-11-29.html").contains("src=\"../images/aaaa.png\""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/images/aaaa.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/images/cccc.gif"))
    }

    func testSwitcherListsTheRegistryOrdersButRelevance() throws {
        try fillStore()
        try writeSite()
        let page = try read("sort-oldest.html")
        for order in CardOrder.all where order != .relevance {
            // The short label shown, the long one as the title, the current one marked.
            XCTAssertTrue(page.contains("<a href=\"sort-\(order.name).html\" title=\"\(order.label)\"" + (order == .oldest ? " aria-current=\"page\"" : "") + ">\(order.shortLabel)</a>"), order.name)
        }
        XCTAssertFalse(page.contains("sort-relevance"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site + "/sort-relevance.html"))
        // Oldest first within the window: the 50-hour-old card before the 2-hour-old one.
        let old = try XCTUnwrap(page.range(of: "No title here")), new = try XCTUnwrap(page.range(of: "Hello &lt;script"))
        XCTAssertLessThan(old.lowerBound, new.lowerBound)
    }
}
