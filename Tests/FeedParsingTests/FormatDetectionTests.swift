import FeedModel
import FeedParsing
import XCTest

/// The format comes from the content: root element and namespace, or JSON. Never from the name.
final class FormatDetectionTests: XCTestCase {
    func testEachFormatIsRecognised() throws {
        XCTAssertEqual(try parseFixture("rss20-namespaces.xml").format, .rss20)
        XCTAssertEqual(try parseFixture("rss091-netscape.xml").format, .rss091)
        XCTAssertEqual(try parseFixture("rdf.xml").format, .rss10)
        XCTAssertEqual(try parseFixture("atom10.xml").format, .atom10)
        XCTAssertEqual(try parseFixture("atom03.xml").format, .atom03)
        XCTAssertEqual(try parseFixture("jsonfeed.json").format, .json11)
    }

    func testRSS092And090() throws {
        XCTAssertEqual(try parseText("<rss version='0.92'><channel><title>x</title></channel></rss>").format, .rss092)
        let rss090 = """
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
        <channel><title>Old</title><link>http://old.example/</link></channel>
        <item><title>Oldest item</title><link>http://old.example/1</link></item></rdf:RDF>
        """
        let f = try parseText(rss090)
        XCTAssertEqual(f.feed.title, "Old")
        XCTAssertEqual(f.cards.map(\.title), ["Oldest item"])
    }

    func testJSONDetectedWithoutExtensionAndXMLDespiteJSONName() throws {
        let json = try parseText("  \n{\"version\":\"https://jsonfeed.org/version/1\",\"items\":[{\"id\":\"1\",\"title\":\"J\"}]}")
        XCTAssertEqual(json.format, .json1)
        XCTAssertEqual(json.cards.first?.title, "J")
        // Content decides: an RSS document is RSS whatever it is called.
        XCTAssertEqual(try parseText(rss("<item><title>x</title></item>")).format, .rss20)
    }

    func testHTMLPageIsNotAFeed() {
        XCTAssertThrowsError(try parseFixture("notfeeds/page.html")) { error in
            guard case FeedParseError.notAFeed(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("HTML"), why)
        }
    }

    func testOPMLIsNotAFeed() {
        XCTAssertThrowsError(try parseFixture("notfeeds/list.opml")) { error in
            XCTAssertTrue("\(error.localizedDescription)".contains("OPML"), error.localizedDescription)
        }
    }

    func testEmptyAndBinaryAreErrors() {
        XCTAssertThrowsError(try parseFixture("notfeeds/empty.xml")) { XCTAssertEqual($0 as? FeedParseError, .empty) }
        XCTAssertThrowsError(try parseText("   \n\t ")) { XCTAssertEqual($0 as? FeedParseError, .empty) }
        XCTAssertThrowsError(try parseFixture("notfeeds/image.png")) { error in
            guard case FeedParseError.notAFeed(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("binary"), why)
        }
    }

    func testOtherJSONAndUnknownXMLAreNotFeeds() {
        XCTAssertThrowsError(try parseFixture("notfeeds/other.json")) { error in
            guard case FeedParseError.notAFeed = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try parseText("<svg xmlns='http://www.w3.org/2000/svg'><g/></svg>")) { error in
            XCTAssertTrue(error.localizedDescription.contains("<svg>"), error.localizedDescription)
        }
        XCTAssertThrowsError(try parseText("{\"items\": [1, 2")) { error in
            guard case FeedParseError.invalidJSON = error else { return XCTFail("\(error)") }
        }
    }

    func testMarkupWithoutElementsIsAnEmptyFeedWithAWarning() throws {
        let f = try parseText("<?xml version=\"1.0\"?><!-- nothing here -->")
        XCTAssertTrue(f.cards.isEmpty)
        XCTAssertTrue(f.warnings.contains { $0.contains("no XML element") }, "\(f.warnings)")
    }
}
