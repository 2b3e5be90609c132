import Fetching
import Foundation
import TestSupport
import XCTest

/// Bounded in flight overall and per host; waiting never counts against a timeout; connections reused;
/// results delivered on the calling thread as transfers finish.
final class ConcurrencyTests: XCTestCase {
    /// 40 requests of 200 ms each, 4 at a time, 1 s timeout: about 2 s in all, yet none times
    /// out, because a request's clock starts only when it gets a slot.
    func testQueuedRequestsDoNotTimeOutWhileWaiting() throws {
        let server = try LoopbackHTTPServer()
        server.route("/slowish", ScriptedResponse.text("ok").delayed(by: .milliseconds(200)))
        let fetcher = try Fetcher(limits: testLimits(total: .seconds(1), maxInFlight: 4, maxPerHost: 4))
        var ok = 0
        var errors: [String] = []
        var maxQueued = 0.0
        fetcher.fetchAll((1...40).map { FetchRequest(id: Int64($0), url: server.url("/slowish?n=\($0)")) }) { _, result in
            switch result {
            case .success(let r) where r.status == 200:
                ok += 1
                maxQueued = max(maxQueued, r.timing.queued)
            case .success(let r): errors.append("status \(r.status)")
            case .failure(let error): errors.append(error.localizedDescription)
            }
        }
        XCTAssertEqual(errors, [])
        XCTAssertEqual(ok, 40)
        XCTAssertGreaterThan(maxQueued, 1, "the last requests waited longer than the timeout")
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 4)
        XCTAssertGreaterThanOrEqual(server.maxConcurrentRequests, 2, "requests did run in parallel")
        XCTAssertLessThanOrEqual(fetcher.statistics.peakInFlight, 4)
    }

    /// Two hosts (127.0.0.1 and 127.0.0.2), 2 per host, 6 overall: neither host ever sees more
    /// than 2, and the second host's requests do not wait behind the first's queue.
    func testPerHostLimitLetsOtherHostsProceed() throws {
        let first = try LoopbackHTTPServer(address: "127.0.0.1")
        let second = try LoopbackHTTPServer(address: "127.0.0.2")
        for server in [first, second] {
            server.route("/item", ScriptedResponse.text("ok").delayed(by: .milliseconds(100)))
        }
        let requests = (0..<10).map { FetchRequest(id: Int64($0), url: first.url("/item?n=\($0)")) }
            + (10..<20).map { FetchRequest(id: Int64($0), url: second.url("/item?n=\($0)")) }
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 6, maxPerHost: 2))
        var done = Set<Int64>()
        fetcher.fetchAll(requests) { request, result in
            if case .success(let r) = result, r.status == 200 { done.insert(request.id) }
        }
        XCTAssertEqual(done, Set(0..<20))
        XCTAssertEqual(first.maxConcurrentRequestsByHost[first.hostHeader], 2)
        XCTAssertEqual(second.maxConcurrentRequestsByHost[second.hostHeader], 2)
        XCTAssertLessThanOrEqual(fetcher.statistics.peakInFlight, 4, "never more than 2 per host")
        let secondStarted = try XCTUnwrap(second.requests.map(\.receivedAt).min())
        let firstFinishedArriving = try XCTUnwrap(first.requests.map(\.receivedAt).max())
        XCTAssertLessThan(secondStarted, firstFinishedArriving, "the second host was served while the first still had a queue")
    }

    /// Three hosts, 2 per host: the first's long queue, the second's short one (its host stops
    /// waiting early), the third's long one after both. A pass of the transfer loop stops once
    /// every host that still has requests waiting is at its limit; the second host emptying
    /// must not make it stop before the third host's requests, nor start more than 2 anywhere.
    func testAHostThatRunsOutOfRequestsDoesNotHoldBackTheOthers() throws {
        let servers = try ["127.0.0.1", "127.0.0.2", "127.0.0.3"].map { address in try LoopbackHTTPServer(address: address) }
        for server in servers { server.route("/item", ScriptedResponse.text("ok").delayed(by: .milliseconds(30))) }
        let requests = (0..<16).map { FetchRequest(id: Int64($0), url: servers[0].url("/item?n=\($0)")) }
            + (16..<18).map { FetchRequest(id: Int64($0), url: servers[1].url("/item?n=\($0)")) }
            + (18..<34).map { FetchRequest(id: Int64($0), url: servers[2].url("/item?n=\($0)")) }
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 8, maxPerHost: 2))
        var done = Set<Int64>()
        fetcher.fetchAll(requests) { request, result in
            if case .success(let r) = result, r.status == 200 { done.insert(request.id) }
        }
        XCTAssertEqual(done, Set(0..<34))
        for server in servers { XCTAssertEqual(server.maxConcurrentRequestsByHost[server.hostHeader], 2) }
        let thirdStarted = try XCTUnwrap(servers[2].requests.map(\.receivedAt).min())
        let firstLast = try XCTUnwrap(servers[0].requests.map(\.receivedAt).max())
        XCTAssertLessThan(thirdStarted, firstLast, "the third host was served while the first still had a queue")
        XCTAssertEqual(servers[2].requests.count, 16)
    }

    /// Many requests to one host with a per-host limit below the overall one.
    func testPerHostLimitOnOneHost() throws {
        let server = try LoopbackHTTPServer()
        server.route("/item", ScriptedResponse.text("ok").delayed(by: .milliseconds(50)))
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 16, maxPerHost: 3))
        var count = 0
        fetcher.fetchAll((0..<24).map { FetchRequest(id: Int64($0), url: server.url("/item?n=\($0)")) }) { _, result in
            if case .success = result { count += 1 }
        }
        XCTAssertEqual(count, 24)
        XCTAssertEqual(server.maxConcurrentRequests, 3)
    }

    /// One at a time to one host: every request after the first rides the same connection.
    func testConnectionsAreReused() throws {
        let server = try LoopbackHTTPServer()
        server.route("/r", .text("ok"))
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 1))
        var newConnections: [Int] = []
        fetcher.fetchAll((0..<10).map { FetchRequest(id: Int64($0), url: server.url("/r")) }) { _, result in
            if case .success(let r) = result { newConnections.append(r.newConnections) }
        }
        // A second fetchAll keeps using the same multi handle and its connection cache.
        _ = try response(fetcher.fetch(FetchRequest(id: 99, url: server.url("/r"))))
        XCTAssertEqual(newConnections, [1] + Array(repeating: 0, count: 9))
        XCTAssertEqual(server.connectionsAccepted, 1)
        XCTAssertEqual(Set(server.requests.map(\.connection)), [1])
        XCTAssertEqual(fetcher.statistics.connectionsOpened, 1)
    }

    /// Callbacks run on the calling thread, as each transfer finishes (a fast one before a slow
    /// one queued ahead of it), with the caller's ids; bad URLs are reported without a transfer.
    func testCompletionOrderThreadAndIds() throws {
        let server = try LoopbackHTTPServer()
        server.route("/slow", ScriptedResponse.text("slow").delayed(by: .milliseconds(300)))
        server.route("/fast", .text("fast"))
        let fetcher = try Fetcher(limits: testLimits())
        let caller = Thread.current
        var order: [Int64] = []
        var onCaller = true
        fetcher.fetchAll([FetchRequest(id: 7, url: server.url("/slow")),
                          FetchRequest(id: 8, url: server.url("/fast")),
                          FetchRequest(id: 9, url: "nonsense")]) { request, _ in
            onCaller = onCaller && Thread.current == caller
            order.append(request.id)
        }
        XCTAssertTrue(onCaller)
        XCTAssertEqual(order, [9, 8, 7])
        XCTAssertEqual(fetcher.statistics.failures, 1)
        XCTAssertEqual(fetcher.statistics.responses, 2)
    }
}
