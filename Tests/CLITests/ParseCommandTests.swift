import Foundation
import TestSupport
import XCTest

/// `feeds parse`: text and JSON output, standard input, errors and warnings.
final class ParseCommandTests: XCTestCase {
    func testJSONIsTheCardModel() throws {
        let r = try FeedsCommand.run(["parse", "--json", Fixtures.url("feeds/rss20-namespaces.xml").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let feed = try XCTUnwrap(json["feed"] as? [String: Any])
        XCTAssertEqual(feed["title"] as? String, "Example & Co")
        let entries = try XCTUnwrap(json["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[0]["published"] as? String, "2024-06-01T10:00:00Z")
        XCTAssertTrue(entries[2]["title"] is NSNull)
        let enclosures = try XCTUnwrap(entries[0]["enclosures"] as? [[String: Any]])
        XCTAssertEqual(enclosures.first?["type"] as? String, "audio/mpeg")
    }

    func testTextOutputMatchesSnapshot() throws {
        let r = try FeedsCommand.run(["parse", Fixtures.url("feeds/rss20-namespaces.xml").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try Fixtures.string("snapshots/parse-rss20-namespaces.txt"))
    }

    func testStandardInputAndBase() throws {
        let doc = "<rss version='2.0'><channel><item><link>/a</link></item></channel></rss>"
        let r = try FeedsCommand.run(["parse", "--json", "--base", "https://b.example/feed", "-"], stdin: Data(doc.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"link\":\"https://b.example/a\""), r.stdout)
    }

    func testNotAFeedIsOneLineAndStatus2() throws {
        let path = Fixtures.url("feeds/notfeeds/page.html").path
        let r = try FeedsCommand.run(["parse", "--json", path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "", "nothing half-written on standard output")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(path) && r.stderr.contains("HTML page"), r.stderr)
        let missing = try FeedsCommand.run(["parse", "/nonexistent.xml"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("cannot open /nonexistent.xml"), missing.stderr)
    }

    func testIllFormedFeedPrintsWhatWasRecoveredWithAWarning() throws {
        let r = try FeedsCommand.run(["parse", "--json", Fixtures.url("feeds/illformed-midway.xml").path])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("warning") && r.stderr.contains("not well-formed"), r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["entries"] as? [Any])?.count, 4)
    }
}
