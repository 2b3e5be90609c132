import FeedModel
import FeedParsing
import XCTest

/// JSON Feed 1.0/1.1 under the same card contract.
final class JSONFeedTests: XCTestCase {
    func testFeedAndItems() throws {
        let f = try parseFixture("jsonfeed.json")
        XCTAssertEqual(f.feed.title, "JSON Example")
        XCTAssertEqual(f.feed.link, "https://json.example.com/")
        XCTAssertEqual(f.feed.image, "https://json.example.com/icon.png")
        let a = f.cards[0]
        XCTAssertEqual(a.id, "42")
        XCTAssertEqual(a.link, "https://json.example.com/posts/42")
        XCTAssertEqual(a.author, "Frank, Grace")
        XCTAssertEqual(a.published?.iso8601, "2024-06-01T17:00:00Z")
        XCTAssertEqual(a.image, "https://json.example.com/42.png")
        XCTAssertEqual(a.enclosures.first?.url, "https://json.example.com/42.mp3")
        XCTAssertFalse(a.description?.contains("script") ?? true)
    }

    func testTextContentIsEscapedAndBadDatesAreNull() throws {
        let b = try parseFixture("jsonfeed.json").cards[1]
        XCTAssertEqual(b.link, "https://elsewhere.example/b")
        XCTAssertEqual(b.description, "Text &lt;not markup&gt; &amp; more")
        XCTAssertNil(b.updated)
        XCTAssertNil(b.title)
    }

    /// Found by fuzzing: "https://:host/x" has an empty host (":host" is a port) and is no web URL.
    func testURLsWithAnEmptyHostAreDropped() throws {
        let json = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [{"id": "1",
         "url": "https://:adio.example.net/1", "image": "https://user@/i.png",
         "attachments": [{"url": "https://:adio.example.net/a.mp3", "mime_type": "audio/mpeg"},
                         {"url": "https://ok.example/b.mp3", "mime_type": "audio/mpeg"}]}]}
        """
        let card = try FeedParser.parse(json).cards[0]
        XCTAssertNil(card.link)
        XCTAssertNil(card.image)
        XCTAssertEqual(card.enclosures.map(\.url), ["https://ok.example/b.mp3"])
    }
}
