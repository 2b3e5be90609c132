import Foundation
import TestSupport
import XCTest

/// Issue 17: a fetched document that was not well-formed is announced once with what it cost
/// and where ("the XML is not well-formed at line 5; 4 of 5 items kept, 1 damaged"), the source
/// shows as degraded in `feeds sources` until a clean fetch, and a feed that keeps items is
/// never a failed source.
final class DegradedSourceTests: XCTestCase {
    private var home: TemporaryDirectory!

    override func setUpWithError() throws { home = TemporaryDirectory("feeds-degraded") }
    override func tearDown() { home = nil }

    private func feeds(_ args: [String]) throws -> CLIRun { try CLIRun.run(["--home", home.path] + args, timeout: 60) }

    /// Five items, one a line; `broken` puts a `<div>` left open into item 2's description and
    /// a stray `</item>` after item 3 (each lost every later item before issue 17).
    private func feed(broken: Bool, stamp: String) -> String {
        var s = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Shop</title><link>https://shop.example/</link>\n"
        for k in 0..<5 {
            let description = broken && k == 2 ? "<description><div>open</description>" : "<description>\(stamp) \(k)</description>"
            s += "<item><title>Item \(k)</title><link>https://shop.example/\(k)</link>\(description)"
                + "<pubDate>Mon, 0\(k + 1) Jan 2024 10:00:00 GMT</pubDate></item>\(broken && k == 3 ? "</item>" : "")\n"
        }
        return s + "</channel></rss>\n"
    }

    private func write(broken: Bool, stamp: String) throws {
        try home.write("shop.rss", feed(broken: broken, stamp: stamp))
        // A new modification time for each version: the local source is read again.
        let later = Date().addingTimeInterval(Double(stamp.count) + Double.random(in: 10...1000))
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: home.file("shop.rss").path)
    }

    func testABrokenFetchIsAnnouncedOnceAndShownUntilACleanOne() throws {
        try home.write("sources", "shop.rss name=Shop\n")
        try write(broken: true, stamp: "a")
        let first = try feeds(["update", "--all"])
        XCTAssertEqual(first.status, 0, "a feed that keeps items is not a failed source: \(first.stderr)")
        XCTAssertEqual(first.stderrLines, ["feeds: warning: Shop: the XML is not well-formed at line 5; 5 of 5 items kept, 1 damaged"])
        var listed = try feeds(["sources"])
        XCTAssertTrue(listed.stdout.contains("cards 5 (5 unread)"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("  degraded (until a clean fetch): the XML is not well-formed at line 5; 5 of 5 items kept, 1 damaged"),
                      listed.stdout)
        XCTAssertFalse(listed.stdout.contains("error"), listed.stdout)
        let json = try feeds(["sources", "--json"])
        XCTAssertTrue(json.stdout.contains("\"degraded\":\"the XML is not well-formed at line 5;"), json.stdout)

        // The same breakage again: said once, still shown.
        try write(broken: true, stamp: "b")
        let second = try feeds(["update", "--all"])
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.stderrLines, [], second.stderr)
        listed = try feeds(["sources"])
        XCTAssertTrue(listed.stdout.contains("degraded (until a clean fetch)"), listed.stdout)
        // With -v the parser's warnings are all there.
        try write(broken: true, stamp: "cc")
        let verbose = try feeds(["update", "--all", "-v"])
        XCTAssertTrue(verbose.stderr.contains("Shop: the XML is not well-formed at line 5"), verbose.stderr)

        // A clean fetch clears it.
        try write(broken: false, stamp: "ddd")
        let clean = try feeds(["update", "--all"])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stderrLines, [], clean.stderr)
        listed = try feeds(["sources"])
        XCTAssertFalse(listed.stdout.contains("degraded"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("cards 5"), listed.stdout)
    }

    func testABrokenDocumentWithoutItemsIsStillAFailure() throws {
        try home.write("sources", "cut.rss name=Cut\n")
        try home.write("cut.rss", "<rss><channel><title>x</titl")
        let run = try feeds(["update", "--all"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("malformed feed: the XML is not well-formed at line 1; no items were found"), run.stderr)
        XCTAssertFalse(try feeds(["sources"]).stdout.contains("degraded"))
    }
}
