import Fetching
import TestSupport
import XCTest

/// Bodies are capped after decoding and on the wire; a gzip bomb stops early.
final class BodyLimitTests: XCTestCase {
    func testOversizedBodyIsRefused() throws {
        let server = try LoopbackHTTPServer()
        server.route("/big", ScriptedResponse(body: [UInt8](repeating: 65, count: 3 << 20)))
        let error = try XCTUnwrap(failure(fetch(server.url("/big"), limits: testLimits(maxBody: 1 << 20, maxWire: 8 << 20))))
        XCTAssertEqual(error, .bodyTooLarge(limit: 1 << 20, onTheWire: false))
        XCTAssertTrue(error.localizedDescription.hasPrefix("body larger than 1048576 bytes"), error.localizedDescription)
    }

    func testBodyAtTheLimitIsKept() throws {
        let server = try LoopbackHTTPServer()
        server.route("/exact", ScriptedResponse(body: [UInt8](repeating: 66, count: 4096)))
        let r = try response(fetch(server.url("/exact"), limits: testLimits(maxBody: 4096, maxWire: 4096)))
        XCTAssertEqual(r.body.count, 4096)
    }

    /// A Content-Length over the wire limit is refused before the body is read.
    func testAnnouncedLengthOverTheWireLimitIsRefused() throws {
        let server = try LoopbackHTTPServer()
        server.route("/big", ScriptedResponse(body: [UInt8](repeating: 65, count: 2 << 20)))
        let fetcher = try Fetcher(limits: testLimits(maxBody: 8 << 20, maxWire: 1 << 20))
        let error = try XCTUnwrap(failure(fetcher.fetch(FetchRequest(id: 1, url: server.url("/big")))))
        XCTAssertEqual(error, .bodyTooLarge(limit: 1 << 20, onTheWire: true))
        XCTAssertLessThan(fetcher.statistics.wireBytes, 1 << 20)
    }

    /// No Content-Length (the body runs until the server closes): the progress check stops it.
    func testUnannouncedBodyOverTheWireLimitIsRefused() throws {
        let server = try LoopbackHTTPServer()
        server.route("/stream", ScriptedResponse(body: [UInt8](repeating: 65, count: 4 << 20), sendContentLength: false))
        let error = try XCTUnwrap(failure(fetch(server.url("/stream"), limits: testLimits(maxBody: 8 << 20, maxWire: 256 << 10))))
        XCTAssertEqual(error, .bodyTooLarge(limit: 256 << 10, onTheWire: true))
    }

    /// 200 MiB of zeros in about 200 KB of gzip: refused after about 1 MiB is decompressed.
    func testGzipBombStopsEarly() throws {
        let bomb = try [UInt8](Fixtures.data("http/bomb-200MiB-zeros.gz"))
        XCTAssertLessThan(bomb.count, 400_000)
        let server = try LoopbackHTTPServer()
        server.route("/bomb", .gzip(bomb, contentType: "application/rss+xml"))
        let limit = 1 << 20
        let fetcher = try Fetcher(limits: testLimits(maxBody: limit, maxWire: 8 << 20))
        let start = ContinuousClock.now
        let error = try XCTUnwrap(failure(fetcher.fetch(FetchRequest(id: 1, url: server.url("/bomb")))))
        XCTAssertEqual(error, .bodyTooLarge(limit: limit, onTheWire: false))
        XCTAssertLessThan(fetcher.statistics.decodedBytes, limit + (256 << 10), "decompression stopped at the limit")
        XCTAssertLessThan(seconds(since: start), 2)
    }
}
