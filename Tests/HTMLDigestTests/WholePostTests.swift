import FeedModel
import Foundation
@testable import HTMLDigest
import Storage
import XCTest

/// Whole posts (issue 18): each card's sanitized content is written once, inside its card on
/// its archive page (an expandable `<details>`), and every other page links there. Pictures in
/// it come from the image cache; one not cached is a link, never an image the page's policy
/// would block; audio and video are links.
final class WholePostTests: DigestTestCase {
    let post = "<p>Intro with <a href=\"https://x.example/a\">a link</a>.</p>"
        + "<p><img src=\"https://img.example.org/a.png\" alt=\"cached one\" width=\"640\" height=\"360\"></p>"
        + "<p><img src=\"https://elsewhere.example/b.jpg?x=1&amp;y=2\" alt=\"not cached &amp; far\"></p>"
        + "<video src=\"https://v.example/clip.mp4\" controls>Your browser</video>"
        + "<audio controls><source src=\"https://a.example/s.mp3\" type=\"audio/mpeg\"></audio>"
        + "<ul><li>one</li><li>two</li></ul>"

    func fillPost() throws -> SourceID {
        let id = try store.upsertSource(SourceConfiguration(url: "https://posts.example/feed", name: "Posts"), now: hoursAgo(400))
        try store.saveFetch(sourceID: id, feed: FeedInfo(title: "Posts"), cards: [
            Card(id: "p1", title: "A whole post", description: post, link: "https://posts.example/1", published: hoursAgo(2)),
            Card(id: "p2", title: "Short", description: "<p>Only this.</p>", link: "https://posts.example/2", published: hoursAgo(3)),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        return id
    }

    func testThePostIsOnItsArchivePageWithCachedPicturesAndLinksForTheRest() throws {
        _ = try fillPost()
        let report = try writeSite()
        let day = try read("archive/2026-11-29.html")
        let card = try XCTUnwrap(day.components(separatedBy: "<article").first { $0.contains("A whole post") })
        XCTAssertTrue(card.contains("<details class=\"post\"><summary>Read the whole post</summary><div class=\"content\">"))
        XCTAssertTrue(card.contains("<img src=\"../images/aaaa.png\" width=\"640\" height=\"360\" alt=\"cached one\""))
        XCTAssertTrue(card.contains("<a class=\"media-link\" href=\"https://elsewhere.example/b.jpg?x=1&amp;y=2\">Picture: not cached &amp; far</a>"))
        XCTAssertTrue(card.contains("<a class=\"media-link\" href=\"https://v.example/clip.mp4\">Video</a> Your browser"))
        XCTAssertFalse(card.contains("<video") || card.contains("<audio") || card.contains("<source"))
        XCTAssertFalse(card.contains("src=\"https:"), "no image or media the policy would block")
        XCTAssertTrue(card.contains("<li>one</li>"))
        XCTAssertTrue(report.shownImages.contains("https://img.example.org/a.png"))
        // A card with nothing more than its excerpt has no whole post.
        let short = try XCTUnwrap(day.components(separatedBy: "<article").first { $0.contains(">Short<") })
        XCTAssertFalse(short.contains("<details"))
        XCTAssertEqual(PageChecker.problems(in: day, name: "day"), [])
    }

    func testOtherPagesLinkToThePostsPlace() throws {
        let id = try fillPost()
        try writeSite()
        let day = try read("archive/2026-11-29.html")
        let anchor = try XCTUnwrap(day.range(of: #"id="c\d+">"#, options: .regularExpression).map { String(day[$0]) })
        let cardID = anchor.dropFirst(5).prefix { $0.isNumber }
        for (page, root) in [("index.html", ""), ("sort-newest.html", ""), ("sources/\(id.rawValue).html", "../")] {
            let text = try read(page)
            XCTAssertTrue(text.contains("<a href=\"\(root)archive/2026-11-29.html#c\(cardID)\">Read the whole post</a>"), page + ": " + (text.components(separatedBy: "<article").first { $0.contains("A whole post") } ?? ""))
            XCTAssertFalse(text.contains("<details"), "\(page): the post itself is written once, on the archive")
        }
    }

    func testALongPostLinksToItsSiteInstead() throws {
        let id = try store.upsertSource(SourceConfiguration(url: "https://long.example/feed", name: "Long"), now: hoursAgo(400))
        let long = "<p>" + String(repeating: "word ", count: PostHTML.maxPostBytes / 5 + 10) + "</p>"
        try store.saveFetch(sourceID: id, feed: FeedInfo(title: "Long"), cards: [
            Card(id: "l1", title: "Long one", description: long, link: "https://long.example/1", published: hoursAgo(2)),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        try writeSite()
        let day = try read("archive/2026-11-29.html")
        XCTAssertFalse(day.contains("<details"))
        XCTAssertTrue(day.contains("<a href=\"https://long.example/1\">A long post (48 KB): read it on its site</a>"))
    }

    /// The scanner on hostile shapes of the sanitizer's output: never an `<img>` with a foreign
    /// source, whatever the attribute order or escaping.
    func testRenderNeverLeavesAForeignImage() {
        let shapes = [
            "<img src=\"https://a.example/x.png\">", "<img alt=\"x\" src=\"https://a.example/x.png\">",
            "<img src=\"data:image/png;base64,AAAA\" alt=\"d\">", "<img>", "<img src=\"\">",
            "<picture><source src=\"https://a.example/y.webp\" type=\"image/webp\"><img src=\"https://a.example/y.png\"></picture>",
            "<p>a > b</p><img src=\"https://a.example/&quot;onerror=&quot;x\">",
            "<video poster=\"https://a.example/p.jpg\" src=\"javascript:x\"></video>", "text <img src=\"https://a.example/z.png\"",
        ]
        for html in shapes {
            let out = PostHTML.render(html, root: "../", images: [:]) { _ in }
            XCTAssertNil(out.range(of: #"<(img|video|audio|source)\b"#, options: .regularExpression).flatMap { r in
                out[r.lowerBound...].hasPrefix("<img src=\"../images/") ? nil : r }, "\(html) -> \(out)")
            XCTAssertFalse(out.contains("javascript:"), out)
        }
        XCTAssertEqual(PostHTML.imageURLs(shapes[0] + shapes[1] + shapes[2]), ["https://a.example/x.png"])
    }
}
