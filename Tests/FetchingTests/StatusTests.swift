import Fetching
import TestSupport
import XCTest

/// HTTP error statuses are responses for the caller to judge, with Retry-After readable.
final class StatusTests: XCTestCase {
    func testErrorStatusesAreResponses() throws {
        let server = try LoopbackHTTPServer()
        server.route("/404", .text("not found", status: 404))
        server.route("/410", .text("gone", status: 410))
        server.route("/500", .text("oops", status: 500))
        server.route("/429", .text("slow down", status: 429, headers: [("Retry-After", "120")]))
        let fetcher = try Fetcher(limits: testLimits())
        var statuses: [Int64: Int] = [:]
        var bodies: [Int64: String] = [:]
        var retry: Int64?
        fetcher.fetchAll([404, 410, 429, 500].map { FetchRequest(id: Int64($0), url: server.url("/\($0)")) }) { request, result in
            guard case .success(let r) = result else { return XCTFail("\(request.url): \(result)") }
            statuses[request.id] = r.status
            bodies[request.id] = text(r.body)
            if r.status == 429 { retry = r.retryAfterSeconds(now: 0) }
        }
        XCTAssertEqual(statuses, [404: 404, 410: 410, 429: 429, 500: 500])
        XCTAssertEqual(bodies[410], "gone")
        XCTAssertEqual(retry, 120)
        XCTAssertEqual(fetcher.statistics.responses, 4)
        XCTAssertEqual(fetcher.statistics.failures, 0)
    }

    func testRetryAfterAsHTTPDate() throws {
        let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
        let server = try LoopbackHTTPServer()
        server.route("/503", .text("later", status: 503, headers: [("Retry-After", "Sun, 06 Nov 1994 08:51:07 GMT")]))
        let r = try response(fetch(server.url("/503")))
        XCTAssertEqual(r.status, 503)
        XCTAssertEqual(r.retryAfterSeconds(now: now), 90)
        XCTAssertEqual(r.retryAfterSeconds(now: now + 1000), 0, "a date in the past means now, never negative")
    }

    func testRetryAfterParsing() {
        func retry(_ value: String, now: Int64 = 0) -> Int64? {
            FetchResponse(status: 429, finalURL: "", headers: HTTPHeaders([.init(name: "Retry-After", value: value)]))
                .retryAfterSeconds(now: now)
        }
        XCTAssertEqual(retry(" 30 "), 30)
        XCTAssertEqual(retry("0"), 0)
        XCTAssertNil(retry("-5"))
        XCTAssertNil(retry("soon"))
        XCTAssertNil(retry(""))
        XCTAssertEqual(retry("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 60), 60)
    }

    func testHTTPDateForms() {
        let expected: Int64 = 784_111_777
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT"), 0)
        XCTAssertEqual(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT"), 1_835_481_599)
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994"))
        XCTAssertNil(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("yesterday"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 25:00:00 GMT"))
    }
}
