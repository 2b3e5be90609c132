import Aggregator
import FeedModel
import Fetching
import TestSupport
import XCTest

/// The schedule after a response whose numbers are hostile (every class from `HostileNumbers`
/// in ttl-derived hints, max-age, Expires and Retry-After), at any `now` a store may hold: never
/// a trap, always within the policy's bounds.
final class HostileScheduleNumbersTests: XCTestCase {
    let policy = SchedulePolicy()
    let nows: [Timestamp] = [Int64.min, -1, 0, 1_800_000_000, 4_133_980_799, Int64.max].map(Timestamp.init(secondsSince1970:))

    func response(_ headers: [(String, String)]) -> FetchResponse {
        FetchResponse(status: 200, finalURL: "https://example.com/feed",
                      headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }))
    }

    func testSuccessWithHostileHintsStaysWithinBounds() {
        let extremes: [Int?] = [nil, .min, -1, 0, 1, 60, Int(Int32.max), .max]
        for (name, text) in HostileNumbers.all(randomCount: 60) {
            let r = response([("Cache-Control", "max-age=\(text)"), ("Expires", text), ("Expires", "Fri, 31 Dec 9999 23:59:59 GMT")])
            for now in nows {
                for feedRefresh in extremes {
                    let hints = SchedulePolicy.Hints(feedRefresh: feedRefresh, maxAge: r.maxAgeSeconds, expires: r.expiresSeconds)
                    let due = policy.nextDueAfterSuccess(now: now, hints: hints)
                    let wait = due.seconds(since: now)
                    if due.secondsSince1970 != Int64.max {
                        XCTAssertTrue((policy.minimumInterval...policy.maximumInterval).contains(wait), "\(name) at \(now.secondsSince1970): \(wait)")
                    }
                }
                for every in extremes.compactMap({ $0 }) {
                    _ = policy.nextDueAfterSuccess(now: now, hints: .init(every: every))
                }
            }
        }
    }

    func testFailureWithHostileRetryAfterAndCountsStaysWithinBounds() {
        for (name, text) in HostileNumbers.all(randomCount: 60) {
            let retry = response([("Retry-After", text)]).retryAfterSeconds(now: 1_800_000_000)
            for now in nows {
                for failures in [Int.min, -1, 0, 1, 2, 64, Int.max] {
                    for jitter in [0, 0.5, 0.999, -1, 2, .nan, .infinity] {
                        let due = policy.nextDueAfterFailure(now: now, failures: failures, retryAfter: retry, jitter: jitter)
                        let wait = due.seconds(since: now)
                        if due.secondsSince1970 != Int64.max {
                            XCTAssertTrue((0...max(policy.maximumRetryAfter, policy.failureCap)).contains(wait), "\(name) \(failures) \(jitter): \(wait)")
                        }
                    }
                }
            }
        }
    }
}
