import FeedModel
import Fetching
import TestSupport
import XCTest

/// Every number a server writes in a header, with every class of hostile number
/// (`HostileNumbers`): Cache-Control max-age, Retry-After, Expires, Content-Length. Reading
/// them never traps; delta-seconds too large to hold are 2^31 (RFC 9111 1.2.2), anything that
/// is not delta-seconds is no value; an Expires that is no date is "already expired".
final class HostileHeaderNumbersTests: XCTestCase {
    func response(_ headers: [(String, String)]) -> FetchResponse {
        FetchResponse(status: 200, finalURL: "https://example.com/feed",
                      headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }))
    }

    /// What RFC 9111 delta-seconds make of `text`, trimmed of the spaces around it when `trim`
    /// (a header value, or an unquoted directive value, is; the inside of quotes is not).
    func deltaSeconds(_ text: String, trim: Bool = true) -> Int64? {
        let value = trim ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
        guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.value >= 0x30 && $0.value <= 0x39 }) else { return nil }
        return HostileNumbers.expected(value, in: 0...(1 << 31)) ?? (1 << 31)
    }

    func testMaxAge() {
        for (name, text) in HostileNumbers.all() {
            // A comma ends a directive: "1,000" is max-age=1 and a directive "000".
            let unquoted = response([("Cache-Control", "max-age=\(text)")]).maxAgeSeconds
            XCTAssertEqual(unquoted.map(Int64.init), deltaSeconds(String(text.split(separator: ",", omittingEmptySubsequences: false)[0])), "\(name)")
            let quoted = response([("Cache-Control", "public, max-age=\"\(text)\", s-maxage=5")]).maxAgeSeconds
            XCTAssertEqual(quoted.map(Int64.init), text.contains(",") ? nil : deltaSeconds(text, trim: false), "\(name) quoted")
        }
    }

    func testRetryAfter() {
        let now: Int64 = 1_800_000_000
        for (name, text) in HostileNumbers.all() {
            let got = response([("Retry-After", text)]).retryAfterSeconds(now: now)
            if let expected = deltaSeconds(text) {
                XCTAssertEqual(got, expected, name)
            } else {
                XCTAssertNil(got, "\(name) '\(text)'")
            }
        }
        // An HTTP date far off: counted from now without overflow, never negative.
        XCTAssertEqual(response([("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")]).retryAfterSeconds(now: Int64.min), Int64.max)
        XCTAssertEqual(response([("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT")]).retryAfterSeconds(now: Int64.max), 0)
    }

    func testExpiresAndDatesWithHostileNumbersInEveryField() {
        for (name, text) in HostileNumbers.all(randomCount: 60) {
            for date in ["Sun, \(text) Nov 1994 08:49:37 GMT", "Sun, 06 Nov \(text) 08:49:37 GMT", "Sun, 06 Nov 1994 \(text):49:37 GMT",
                         "Sun, 06 Nov 1994 08:\(text):37 GMT", "Sun, 06 Nov 1994 08:49:\(text) GMT", text] {
                let r = response([("Expires", date), ("Date", date), ("Last-Modified", date)])
                let expires = r.expiresSeconds
                XCTAssertNotNil(expires, "\(name): an Expires that is no date means already expired")
                if let seconds = HTTPDate.parse(date) {
                    XCTAssertEqual(expires, seconds)
                    XCTAssertTrue((Timestamp(year: 1, month: 1, day: 1)!.secondsSince1970...Timestamp(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)!.secondsSince1970).contains(seconds), "\(name): \(date)")
                } else {
                    XCTAssertEqual(expires, 0, "\(name): \(date)")
                }
                _ = r.dateSeconds
                _ = r.lastModifiedSeconds
            }
        }
    }

    /// Content-Length is libcurl's to read: through the loopback server, a hostile one ends in a
    /// response or a clear error, never a trap, and never a body past the limit.
    func testContentLengthThroughTheLoopbackServer() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var paths: [(String, String)] = []
        for (i, (name, text)) in HostileNumbers.classes.enumerated() where !text.contains("\n") && !text.contains("\u{0}") {
            let path = "/cl\(i)"
            server.route(path, .raw(Array("HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(text)\r\nConnection: close\r\n\r\n<rss/>".utf8)))
            paths.append((path, name))
        }
        let limits = testLimits(total: .seconds(3), maxBody: 1 << 16, maxWire: 1 << 16)
        for (path, name) in paths {
            switch try fetch(server.url(path), limits: limits) {
            case .success(let r): XCTAssertLessThanOrEqual(r.body.count, 1 << 16, name)
            case .failure(let error): XCTAssertFalse(error.localizedDescription.isEmpty, name)
            }
        }
    }
}
