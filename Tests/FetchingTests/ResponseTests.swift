import Fetching
import TestSupport
import XCTest

/// A plain 200: body, status, headers and the values read from them; what the request carried.
final class ResponseTests: XCTestCase {
    func testOKWithBodyAndHeaders() throws {
        let server = try LoopbackHTTPServer()
        server.route("/feed.xml", ScriptedResponse(
            status: 200,
            headers: [("Content-Type", "application/rss+xml; Charset=\"ISO-8859-1\""),
                      ("X-Dup", "first"), ("x-dup", "second"),
                      ("Cache-Control", "public, max-age=300"),
                      ("Expires", "Sun, 06 Nov 1994 08:49:37 GMT"),
                      ("ETag", "\"v1\""), ("Last-Modified", "Sat, 05 Nov 1994 08:49:37 GMT")],
            body: Array("<rss>hello</rss>".utf8)))

        let r = try response(fetch(server.url("/feed.xml")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(text(r.body), "<rss>hello</rss>")
        XCTAssertEqual(r.finalURL, server.url("/feed.xml"))
        XCTAssertNil(r.permanentRedirect)
        XCTAssertEqual(r.redirectCount, 0)
        XCTAssertEqual(r.contentType, "application/rss+xml")
        XCTAssertEqual(r.charset, "iso-8859-1")
        XCTAssertEqual(r.headers["CONTENT-type"], "application/rss+xml; Charset=\"ISO-8859-1\"")
        XCTAssertEqual(r.headers["X-DUP"], "second", "last value wins")
        XCTAssertEqual(r.headers.values("x-dup"), ["first", "second"])
        XCTAssertEqual(r.maxAgeSeconds, 300)
        XCTAssertEqual(r.expiresSeconds, 784_111_777)
        XCTAssertEqual(r.etag, "\"v1\"")
        XCTAssertEqual(r.lastModified, "Sat, 05 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(r.lastModifiedSeconds, 784_111_777 - 86_400)
        XCTAssertNil(r.retryAfterSeconds(now: 0))
        XCTAssertEqual(r.httpVersion, "1.1")
        XCTAssertEqual(r.wireBytes, 16)
        XCTAssertGreaterThan(r.timing.total, 0)
    }

    func testUserAgentAndExtraHeadersAreSent() throws {
        let server = try LoopbackHTTPServer()
        server.route("/ua", .text("ok"))
        _ = try response(fetch(server.url("/ua"), headers: ["Accept": "application/rss+xml", "X-Trace": "t1"]))

        let request = try XCTUnwrap(server.requests(path: "/ua").first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.header("User-Agent"), testUserAgent)
        XCTAssertEqual(request.header("Accept"), "application/rss+xml")
        XCTAssertEqual(request.header("X-Trace"), "t1")
        XCTAssertEqual(request.host, server.hostHeader)
        let encodings = try XCTUnwrap(request.header("Accept-Encoding"))
        XCTAssertTrue(encodings.contains("gzip"), "every encoding curl decodes is offered: \(encodings)")
        XCTAssertNil(request.header("If-None-Match"), "no validators without a previous copy")
        XCTAssertNil(request.header("If-Modified-Since"))
    }

    /// A hostile server's ETag with a line break must not add a header to the next request.
    func testValidatorCannotInjectAHeader() throws {
        let server = try LoopbackHTTPServer()
        server.route("/inject", .text("ok"))
        _ = try response(fetch(server.url("/inject"), etag: "\"a\"\r\nX-Injected: yes"))

        let request = try XCTUnwrap(server.requests(path: "/inject").first)
        XCTAssertNil(request.header("X-Injected"))
        XCTAssertEqual(request.header("If-None-Match"), "\"a\"  X-Injected: yes")
    }

    func testHeaderLookupOnAValue() {
        let headers = HTTPHeaders([.init(name: "Content-Type", value: "text/xml"), .init(name: "content-TYPE", value: "application/xml;charset=utf-8")])
        let r = FetchResponse(status: 200, finalURL: "http://x/", headers: headers)
        XCTAssertEqual(r.contentType, "application/xml")
        XCTAssertEqual(r.charset, "utf-8")
        XCTAssertEqual(FetchResponse(status: 200, finalURL: "", headers: HTTPHeaders([.init(name: "Expires", value: "0")])).expiresSeconds, 0,
                       "an invalid Expires means already expired")
    }
}
