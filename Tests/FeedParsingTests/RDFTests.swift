import FeedModel
import FeedParsing
import XCTest

/// RSS 1.0: items and image are siblings of the channel; rdf:about is the id.
final class RDFTests: XCTestCase {
    func testRDF() throws {
        let f = try parseFixture("rdf.xml")
        XCTAssertEqual(f.feed.title, "RDF Site")
        XCTAssertEqual(f.feed.image, "http://rdf.example.com/logo.gif")
        XCTAssertEqual(f.cards.count, 1)   // the textinput is not an item
        let c = f.cards[0]
        XCTAssertEqual(c.id, "http://rdf.example.com/a")
        XCTAssertEqual(c.updated?.iso8601, "2003-12-31T18:14:55Z")
        XCTAssertEqual(c.author, "Carol")
    }
}
