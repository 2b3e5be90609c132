import Foundation
import TestSupport
import XCTest

/// `feeds add`, `remove`, `sources`, `import`, `export` through the binary, on a temporary home.
final class SourceCommandsTests: XCTestCase {
    func testAddListRemove() throws {
        let home = TemporaryDirectory()
        let feeds = ["--home", home.path]
        let add = try CLIRun.run(feeds + ["add", "--as-is", "https://a.example/feed", "--name", "Site A", "--tags", "x,y", "--every", "2h"])
        XCTAssertEqual(add.status, 0, add.stderr)
        let text = try String(contentsOf: home.file("sources"), encoding: .utf8)
        XCTAssertTrue(text.contains("https://a.example/feed name=\"Site A\" tags=x,y every=2h\n"), text)
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--as-is", "https://a.example/feed"]).status, 2, "already listed")
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--as-is", "https://b.example/f", "--every", "soon"]).status, 2)
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "gopher://b.example/f"]).status, 2)
        XCTAssertEqual(try CLIRun.run(feeds + ["add", "--as-is", "https://b.example/f"]).status, 0)

        let list = try CLIRun.run(feeds + ["sources"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.hasPrefix("Site A\n  https://a.example/feed\n  cards 0 (0 unread) · last fetch - · next due now"), list.stdout)

        let remove = try CLIRun.run(feeds + ["remove", "site a"])
        XCTAssertEqual(remove.status, 0, remove.stderr)
        let json = try CLIRun.run(feeds + ["sources", "--json"])
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(array?.map { $0["url"] as? String }, ["https://b.example/f"])
        XCTAssertEqual(try CLIRun.run(feeds + ["remove", "nothing-like-it"]).status, 2)

        // A line deleted by hand: the source stays in the database, is listed as such, and
        // `remove URL` still deletes it.
        try home.write("sources", "# empty now\n")
        let orphan = try CLIRun.run(feeds + ["sources"])
        XCTAssertTrue(orphan.stdout.contains("1 source in the database but not in"), orphan.stdout)
        XCTAssertTrue(orphan.stdout.contains("https://b.example/f"), orphan.stdout)
        XCTAssertEqual(try CLIRun.run(feeds + ["remove", "https://b.example/f"]).status, 0)
        XCTAssertFalse(try CLIRun.run(feeds + ["sources"]).stdout.contains("not in"))
    }

    func testImportThenExportKeepsTheSources() throws {
        let home = TemporaryDirectory()
        let opml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>mine</title></head><body>
        <outline text="News"><outline type="rss" text="Daily &amp; Co" xmlUrl="https://news.example/rss"/></outline>
        <outline type="rss" text="Tech" xmlUrl="https://tech.example/atom"/>
        <outline type="rss" text="Bad" xmlUrl="javascript:alert(1)"/>
        </body></opml>
        """
        try home.write("in.opml", opml)
        let first = try CLIRun.run(["--home", home.path, "import", home.file("in.opml").path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("imported 2 sources"), first.stdout)
        let again = try CLIRun.run(["--home", home.path, "import", home.file("in.opml").path])
        XCTAssertTrue(again.stdout.hasPrefix("imported 0 sources"), again.stdout)
        let export = try CLIRun.run(["--home", home.path, "export"])
        XCTAssertEqual(export.status, 0)
        XCTAssertTrue(export.stdout.contains("xmlUrl=\"https://news.example/rss\""), export.stdout)
        XCTAssertTrue(export.stdout.contains("text=\"Daily &amp; Co\""), export.stdout)
        XCTAssertTrue(export.stdout.contains("category=\"News\""), export.stdout)
        XCTAssertFalse(export.stdout.contains("javascript"))

        let other = TemporaryDirectory()
        try other.write("out.opml", export.stdout)
        XCTAssertEqual(try CLIRun.run(["--home", other.path, "import", other.file("out.opml").path]).status, 0)
        XCTAssertEqual(try String(contentsOf: other.file("sources"), encoding: .utf8),
                       try String(contentsOf: home.file("sources"), encoding: .utf8))

        try home.write("evil.opml", "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><opml><body><outline xmlUrl=\"https://e.example/&e;\"/></body></opml>")
        let evil = try CLIRun.run(["--home", home.path, "import", home.file("evil.opml").path])
        XCTAssertEqual(evil.status, 2)
        XCTAssertTrue(evil.stderr.contains("DOCTYPE"), evil.stderr)
    }
}
