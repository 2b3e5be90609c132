import FeedModel
import FeedParsing
import XCTest

/// Real-world feeds are broken in the same few ways; each is read the way its author meant.
final class LeniencyTests: XCTestCase {
    func testItemsAfterAnErrorAreKept() throws {
        let f = try parseFixture("illformed-midway.xml")
        XCTAssertEqual(f.cards.compactMap(\.link), ["http://broken.example/1", "http://broken.example/2",
                                                    "http://broken.example/3", "http://broken.example/4"])
        XCTAssertTrue(f.warnings.contains { $0.contains("not well-formed") }, "\(f.warnings)")
    }

    func testStrayAmpersandsAndUnknownEntitiesKeepTheirText() throws {
        let f = try parseFixture("illformed-midway.xml")
        XCTAssertEqual(f.cards[1].title, "Two & a half bold")
        let d = try XCTUnwrap(f.cards[1].description)
        XCTAssertTrue(d.contains("AT&amp;T"), d)
        XCTAssertTrue(d.contains("&amp;bogus;"), d)
    }

    func testHTMLEntitiesUndefinedInXML() throws {
        let f = try parseFixture("rss091-netscape.xml")
        XCTAssertEqual(f.feed.title, "Café news")
        XCTAssertEqual(f.cards[0].title, "Crème brûlée — today only")
        XCTAssertTrue(f.cards[0].description?.contains("€3 &amp; worth it") ?? false, "\(String(describing: f.cards[0].description))")
    }

    func testEntitiesSurviveAnEarlierError() throws {
        // libxml2 drops even &amp; after the first well-formedness error unless rewritten.
        let f = try parseText(rss("<item><title>broken</b></title></item><item><title>Fish &amp; chips &eacute;</title></item>"))
        XCTAssertEqual(f.cards.last?.title, "Fish & chips é")
    }

    func testBOMWhitespaceBeforeDeclarationAndDefaultNamespaceOnRSS() throws {
        let f = try parseFixture("bom-whitespace-default-ns.xml")
        XCTAssertEqual(f.feed.title, "BOM and space")
        XCTAssertEqual(f.cards.first?.title, "Default namespace")
        XCTAssertEqual(f.cards.first?.link, "http://ns.example/1")
    }

    func testNamespacesMatchedByURINotPrefix() throws {
        let f = try parseText(rss("""
            <item xmlns:foo="http://purl.org/dc/elements/1.1/" xmlns:dc="http://example.com/not-dublin-core">
              <foo:creator>Real Author</foo:creator><dc:creator>Impostor</dc:creator></item>
            """))
        XCTAssertEqual(f.cards[0].author, "Real Author")
    }

    func testUnescapedHTMLInDescriptionIsKeptAsMarkup() throws {
        let f = try parseText(rss("<item><description><p>Para with <a href=\"http://l.example/\">link</a><br/>next</p></description></item>"))
        let d = try XCTUnwrap(f.cards[0].description)
        XCTAssertTrue(d.contains("<a href=\"http://l.example/\""), d)
        XCTAssertTrue(d.contains(">link</a>"), d)
        XCTAssertEqual(d.components(separatedBy: "<br").count - 1, 1, d)   // one break, not two
    }

    func testNumericReferencesToWindows1252AndMojibake() throws {
        let f = try parseText(rss("<item><title>don&#146;t &#226;&#128;&#166; stop</title></item>"))
        XCTAssertEqual(f.cards[0].title, "don’t … stop")
    }

    func testControlCharactersAreDropped() throws {
        let f = try parseText(rss("<item><title>bell\u{07}and\u{0B}tab</title></item><item><title>next</title></item>"))
        XCTAssertEqual(f.cards.map(\.title), ["bellandtab", "next"])
    }

    func testCDATAIsLiteral() throws {
        let f = try parseText("<feed xmlns='http://www.w3.org/2005/Atom'><entry><title type='text'><![CDATA[a &amp; b <c>]]></title></entry></feed>")
        XCTAssertEqual(f.cards[0].title, "a &amp; b <c>")
    }

    func testTruncatedDocumentKeepsFinishedItems() throws {
        let f = try parseText(rss("<item><title>done</title></item><item><title>cut mid")) 
        XCTAssertEqual(f.cards.first?.title, "done")
    }
}
