@testable import Fetching
import Foundation
import TestSupport
import XCTest

/// The adaptive per-host limit: the policy alone (answer times as parameters), then against a
/// loopback server that counts the requests it serves at once.
final class HostConcurrencyTests: XCTestCase {
    func testStartsAtStartGrowsByOnePerFastAnswerUpToTheCeiling() {
        var host = HostConcurrency(start: 6, ceiling: 24)
        XCTAssertEqual(host.limit, 6)
        host.record(.answered(seconds: 0.05))
        XCTAssertEqual(host.limit, 7)
        for _ in 0..<100 { host.record(.answered(seconds: 0.06)) }
        XCTAssertEqual(host.limit, 24, "never above the ceiling")
        XCTAssertEqual(host.fastest, 0.05)
    }

    func testStartIsClampedToTheCeilingAndToOne() {
        XCTAssertEqual(HostConcurrency(start: 6, ceiling: 3).limit, 3)
        XCTAssertEqual(HostConcurrency(start: 0, ceiling: 3).limit, 1)
        XCTAssertEqual(HostConcurrency(start: 6, ceiling: 0).limit, 1)
    }

    /// Slower than twice the fastest answer (plus 50 ms of slack): held, neither up nor down.
    func testSlowAnswersHoldTheLimit() {
        var host = HostConcurrency(start: 6, ceiling: 24)
        host.record(.answered(seconds: 0.1))   // 7
        host.record(.answered(seconds: 0.25))  // exactly 2 × 0.1 + 0.05: still fast
        XCTAssertEqual(host.limit, 8)
        host.record(.answered(seconds: 0.3))
        host.record(.answered(seconds: 2))
        XCTAssertEqual(host.limit, 8)
        host.record(.answered(seconds: 0.01))  // a new fastest answer is fast
        XCTAssertEqual(host.limit, 9)
        host.record(.answered(seconds: 0.1))   // and now 0.1 is slow (> 0.07)
        XCTAssertEqual(host.limit, 9)
    }

    func testOverloadHalvesDownToOne() {
        var host = HostConcurrency(start: 6, ceiling: 24)
        for _ in 0..<20 { host.record(.answered(seconds: 0.05)) }
        XCTAssertEqual(host.limit, 24)
        host.record(.overloaded)
        XCTAssertEqual(host.limit, 12)
        host.record(.neutral)
        XCTAssertEqual(host.limit, 12)
        for _ in 0..<10 { host.record(.overloaded) }
        XCTAssertEqual(host.limit, 1)
        host.record(.answered(seconds: 0.05))
        XCTAssertEqual(host.limit, 2, "and grows back one at a time")
    }

    func testSignalsOfOutcomes() {
        func answer(_ status: Int, firstByte: Double = 0.3, connect: Double = 0.1) -> Result<FetchResponse, FetchError> {
            .success(FetchResponse(status: status, finalURL: "http://h/", timing: FetchTiming(connect: connect, firstByte: firstByte)))
        }
        for status in [429, 502, 503, 504] { XCTAssertEqual(HostConcurrency.Signal.of(answer(status)), .overloaded, "\(status)") }
        // Server time: first byte minus connection set-up.
        XCTAssertEqual(HostConcurrency.Signal.of(answer(200)), .answered(seconds: 0.3 - 0.1))
        XCTAssertEqual(HostConcurrency.Signal.of(answer(304, firstByte: 0.2, connect: 0)), .answered(seconds: 0.2))
        XCTAssertEqual(HostConcurrency.Signal.of(answer(404)), .answered(seconds: 0.3 - 0.1))
        let overloaded: [FetchError] = [.timedOut(seconds: 30, whileConnecting: false), .connectionRefused(host: "h"),
                                        .couldNotConnect(host: "h", detail: ""), .connectionLost(detail: ""), .emptyReply]
        for error in overloaded { XCTAssertEqual(HostConcurrency.Signal.of(.failure(error)), .overloaded, "\(error)") }
        let neutral: [FetchError] = [.bodyTooLarge(limit: 1, onTheWire: true), .invalidURL("x"), .tls(detail: "")]
        for error in neutral { XCTAssertEqual(HostConcurrency.Signal.of(.failure(error)), .neutral, "\(error)") }
    }

    // MARK: Against a server

    /// One host with 50 feeds: never hit 50 times at once. The limit starts at 6 and, the host
    /// answering every request equally fast, grows towards the ceiling of 16 without passing it.
    func testOneHostWithFiftyFeedsIsNotHitFiftyTimesAtOnce() throws {
        let server = try LoopbackHTTPServer()
        server.route("/feed", ScriptedResponse.text("ok").delayed(by: .milliseconds(100)))
        var limits = testLimits(maxInFlight: 64, maxPerHost: 16)
        limits.perHostStart = 6
        let fetcher = try Fetcher(limits: limits)
        var ok = 0
        fetcher.fetchAll((0..<50).map { FetchRequest(id: Int64($0), url: server.url("/feed?n=\($0)")) }) { _, result in
            if case .success(let r) = result, r.status == 200 { ok += 1 }
        }
        XCTAssertEqual(ok, 50)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 16, "the ceiling holds")
        XCTAssertGreaterThan(server.maxConcurrentRequests, 6, "the limit grew past its start")
        XCTAssertLessThanOrEqual(fetcher.statistics.peakInFlight, 16)
        XCTAssertEqual(fetcher.hostLimits["127.0.0.1"]?.limit, 16)
    }

    /// A host answering 503 to everything: the limit never grows past its start and is halved
    /// down to one request at a time.
    func testAnOverloadedHostGetsFewerRequests() throws {
        let server = try LoopbackHTTPServer()
        server.route("/feed", ScriptedResponse.text("busy", status: 503).delayed(by: .milliseconds(20)))
        var limits = testLimits(maxInFlight: 64, maxPerHost: 16)
        limits.perHostStart = 4
        let fetcher = try Fetcher(limits: limits)
        var statuses: [Int] = []
        fetcher.fetchAll((0..<30).map { FetchRequest(id: Int64($0), url: server.url("/feed?n=\($0)")) }) { _, result in
            if case .success(let r) = result { statuses.append(r.status) }
        }
        XCTAssertEqual(statuses, Array(repeating: 503, count: 30))
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 4)
        XCTAssertEqual(fetcher.hostLimits["127.0.0.1"]?.limit, 1)
    }

    /// Without `perHostStart` the limit is fixed at `maxPerHost` (what the image cache and page
    /// previews use), and no host state is kept.
    func testFixedLimitWithoutStart() throws {
        let server = try LoopbackHTTPServer()
        server.route("/r", ScriptedResponse.text("ok").delayed(by: .milliseconds(30)))
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 16, maxPerHost: 2))
        fetcher.fetchAll((0..<12).map { FetchRequest(id: Int64($0), url: server.url("/r?n=\($0)")) }) { _, _ in }
        XCTAssertEqual(server.maxConcurrentRequests, 2)
        XCTAssertTrue(fetcher.hostLimits.isEmpty)
    }

    /// `whileWaiting` runs on the calling thread while a transfer is still in flight, after a
    /// wake from another thread.
    func testWakerRunsWhileWaitingDuringTransfers() throws {
        let server = try LoopbackHTTPServer()
        server.route("/slow", ScriptedResponse.text("ok").delayed(by: .milliseconds(1500)))
        let fetcher = try Fetcher(limits: testLimits())
        let waker = fetcher.waker
        let woke = LockedFlag()
        var sawWake = false
        let thread = Thread { usleep(100_000); woke.set(); waker.wake() }
        thread.start()
        fetcher.fetchAll([FetchRequest(id: 1, url: server.url("/slow"))], onComplete: { _, _ in
            // The transfer takes 1.5 s; the wake came after 0.1 s, long before.
            XCTAssertTrue(sawWake)
        }, whileWaiting: {
            if woke.value { sawWake = true }
        })
        XCTAssertTrue(sawWake)
    }
}

private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.lock(); flag = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return flag }
}
