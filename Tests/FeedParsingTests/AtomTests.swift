import FeedModel
import FeedParsing
import XCTest

/// Atom 1.0 and 0.3: text constructs, links by rel, xml:base, authors, base64.
final class AtomTests: XCTestCase {
    func testFeedLevel() throws {
        let f = try parseFixture("atom10.xml")
        XCTAssertEqual(f.feed.title, "Blog of Things")               // type="html" read as text
        XCTAssertEqual(f.feed.link, "https://blog.example.com/")      // rel=alternate, not self
        XCTAssertEqual(f.feed.image, "https://blog.example.com/logo.png")
        XCTAssertEqual(f.feed.description, "Plain &lt;text&gt; subtitle")
    }

    func testEntryTextLinksAndDates() throws {
        let c = try parseFixture("atom10.xml").cards[0]
        XCTAssertEqual(c.title, "Less <than> you think")              // type="text": kept literally
        XCTAssertEqual(c.link, "https://blog.example.com/posts/one")  // the HTML alternate over the PDF
        XCTAssertEqual(c.id, "tag:blog.example.com,2024:one")
        XCTAssertEqual(c.published?.iso8601, "2024-06-01T07:00:00Z")
        XCTAssertEqual(c.updated?.iso8601, "2024-06-02T09:00:00Z")
        XCTAssertEqual(c.author, "Dana, Eve")
        XCTAssertEqual(c.enclosures, [Enclosure(url: "https://blog.example.com/media/one.ogg", type: "audio/ogg", length: 999)])
    }

    func testXHTMLContentWithNestedBase() throws {
        let c = try parseFixture("atom10.xml").cards[0]
        let d = try XCTUnwrap(c.description)
        XCTAssertTrue(d.contains("https://blog.example.com/posts/two"), d)
        XCTAssertTrue(d.contains("&amp;"), d)
        XCTAssertFalse(d.contains("Summary only"), d)
        XCTAssertEqual(c.image, "https://blog.example.com/posts/img/pic.png")  // first content image
    }

    func testXHTMLTitleSourceIgnoredAndHTMLContentSanitized() throws {
        let c = try parseFixture("atom10.xml").cards[1]
        XCTAssertEqual(c.title, "XHTML title")
        XCTAssertEqual(c.link, "https://blog.example.com/posts/two")   // not the <source>'s link
        XCTAssertEqual(c.id, "tag:blog.example.com,2024:two")         // not the <source>'s id
        let d = try XCTUnwrap(c.description)
        XCTAssertTrue(d.contains("<b>content</b>"), d)
        XCTAssertFalse(d.contains("onclick"), d)
    }

    func testAtom03Base64AndDates() throws {
        let f = try parseFixture("atom03.xml")
        XCTAssertEqual(f.feed.link, "http://old.example.org/")
        let c = f.cards[0]
        XCTAssertEqual(c.description, "<p>Hello <b>world</b></p>")
        XCTAssertEqual(c.published?.iso8601, "2003-12-13T12:29:29Z")
        XCTAssertEqual(c.updated?.iso8601, "2003-12-13T18:30:02Z")
        XCTAssertTrue(f.feed.description?.contains("<em>old</em>") ?? false, "\(String(describing: f.feed.description))")
    }

    func testDocumentURLIsTheBaseOfLastResort() throws {
        let doc = "<feed xmlns='http://www.w3.org/2005/Atom'><entry><link href='p/1'/><id>1</id></entry></feed>"
        XCTAssertNil(try parseText(doc).cards[0].link)     // relative, and nothing to resolve it against
        let f = try parseText(doc, options: ParseOptions(baseURL: "https://site.example/feeds/atom.xml"))
        XCTAssertEqual(f.cards[0].link, "https://site.example/feeds/p/1")
    }

    func testLinkTextWithoutHrefAndAlternatePriority() throws {
        let f = try parseText("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry>
            <link rel="enclosure" type="text/html">http://e.example/enclosure</link>
            <link rel="alternate" type="text/html">http://e.example/alternate</link>
            </entry></feed>
            """)
        XCTAssertEqual(f.cards[0].link, "http://e.example/alternate")
    }
}
