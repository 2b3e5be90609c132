import Aggregator
import XCTest

/// OPML import and export.
final class OPMLTests: XCTestCase {
    func testImportReadsFeedsFoldersAndCategories() throws {
        let opml = """
        <?xml version="1.0"?>
        <opml version="2.0"><head><title>x</title></head><body>
          <outline text="Tech">
            <outline type="rss" text="A &amp; B" xmlUrl="https://a.example/feed?x=1&amp;y=2" htmlUrl="https://a.example/"/>
            <outline text="Nested"><outline xmlUrl='https://n.example/rss' title="N"></outline></outline>
          </outline>
          <!-- <outline xmlUrl="https://commented.example/"/> -->
          <outline type="rss" text="Top" xmlUrl="https://top.example/rss" category="/news,/local/city"/>
          <outline type="rss" text="Dup" xmlUrl="https://top.example/rss"/>
        </body></opml>
        """
        let entries = try OPML.parse(opml)
        XCTAssertEqual(entries.map(\.url), ["https://a.example/feed?x=1&y=2", "https://n.example/rss", "https://top.example/rss"])
        XCTAssertEqual(entries[0].name, "A & B")
        XCTAssertEqual(entries[0].tags, ["Tech"])
        XCTAssertEqual(entries[1].tags, ["Tech", "Nested"])
        XCTAssertEqual(entries[2].tags, ["news", "city"])
    }

    func testExportImportRoundTrip() throws {
        let items = [
            OPML.ExportItem(url: "https://a.example/f?a=1&b=\"2\"", title: "A <b> & \"c\"", siteURL: "https://a.example/", tags: ["x", "y"]),
            OPML.ExportItem(url: "https://b.example/rss", title: "B"),
        ]
        let text = OPML.export(items)
        XCTAssertTrue(text.contains("<opml version=\"2.0\">"))
        let back = try OPML.parse(text)
        XCTAssertEqual(back.map(\.url), items.map(\.url))
        XCTAssertEqual(back.map(\.name), items.map(\.title))
        XCTAssertEqual(back.map(\.tags), items.map(\.tags))
    }

    func testHostileOPMLIsRefused() {
        let xxe = """
        <?xml version="1.0"?>
        <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <opml version="2.0"><body><outline text="&xxe;" xmlUrl="https://e.example/"/></body></opml>
        """
        XCTAssertThrowsError(try OPML.parse(xxe)) { error in
            XCTAssertTrue(error.localizedDescription.contains("DOCTYPE"), error.localizedDescription)
        }
        let laughs = "<opml><!ENTITY lol \"lol\"><body/></opml>"
        XCTAssertThrowsError(try OPML.parse(laughs))
        XCTAssertThrowsError(try OPML.parse("<html><body>not opml</body></html>"))
        // Undeclared entities are left as text, never resolved.
        XCTAssertEqual(try OPML.parse("<opml><body><outline text=\"&foo;\" xmlUrl=\"https://e.example/\"/></body></opml>").first?.name, "&foo;")
    }
}
