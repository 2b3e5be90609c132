import FeedModel
import FeedParsing
import XCTest

/// A card's image, in this order: media:thumbnail, media:content image, itunes:image, an image
/// enclosure, JSON Feed image, else the first content image that is not a tracking pixel.
final class CardImageTests: XCTestCase {
    private func image(_ item: String) throws -> String? {
        let doc = rss("<item>" + item + "</item>").replacingOccurrences(
            of: "<rss version=\"2.0\">",
            with: "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">")
        return try parseText(doc).cards.first?.image
    }

    private let thumb = "<media:thumbnail url=\"http://i.example/thumb.jpg\"/>"
    private let content = "<media:content url=\"http://i.example/content.jpg\" medium=\"image\"/>"
    private let itunes = "<itunes:image href=\"http://i.example/itunes.jpg\"/>"
    private let enclosure = "<enclosure url=\"http://i.example/enclosure.png\" type=\"image/png\"/>"
    private let body = "<description>&lt;img src=\"http://i.example/body.gif\"&gt;</description>"

    func testOrderOfPreference() throws {
        XCTAssertEqual(try image(body + enclosure + itunes + content + thumb), "http://i.example/thumb.jpg")
        XCTAssertEqual(try image(body + enclosure + itunes + content), "http://i.example/content.jpg")
        XCTAssertEqual(try image(body + enclosure + itunes), "http://i.example/itunes.jpg")
        XCTAssertEqual(try image(body + enclosure), "http://i.example/enclosure.png")
        XCTAssertEqual(try image(body), "http://i.example/body.gif")
        XCTAssertNil(try image("<title>none</title>"))
    }

    func testTrackingPixelsAndUnsafeImagesAreSkipped() throws {
        let pixel = "<description>&lt;img src=\"http://t.example/p.gif\" width=\"1\" height=\"1\"&gt;"
            + "&lt;img src=\"javascript:x()\"&gt;&lt;img src=\"http://i.example/real.png?a=1&amp;amp;b=2\" width=\"640\"&gt;</description>"
        XCTAssertEqual(try image(pixel), "http://i.example/real.png?a=1&b=2")
    }

    func testAudioEnclosureIsNotAnImage() throws {
        XCTAssertNil(try image("<enclosure url=\"http://i.example/a.mp3\" type=\"audio/mpeg\"/>"))
        XCTAssertEqual(try image("<enclosure url=\"http://i.example/pic.JPG\"/>"), "http://i.example/pic.JPG")
    }

    func testRelativeImageResolvedAgainstDocumentURL() throws {
        let f = try parseText(rss("<item><description>&lt;img src=\"/img/a.png\"&gt;</description></item>"),
                              options: ParseOptions(baseURL: "https://site.example/feed.xml"))
        XCTAssertEqual(f.cards.first?.image, "https://site.example/img/a.png")
    }
}
