import Aggregator
import FeedModel
import XCTest

/// The schedule policy is pure: `now` and the jitter are parameters, so no clock is involved.
final class SchedulePolicyTests: XCTestCase {
    let now = Timestamp(secondsSince1970: 1_800_000_000)
    let policy = SchedulePolicy()

    func seconds(_ t: Timestamp) -> Int64 { t.secondsSince1970 - now.secondsSince1970 }

    func testUserIntervalWinsOverFeedHints() {
        let hints = SchedulePolicy.Hints(every: 30 * 60, feedRefresh: 6 * 3600, maxAge: 7200)
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: hints)), 1800)
    }

    func testUserIntervalHasAFloor() {
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init(every: 5))), policy.minimumEvery)
    }

    func testWithoutHintsTheDefaultApplies() {
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init())), policy.defaultInterval)
    }

    func testLongestFeedHintIsUsedWithinBounds() {
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init(feedRefresh: 2 * 3600, maxAge: 600))), 7200)
        // A 1-minute ttl is raised to the minimum; a week's max-age lowered to the maximum.
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init(feedRefresh: 60))), policy.minimumInterval)
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init(maxAge: 7 * 86_400))), policy.maximumInterval)
    }

    func testExpiresCountsFromNow() {
        let hints = SchedulePolicy.Hints(expires: now.secondsSince1970 + 3 * 3600)
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: hints)), 3 * 3600)
        // Already expired (Expires: 0): the minimum, not a loop.
        XCTAssertEqual(seconds(policy.nextDueAfterSuccess(now: now, hints: .init(expires: 0))), policy.minimumInterval)
    }

    func testFailuresBackOffExponentiallyUpToTheCap() {
        let delays = (1...12).map { seconds(policy.nextDueAfterFailure(now: now, failures: $0, retryAfter: nil, jitter: 0.5)) }
        XCTAssertEqual(delays[0], policy.failureBase)
        XCTAssertEqual(delays[1], 2 * policy.failureBase)
        XCTAssertEqual(delays[2], 4 * policy.failureBase)
        XCTAssertEqual(delays.last, policy.failureCap)
        XCTAssertEqual(delays, delays.sorted(), "never shorter after more failures")
        // Still retried: the cap is a day, not never.
        XCTAssertLessThanOrEqual(seconds(policy.nextDueAfterFailure(now: now, failures: 1000, retryAfter: nil, jitter: 1)), policy.failureCap)
    }

    func testJitterSpreadsRetries() {
        let low = seconds(policy.nextDueAfterFailure(now: now, failures: 3, retryAfter: nil, jitter: 0))
        let high = seconds(policy.nextDueAfterFailure(now: now, failures: 3, retryAfter: nil, jitter: 0.999))
        let base = 4 * policy.failureBase
        XCTAssertLessThan(low, base)
        XCTAssertGreaterThan(high, base)
        XCTAssertGreaterThanOrEqual(Double(low), Double(base) * (1 - policy.jitterFraction) - 1)
        XCTAssertLessThanOrEqual(Double(high), Double(base) * (1 + policy.jitterFraction) + 1)
    }

    func testRetryAfterIsObeyedAndBounded() {
        XCTAssertEqual(seconds(policy.nextDueAfterFailure(now: now, failures: 1, retryAfter: 120, jitter: 0.9)), 120)
        XCTAssertEqual(seconds(policy.nextDueAfterFailure(now: now, failures: 1, retryAfter: Int64.max, jitter: 0.5)), policy.maximumRetryAfter)
        XCTAssertEqual(seconds(policy.nextDueAfterFailure(now: now, failures: 1, retryAfter: 0, jitter: 0.5)), 1)
    }
}
