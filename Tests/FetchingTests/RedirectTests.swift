import Fetching
import TestSupport
import Foundation
import XCTest

/// Redirects are followed; permanentRedirect only when every hop was 301/308; other schemes refused.
final class RedirectTests: XCTestCase {
    func testChainOf301And308SetsPermanentRedirect() throws {
        let server = try LoopbackHTTPServer()
        server.route("/a", .redirect(301, to: "/b"))
        server.route("/b", .redirect(308, to: server.url("/c")))
        server.route("/c", .text("final"))

        let r = try response(fetch(server.url("/a")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(text(r.body), "final")
        XCTAssertEqual(r.finalURL, server.url("/c"))
        XCTAssertEqual(r.permanentRedirect, server.url("/c"))
        XCTAssertEqual(r.redirectCount, 2)
        XCTAssertNil(r.headers["Location"], "headers are the final response's only")
    }

    func test302IsNotPermanent() throws {
        let server = try LoopbackHTTPServer()
        server.route("/a", .redirect(302, to: "/c"))
        server.route("/c", .text("final"))
        let r = try response(fetch(server.url("/a")))
        XCTAssertEqual(r.finalURL, server.url("/c"))
        XCTAssertEqual(r.redirectCount, 1)
        XCTAssertNil(r.permanentRedirect)
    }

    func testMixed301Then302IsNotPermanent() throws {
        let server = try LoopbackHTTPServer()
        server.route("/a", .redirect(301, to: "/b"))
        server.route("/b", .redirect(302, to: "/c"))
        server.route("/c", .text("final"))
        let r = try response(fetch(server.url("/a")))
        XCTAssertEqual(r.finalURL, server.url("/c"))
        XCTAssertEqual(r.redirectCount, 2)
        XCTAssertNil(r.permanentRedirect)
    }

    func testRedirectToFTPIsRefused() throws {
        let server = try LoopbackHTTPServer()
        server.route("/a", .redirect(301, to: "ftp://127.0.0.1/feed.xml"))
        let error = try XCTUnwrap(failure(fetch(server.url("/a"))))
        XCTAssertEqual(error, .redirectRefused(location: "ftp://127.0.0.1/feed.xml"))
        XCTAssertTrue(error.localizedDescription.contains("non-http(s)"), error.localizedDescription)
    }

    /// Even a request allowed to read files cannot be redirected to one.
    func testRedirectToFileIsRefusedEvenWhenFilesAreAllowed() throws {
        let dir = TemporaryDirectory()
        try Data("secret".utf8).write(to: dir.file("secret.txt"))
        let target = "file://" + dir.file("secret.txt").path
        let server = try LoopbackHTTPServer()
        server.route("/a", .redirect(302, to: target))
        let error = try XCTUnwrap(failure(fetch(server.url("/a"), allowFile: true)))
        XCTAssertEqual(error, .redirectRefused(location: target))
    }

    func testRedirectLoopStopsAtTheLimit() throws {
        let server = try LoopbackHTTPServer()
        server.route("/loop", .redirect(302, to: "/loop"))
        let error = try XCTUnwrap(failure(fetch(server.url("/loop"), limits: testLimits(maxRedirects: 3))))
        XCTAssertEqual(error, .tooManyRedirects(limit: 3))
        XCTAssertEqual(server.requests(path: "/loop").count, 4, "the first request and 3 redirects")
    }
}
