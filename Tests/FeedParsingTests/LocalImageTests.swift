import FeedModel
import FeedParsing
import XCTest

/// Images of local sources (issue 18): a feed read from a file may name pictures that are
/// files inside its folder; the same feed from the web never gets a file image, and no path
/// climbs out of the folder whatever its spelling.
final class LocalImageTests: XCTestCase {
    static let localBase = "file:///home/me/feeds/samples/pics.rss"
    static let webBase = "https://site.example/pics.rss"

    private func rssImage(_ item: String, base: String) throws -> String? {
        let doc = rss("<item><title>t</title>" + item + "</item>").replacingOccurrences(
            of: "<rss version=\"2.0\">", with: "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\">")
        return try parseText(doc, options: ParseOptions(baseURL: base)).cards.first?.image
    }

    private func jsonImage(_ image: String, base: String) throws -> String? {
        let doc = #"{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"1","title":"t","image":"# + image.debugDescription + "}]}"
        return try parseText(doc, options: ParseOptions(baseURL: base)).cards.first?.image
    }

    func testARelativeImageOfALocalFeedIsTheFileInItsFolder() throws {
        XCTAssertEqual(try rssImage(#"<media:thumbnail url="img/a.png"/>"#, base: Self.localBase),
                       "file:///home/me/feeds/samples/img/a.png")
        XCTAssertEqual(try jsonImage("img/a.png", base: Self.localBase), "file:///home/me/feeds/samples/img/a.png")
        XCTAssertEqual(try rssImage(#"<media:thumbnail url="file:///home/me/feeds/samples/b.webp"/>"#, base: Self.localBase),
                       "file:///home/me/feeds/samples/b.webp")
        // A web image stays preferred in its rank, and a web image of a local feed is kept.
        XCTAssertEqual(try rssImage(#"<media:thumbnail url="https://i.example/x.jpg"/>"#, base: Self.localBase), "https://i.example/x.jpg")
    }

    /// Every spelling of a file image, from every place an image can come from: never one from a
    /// feed fetched over HTTP (nor from one with no URL at all).
    func testAFeedFromTheWebNeverGetsAFileImage() throws {
        let spellings = ["file:///home/me/feeds/samples/img/a.png", "file:///etc/passwd", "file:/etc/hosts",
                         "FILE:///home/me/feeds/samples/a.png", "file://localhost/home/me/a.png", "img/a.png"]
        for base in [Self.webBase, "http://10.0.0.1/feed", ""] {
            for s in spellings {
                let b = base.isEmpty ? nil : base
                for item in [#"<media:thumbnail url="\#(s)"/>"#, #"<media:content url="\#(s)" medium="image"/>"#,
                             #"<enclosure url="\#(s)" type="image/png"/>"#, #"<image>\#(s)</image>"#,
                             "<description>&lt;img src=\"\(s)\"&gt;</description>"] {
                    let image = try rssImage(item, base: b ?? "")
                    XCTAssertFalse(image?.lowercased().hasPrefix("file:") ?? false, "\(item) from \(base): \(image ?? "")")
                }
                let image = try jsonImage(s, base: b ?? "")
                XCTAssertFalse(image?.lowercased().hasPrefix("file:") ?? false, "JSON \(s) from \(base)")
            }
        }
    }

    /// Paths that would leave the feed's folder, however spelled: no image.
    func testNoFileOutsideTheFeedsFolder() throws {
        let outside = ["../secret.png", "../../../../etc/passwd", "/etc/passwd", "file:///etc/passwd",
                       "file:///home/me/feeds/samples/../x.png", "img/%2e%2e/%2e%2e/x.png", "img%2f..%2fx.png",
                       "file:///home/me/feeds/samplesX/a.png", "file:///home/me/feeds/samples/", "file:///home/me/feeds/samples",
                       "img//a.png", "img/a.png?x=1", "img/a.png#f", "img/a%00.png", "img\\..\\a.png",
                       "file:///home/me/feeds/samples/./a.png"]
        for s in outside {
            let image = try rssImage(#"<media:thumbnail url="\#(s)"/>"#, base: Self.localBase)
            XCTAssertNil(image.flatMap { $0.hasPrefix("file:") ? $0 : nil }, "\(s) -> \(image ?? "")")
            XCTAssertNil(try jsonImage(s, base: Self.localBase).flatMap { $0.hasPrefix("file:") ? $0 : nil }, "JSON \(s)")
        }
        // xml:base cannot move the folder: it is the document's own URL that counts.
        let doc = rss(#"<item xml:base="file:///etc/"><title>t</title><media:thumbnail url="passwd"/></item>"#).replacingOccurrences(
            of: "<rss version=\"2.0\">", with: "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\">")
        XCTAssertNil(try parseText(doc, options: ParseOptions(baseURL: Self.localBase)).cards.first?.image)
    }

    func testTheFolderRule() {
        XCTAssertEqual(LocalImage.folder(ofDocument: "file:///a/b/feed.rss"), "file:///a/b")
        XCTAssertNil(LocalImage.folder(ofDocument: "https://a/b/feed.rss"))
        XCTAssertNil(LocalImage.folder(ofDocument: nil))
        XCTAssertNil(LocalImage.folder(ofDocument: "file:///feed.rss"), "no folder: the root is not one")
        XCTAssertEqual(LocalImage.inside("file:///a/b/c/d.png", folder: "file:///a/b"), "file:///a/b/c/d.png")
        XCTAssertNil(LocalImage.inside("file:///a/bc/d.png", folder: "file:///a/b"))
    }
}
