import FeedModel
import FeedParsing
import XCTest

/// RSS 2.0 with its usual modules: Dublin Core, content:encoded, media RSS, iTunes.
final class RSSTests: XCTestCase {
    func testChannel() throws {
        let f = try parseFixture("rss20-namespaces.xml")
        XCTAssertEqual(f.feed.title, "Example & Co")
        XCTAssertEqual(f.feed.link, "https://example.org/")      // not the <image>'s link, not atom:link self
        XCTAssertEqual(f.feed.image, "https://example.org/logo.png")
        XCTAssertEqual(f.feed.refreshHintSeconds, 1800)           // hourly, twice
        XCTAssertEqual(f.cards.count, 3)
    }

    func testItemFieldsThroughPrefixesOfAnyName() throws {
        let c = try parseFixture("rss20-namespaces.xml").cards[0]
        XCTAssertEqual(c.title, "First post")
        XCTAssertEqual(c.link, "https://example.org/1")
        XCTAssertEqual(c.id, "tag:example.org,2024:1")
        XCTAssertEqual(c.key.rawValue, "id:tag:example.org,2024:1")
        XCTAssertEqual(c.published?.iso8601, "2024-06-01T10:00:00Z")
        XCTAssertEqual(c.author, "Alice Martin")
        XCTAssertEqual(c.enclosures, [Enclosure(url: "https://example.org/ep1.mp3", type: "audio/mpeg", length: 12345)])
        XCTAssertEqual(c.image, "https://cdn.example.org/thumb.jpg")   // media:thumbnail first
    }

    func testContentEncodedWinsOverDescriptionAndIsSanitized() throws {
        let options = ParseOptions(baseURL: "https://example.org/feeds/main.xml")
        let d = try XCTUnwrap(try parseFixture("rss20-namespaces.xml", options: options).cards[0].description)
        XCTAssertTrue(d.contains("<b>content</b>"), d)
        XCTAssertTrue(d.contains("href=\"https://example.org/rel\""), "relative link resolved against the document URL: \(d)")
        XCTAssertFalse(d.lowercased().contains("<script"), d)
        XCTAssertFalse(d.contains("Short summary"), d)
    }

    func testPermalinkGuidIsTheLinkAndDcDateIsUpdated() throws {
        let c = try parseFixture("rss20-namespaces.xml").cards[1]
        XCTAssertEqual(c.link, "https://example.org/2")
        XCTAssertEqual(c.id, "https://example.org/2")
        XCTAssertNil(c.published)
        XCTAssertEqual(c.updated?.iso8601, "2024-06-02T08:30:00Z")
        XCTAssertEqual(c.date?.iso8601, "2024-06-02T08:30:00Z")
        XCTAssertEqual(c.author, "Bob Nguyen")
        XCTAssertEqual(c.image, "https://example.org/ep2.jpg")
        XCTAssertEqual(c.description, "<p>Escaped <em>HTML</em></p>")
    }

    func testItemWithoutTitleLinkOrGuid() throws {
        let c = try parseFixture("rss20-namespaces.xml").cards[2]
        XCTAssertNil(c.title)
        XCTAssertNil(c.link)
        XCTAssertTrue(c.key.rawValue.hasPrefix("hash:"), c.key.rawValue)
        XCTAssertEqual(c.displayTitle(plainText: { $0 }), "An item without a title, link or guid.")
        XCTAssertEqual(c.image, "https://example.org/photo.jpg")      // image enclosure
        XCTAssertEqual(c.enclosures.first?.length, nil)              // length 0 means unknown
    }

    func testGuidNotPermalinkIsNotALink() throws {
        let f = try parseText(rss("<item><guid isPermaLink=\"false\">http://x.example/1</guid></item>"))
        XCTAssertNil(f.cards[0].link)
        XCTAssertEqual(f.cards[0].id, "http://x.example/1")
    }

    func testGuidThatIsNotAURLIsNotALink() throws {
        let f = try parseText(rss("<item><guid>12345</guid></item>"), options: ParseOptions(baseURL: "http://x.example/feed"))
        XCTAssertNil(f.cards[0].link)
    }

    func testLinkSchemesOtherThanWebAndMailAreDropped() throws {
        let f = try parseText(rss("""
            <item><link>javascript:alert(1)</link></item>
            <item><link>mailto:someone@example.com</link></item>
            <item><link>ftp://files.example/x</link></item>
            """))
        XCTAssertEqual(f.cards.map(\.link), [nil, "mailto:someone@example.com", nil])
    }

    func testMediaGroupImageAndTitleFallback() throws {
        let f = try parseText(rss("""
            <item xmlns:media="http://search.yahoo.com/mrss/">
              <media:group><media:title>Media title</media:title>
                <media:content url="http://m.example/v.mp4" type="video/mp4"/>
                <media:content url="http://m.example/p.jpg" type="image/jpeg"/>
              </media:group>
            </item>
            """))
        XCTAssertEqual(f.cards[0].title, "Media title")
        XCTAssertEqual(f.cards[0].image, "http://m.example/p.jpg")
    }

    func testTtlIsARefreshHint() throws {
        let f = try parseText(rss("", channel: "<title>x</title><ttl>90</ttl>"))
        XCTAssertEqual(f.feed.refreshHintSeconds, 5400)
    }

    func testRepeatedDatesKeepTheLast() throws {
        let f = try parseText(rss("<item><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate><pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate></item>"))
        XCTAssertEqual(f.cards[0].published?.iso8601, "2024-01-02T00:00:00Z")
    }

    func testUnparseableDateIsNullNeverNow() throws {
        let f = try parseText(rss("<item><title>x</title><pubDate>sometime soon</pubDate></item>"))
        XCTAssertNil(f.cards[0].published)
        XCTAssertNil(f.cards[0].date)
    }
}
