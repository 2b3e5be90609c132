import Fetching
import TestSupport
import XCTest

/// `Fetcher.fetchAll(count:request:)` makes each request when it needs it (issue 21: a run of
/// 5,000 feeds held its sources and, beside them, a list of their requests): every position is
/// asked for, each answer comes back once with the request that was made (one that cannot
/// start too), and the limit on transfers at once holds.
final class RequestsOnDemandTests: XCTestCase {
    func testEveryPositionIsFetchedOnceWithTheRequestMadeForIt() throws {
        let servers = try (0..<3).map { _ in try LoopbackHTTPServer() }
        for (h, server) in servers.enumerated() {
            for i in 0..<20 { server.route("/f\(i)", .text("host \(h) feed \(i)")) }
        }
        // Positions 0..<60 over three servers; every seventh a URL that cannot start.
        func url(_ position: Int) -> String {
            position % 7 == 3 ? "no scheme \(position)" : servers[position % 3].url("/f\(position / 3)")
        }
        var asked = [Int](repeating: 0, count: 60)
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 5, maxPerHost: 2))
        var answered: [Int64: Result<FetchResponse, FetchError>] = [:]
        fetcher.fetchAll(count: 60, request: { position in
            asked[position] += 1
            return FetchRequest(id: Int64(1_000 + position), url: url(position), etag: "\"e\(position)\"")
        }, onComplete: { request, result in
            let position = Int(request.id) - 1_000
            XCTAssertNil(answered[request.id], "position \(position) answered twice")
            XCTAssertEqual(request.url, url(position))
            XCTAssertEqual(request.etag, "\"e\(position)\"")
            answered[request.id] = result
        })
        XCTAssertEqual(answered.count, 60)
        XCTAssertTrue(asked.allSatisfy { $0 >= 1 }, "every position asked for")
        for position in 0..<60 {
            switch try XCTUnwrap(answered[Int64(1_000 + position)]) {
            case .success(let response):
                XCTAssertNotEqual(position % 7, 3)
                XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "host \(position % 3) feed \(position / 3)")
            case .failure:
                XCTAssertEqual(position % 7, 3, "position \(position) failed")
            }
        }
        XCTAssertLessThanOrEqual(fetcher.statistics.peakInFlight, 5)
    }
}
