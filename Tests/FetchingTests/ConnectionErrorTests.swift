import CCurlShim
@testable import Fetching
import Foundation
import TestSupport
import XCTest

/// Transport failures are typed errors with one-line, actionable messages.
final class ConnectionErrorTests: XCTestCase {
    func testConnectionRefused() throws {
        let port = try LoopbackHTTPServer.closedPort()
        let error = try XCTUnwrap(failure(fetch("http://127.0.0.1:\(port)/feed")))
        XCTAssertEqual(error, .connectionRefused(host: "127.0.0.1:\(port)"))
        XCTAssertEqual(error.localizedDescription,
                       "connection refused by 127.0.0.1:\(port): the server is down or not listening on that port")
    }

    /// https:// to a server speaking plain HTTP: the TLS handshake fails.
    func testTLSHandshakeFailure() throws {
        let server = try LoopbackHTTPServer()
        server.route("/", .text("plain"))
        let error = try XCTUnwrap(failure(fetch("https://127.0.0.1:\(server.port)/")))
        guard case .tls = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(error.localizedDescription.hasPrefix("TLS error: "), error.localizedDescription)
    }

    func testServerHangsUpWithoutReplying() throws {
        let server = try LoopbackHTTPServer()
        server.route("/hangup", .raw([]))
        XCTAssertEqual(try failure(fetch(server.url("/hangup"))), .emptyReply)
    }

    func testReplyThatIsNotHTTP() throws {
        let server = try LoopbackHTTPServer()
        server.route("/garbage", .raw(Array("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n".utf8)))
        let error = try XCTUnwrap(failure(fetch(server.url("/garbage"))))
        guard case .malformedResponse = error else { return XCTFail("got \(error)") }
    }

    func testBodyShorterThanAnnounced() throws {
        let server = try LoopbackHTTPServer()
        server.route("/short", .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this".utf8)))
        let error = try XCTUnwrap(failure(fetch(server.url("/short"))))
        guard case .truncatedBody = error else { return XCTFail("got \(error)") }
    }

    func testInvalidAndUnsupportedURLs() throws {
        XCTAssertEqual(try failure(fetch("not a url")), .invalidURL("not a url"))
        XCTAssertEqual(try failure(fetch("http://exa mple.com/feed")), .invalidURL("http://exa mple.com/feed"))
        XCTAssertEqual(try failure(fetch("http://")), .invalidURL("http://"))
        XCTAssertEqual(try failure(fetch("")), .invalidURL(""))
        XCTAssertEqual(try failure(fetch("ftp://127.0.0.1/feed")), .unsupportedScheme(url: "ftp://127.0.0.1/feed"))
        XCTAssertEqual(try failure(fetch("gopher://127.0.0.1/feed")), .unsupportedScheme(url: "gopher://127.0.0.1/feed"))
    }

    /// Failures a loopback test cannot produce, mapped from their codes.
    func testMappingOfOtherCurlCodes() {
        let limits = testLimits(total: .seconds(30))
        func map(_ code: CURLcode, errno: Int = 0, connected: Bool = true, detail: String = "detail") -> FetchError {
            FetchError.from(CurlFailure(code: code, detail: detail, url: "https://feeds.example.org/rss",
                                        osErrno: errno, neverConnected: !connected, lastLocation: nil), limits: limits)
        }
        XCTAssertEqual(map(CURLE_COULDNT_RESOLVE_HOST), .couldNotResolveHost("feeds.example.org"))
        XCTAssertEqual(map(CURLE_COULDNT_RESOLVE_HOST).localizedDescription,
                       "could not resolve host feeds.example.org: check the spelling of the URL or the DNS settings")
        XCTAssertEqual(map(CURLE_COULDNT_CONNECT, errno: 101, detail: "Network is unreachable"),
                       .couldNotConnect(host: "feeds.example.org", detail: "Network is unreachable"))
        XCTAssertEqual(map(CURLE_OPERATION_TIMEDOUT, connected: false), .timedOut(seconds: 2, whileConnecting: true))
        XCTAssertEqual(map(CURLE_OPERATION_TIMEDOUT), .timedOut(seconds: 30, whileConnecting: false))
        XCTAssertEqual(FetchError.from(CurlFailure(code: CURLE_OPERATION_TIMEDOUT, detail: "", url: "http://x/", osErrno: 0,
                                                   neverConnected: true, lastLocation: nil),
                                       limits: testLimits(total: .seconds(1))),
                       .timedOut(seconds: 1, whileConnecting: true), "the total timeout ran out first")
        XCTAssertEqual(map(CURLE_PEER_FAILED_VERIFICATION), .tls(detail: "detail"))
        XCTAssertEqual(map(CURLE_HTTP2), .http2(detail: "detail"))
        XCTAssertEqual(map(CURLE_HTTP2_STREAM), .http2(detail: "detail"))
        XCTAssertEqual(map(CURLE_RECV_ERROR), .connectionLost(detail: "detail"))
        XCTAssertEqual(map(CURLE_FILESIZE_EXCEEDED), .bodyTooLarge(limit: 1 << 20, onTheWire: true))
        XCTAssertEqual(map(CURLE_OUT_OF_MEMORY), .outOfMemory)
        XCTAssertEqual(map(CURLE_LOGIN_DENIED), .curl(code: 67, detail: "detail"))
        for error in [map(CURLE_HTTP2), map(CURLE_COULDNT_RESOLVE_PROXY), map(CURLE_SSL_CACERT_BADFILE)] {
            XCTAssertFalse(error.localizedDescription.contains("\n"))
        }
    }
}
