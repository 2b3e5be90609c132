import Fetching
import TestSupport
import Foundation
import XCTest

/// The test server itself stays bounded: idle connections close, the whole server ends.
final class LoopbackServerTests: XCTestCase {
    func testIdleConnectionIsClosedAfterTheReadTimeout() throws {
        let server = try LoopbackHTTPServer(readTimeout: .milliseconds(300))
        server.route("/r", .text("ok"))
        let fetcher = try Fetcher(limits: testLimits())
        let first = try response(fetcher.fetch(FetchRequest(id: 1, url: server.url("/r"))))
        Thread.sleep(forTimeInterval: 0.6)
        let second = try response(fetcher.fetch(FetchRequest(id: 2, url: server.url("/r"))))
        XCTAssertEqual(first.newConnections, 1)
        XCTAssertEqual(second.newConnections, 1, "the idle connection was closed by the server")
        XCTAssertEqual(server.connectionsAccepted, 2)
    }

    func testServerStopsAfterItsLifetime() throws {
        let server = try LoopbackHTTPServer(maxLifetime: .milliseconds(300))
        server.route("/r", .text("ok"))
        XCTAssertEqual(try response(fetch(server.url("/r"))).status, 200)
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertEqual(try failure(fetch(server.url("/r"))), .connectionRefused(host: server.hostHeader))
    }

    func testOnlyLoopbackAddresses() {
        XCTAssertThrowsError(try LoopbackHTTPServer(address: "0.0.0.0"))
        XCTAssertThrowsError(try LoopbackHTTPServer(address: "192.168.1.1"))
    }

    func testUnknownPathIs404AndLogged() throws {
        let server = try LoopbackHTTPServer()
        XCTAssertEqual(try response(fetch(server.url("/nothing?x=1"))).status, 404)
        XCTAssertEqual(server.requests.map(\.target), ["/nothing?x=1"])
        XCTAssertEqual(server.requests(path: "/nothing").count, 1)
    }
}
