import Fetching
import TestSupport
import XCTest

/// The total timeout ends a server that never answers and one that answers too slowly.
final class TimeoutTests: XCTestCase {
    func testSlowResponseTimesOut() throws {
        let server = try LoopbackHTTPServer()
        server.route("/slow", ScriptedResponse.text("late").delayed(by: .seconds(10)))
        let start = ContinuousClock.now
        let error = try XCTUnwrap(failure(fetch(server.url("/slow"), limits: testLimits(total: .seconds(1)))))
        let elapsed = seconds(since: start)
        XCTAssertEqual(error, .timedOut(seconds: 1, whileConnecting: false))
        XCTAssertEqual(error.localizedDescription, "timeout after 1 s: the server is too slow or stalled mid-response")
        XCTAssertGreaterThanOrEqual(elapsed, 0.9)
        XCTAssertLessThan(elapsed, 3, "ends at the timeout, not when the server answers")
    }

    /// Headers at once, then a byte every 100 ms: data keeps coming, but the total timeout holds.
    func testDrippingResponseTimesOut() throws {
        let server = try LoopbackHTTPServer()
        server.route("/drip", ScriptedResponse.text(String(repeating: "x", count: 200)).dripped(1, every: .milliseconds(100)))
        let start = ContinuousClock.now
        let error = try XCTUnwrap(failure(fetch(server.url("/drip"), limits: testLimits(total: .seconds(1)))))
        XCTAssertEqual(error, .timedOut(seconds: 1, whileConnecting: false))
        XCTAssertLessThan(seconds(since: start), 3)
    }

    /// A drip that finishes within the timeout is a normal response.
    func testDripWithinTheTimeoutSucceeds() throws {
        let server = try LoopbackHTTPServer()
        server.route("/drip", ScriptedResponse.text("0123456789").dripped(2, every: .milliseconds(20)))
        let r = try response(fetch(server.url("/drip"), limits: testLimits(total: .seconds(3))))
        XCTAssertEqual(text(r.body), "0123456789")
    }
}
