import Fetching
import TestSupport
import XCTest

/// Validators from the previous fetch go back as If-None-Match / If-Modified-Since; 304 is a response.
final class ConditionalGetTests: XCTestCase {
    let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    func testETagAndLastModifiedRoundTripTo304() throws {
        let server = try LoopbackHTTPServer()
        server.routeConditional("/feed", etag: "\"abc\"", lastModified: lastModified, .text("<rss/>"))
        let fetcher = try Fetcher(limits: testLimits())

        let first = try response(fetcher.fetch(FetchRequest(id: 1, url: server.url("/feed"))))
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(text(first.body), "<rss/>")
        XCTAssertEqual(first.etag, "\"abc\"")
        XCTAssertEqual(first.lastModified, lastModified)

        let second = try response(fetcher.fetch(FetchRequest(id: 1, url: server.url("/feed"),
                                                            etag: first.etag, lastModified: first.lastModified)))
        XCTAssertEqual(second.status, 304)
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(second.body, [])
        XCTAssertEqual(second.etag, "\"abc\"")

        let sent = try XCTUnwrap(server.requests(path: "/feed").last)
        XCTAssertEqual(sent.header("If-None-Match"), "\"abc\"")
        XCTAssertEqual(sent.header("If-Modified-Since"), lastModified)
    }

    func testLastModifiedAloneGives304() throws {
        let server = try LoopbackHTTPServer()
        server.routeConditional("/feed", etag: nil, lastModified: lastModified, .text("<rss/>"))
        let r = try response(fetch(server.url("/feed"), lastModified: lastModified))
        XCTAssertEqual(r.status, 304)
        XCTAssertNil(server.requests(path: "/feed").first?.header("If-None-Match"))
    }

    func testChangedETagGivesTheNewBody() throws {
        let server = try LoopbackHTTPServer()
        server.routeConditional("/feed", etag: "\"new\"", lastModified: nil, .text("<rss>new</rss>"))
        let r = try response(fetch(server.url("/feed"), etag: "\"old\""))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(text(r.body), "<rss>new</rss>")
        XCTAssertEqual(r.etag, "\"new\"")
    }
}
