import Aggregator
import FeedModel
import Foundation
import Storage
import TestSupport
import XCTest

/// Requests inside the network, preview pages (issue 15): a saved search with `preview=yes`
/// whose answer links pages on an internal address of another origin (a second loopback
/// server) does not fetch them; pages on the search's own origin are fetched as before;
/// `--allow-internal` lets them through.
final class InternalPreviewTests: XCTestCase {
    func cards(_ home: TemporaryDirectory, _ url: String) throws -> [Card] {
        let store = try FeedStore(path: home.file("feeds.db").path)
        guard let source = try store.source(url: url) else { XCTFail("no source \(url)"); return [] }
        return try store.cards(CardQuery(sourceID: source.id)).map(\.card)
    }

    func testPreviewPagesOffTheSearchOriginOnAnInternalAddressAreNotFetched() throws {
        let search = try LoopbackHTTPServer()
        let inside = try LoopbackHTTPServer()
        defer { search.stop(); inside.stop() }
        let home = TemporaryDirectory()
        let head = { (image: String) in "<html><head><meta property=\"og:image\" content=\"\(image)\"></head><body></body></html>" }
        search.route("/own", .text(head("/img/own.jpg"), contentType: "text/html"))
        inside.route("/router", .text(head("/img/router.jpg"), contentType: "text/html"))
        search.route("/s/search", .text("""
            {"query": "p", "results": [
              {"url": "\(search.url("/own"))", "title": "On the search's own site"},
              {"url": "\(inside.url("/router"))", "title": "Inside"},
              {"url": "http://2130706433:\(inside.port)/router", "title": "Inside, spelt as a number"}
            ]}
            """, contentType: "application/json"))
        try "search:searxng \"p\" endpoint=\(search.url("/s/")) preview=yes\n".write(to: home.file("sources"), atomically: false, encoding: .utf8)
        let run = try CLIRun.run(["--home", home.path, "update", "--all"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(inside.requests.count, 0, "no preview page on another internal origin")
        let saved = try cards(home, "search:searxng p")
        XCTAssertEqual(saved.first { $0.title == "On the search's own site" }?.image, search.url("/img/own.jpg"))
        XCTAssertNil(saved.first { $0.title == "Inside" }?.image)

        // Allowed: a fresh home (the refusal is remembered as "no image" for a day).
        let allowedHome = TemporaryDirectory()
        try "search:searxng \"p\" endpoint=\(search.url("/s/")) preview=yes\n".write(to: allowedHome.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try CLIRun.run(["--home", allowedHome.path, "update", "--all", "--allow-internal"]).status, 0)
        XCTAssertEqual(inside.requests(path: "/router").count, 2)
        XCTAssertEqual(try cards(allowedHome, "search:searxng p").first { $0.title == "Inside" }?.image, inside.url("/img/router.jpg"))
    }
}
