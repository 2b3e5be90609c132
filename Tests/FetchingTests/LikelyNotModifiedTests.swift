import Fetching
import TestSupport
import XCTest

/// A pass of conditional requests whose last answers were 304 (issue 21: an all-304 pass of
/// 5,000 feeds at 50 ms of latency): before any transfer has completed, the buffered-bytes
/// estimate takes each such request to bring no body, so the pass does not start with 16
/// transfers (1 MiB / `unknownBodyBytes`) and wait a round trip for the first answers. Requests
/// not marked keep the estimate of a typical body.
final class LikelyNotModifiedTests: XCTestCase {
    func testTheEstimateCountsABodyForEachUnmarkedTransferOnly() {
        let unknown = FetchLoad.unknownBodyBytes
        XCTAssertEqual(FetchLoad(running: 10, completed: 0, completedBodyBytes: 0).expectedBodyBytes, 10 * unknown)
        XCTAssertEqual(FetchLoad(running: 10, completed: 0, completedBodyBytes: 0, runningLikelyNotModified: 4).expectedBodyBytes,
                       6 * unknown)
        XCTAssertEqual(FetchLoad(running: 10, completed: 0, completedBodyBytes: 0, runningLikelyNotModified: 10).expectedBodyBytes, 0)
        // A count out of range is held within 0...running.
        XCTAssertEqual(FetchLoad(running: 3, completed: 0, completedBodyBytes: 0, runningLikelyNotModified: 9).expectedBodyBytes, 0)
        XCTAssertEqual(FetchLoad(running: 3, completed: 0, completedBodyBytes: 0, runningLikelyNotModified: -2).expectedBodyBytes,
                       3 * unknown)
        // Once answers came back, their mean body is what counts, marked or not.
        XCTAssertEqual(FetchLoad(running: 8, completed: 4, completedBodyBytes: 4_000, runningLikelyNotModified: 8).expectedBodyBytes,
                       8_000)
    }

    /// The update's own bound (1 MiB of expected bodies): before any answer, 16 unmarked
    /// transfers at once; marked ones all start (up to the limits), and their answers are the
    /// same.
    func testMarkedRequestsAllStartBeforeTheFirstAnswer() throws {
        let server = try LoopbackHTTPServer()
        for i in 0..<60 { server.route("/f\(i)", .text("feed \(i)")) }
        for marked in [false, true] {
            let fetcher = try Fetcher(limits: testLimits(maxInFlight: 60, maxPerHost: 60))
            var runningBeforeAnyAnswer = 0
            var answers = 0
            fetcher.fetchAll(count: 60, request: { position in
                FetchRequest(id: Int64(position), url: server.url("/f\(position)"), etag: "\"e\(position)\"",
                             likelyNotModified: marked)
            }, onComplete: { request, result in
                if case .success(let response) = result {
                    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "feed \(request.id)")
                    answers += 1
                }
            }, mayStart: { load in
                if load.completed == 0 { runningBeforeAnyAnswer = max(runningBeforeAnyAnswer, load.running) }
                return load.expectedBodyBytes < 1 << 20
            })
            XCTAssertEqual(answers, 60, "marked: \(marked)")
            if marked {
                XCTAssertGreaterThan(runningBeforeAnyAnswer, 16, "marked requests wait for no answer")
            } else {
                XCTAssertEqual(runningBeforeAnyAnswer, 16, "1 MiB / 64 KiB before any answer")
            }
        }
    }
}
