import Fetching
import TestSupport
import XCTest

/// `keepFirstBytes`: the head of a page is a success, however long the page (page previews of
/// search cards read only the head).
final class KeepFirstBytesTests: XCTestCase {
    func testLongBodyGivesItsFirstBytes() throws {
        let server = try LoopbackHTTPServer()
        let body = [UInt8](repeating: 65, count: 100_000) + [UInt8](repeating: 66, count: 3 << 20)
        server.route("/page", ScriptedResponse(headers: [("Content-Type", "text/html")], body: body))
        let fetcher = try Fetcher(limits: testLimits(maxBody: 8 << 20, maxWire: 8 << 20))
        let r = try response(fetcher.fetch(FetchRequest(id: 1, url: server.url("/page"), keepFirstBytes: 100_000)))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body, [UInt8](repeating: 65, count: 100_000))
        XCTAssertEqual(r.contentType, "text/html")
    }

    func testShortBodyIsWhole() throws {
        let server = try LoopbackHTTPServer()
        server.route("/short", .text("<html>short</html>", contentType: "text/html"))
        let r = try response(Fetcher(limits: testLimits()).fetch(FetchRequest(id: 1, url: server.url("/short"), keepFirstBytes: 1 << 20)))
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "<html>short</html>")
    }

    /// Without it, the body limit still fails the transfer.
    func testWithoutItTheLimitStillFails() throws {
        let server = try LoopbackHTTPServer()
        server.route("/page", ScriptedResponse(body: [UInt8](repeating: 65, count: 2 << 20)))
        let error = try XCTUnwrap(failure(fetch(server.url("/page"), limits: testLimits(maxBody: 1 << 20, maxWire: 8 << 20))))
        XCTAssertEqual(error, .bodyTooLarge(limit: 1 << 20, onTheWire: false))
    }
}
