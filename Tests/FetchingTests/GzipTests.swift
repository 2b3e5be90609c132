import Fetching
import TestSupport
import XCTest

/// Content-Encoding is decoded; corrupt compressed data is a clear error.
final class GzipTests: XCTestCase {
    func testGzipBodyIsDecoded() throws {
        let compressed = try [UInt8](Fixtures.data("http/small.rss.gz"))
        let plain = try [UInt8](Fixtures.data("http/small.rss"))
        let server = try LoopbackHTTPServer()
        server.route("/gz", .gzip(compressed, contentType: "application/rss+xml; charset=utf-8"))

        let r = try response(fetch(server.url("/gz")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body, plain)
        XCTAssertEqual(r.wireBytes, compressed.count, "wire bytes count the compressed body")
        XCTAssertEqual(r.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(r.charset, "utf-8")
    }

    func testCorruptGzipIsAnError() throws {
        let server = try LoopbackHTTPServer()
        server.route("/bad", .gzip(Array("this is not gzip at all, just text".utf8)))
        let error = try XCTUnwrap(failure(fetch(server.url("/bad"))))
        guard case .badContentEncoding = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(error.localizedDescription.contains("could not be decompressed"), error.localizedDescription)
    }
}
