import FeedModel

/// When to fetch a source next. Pure: every input, the time included, is a parameter.
///
/// - After a success the interval is the user's `every=` when set (at least `minimumEvery`),
///   else the longest of the feed's hints (RSS ttl / sy:updatePeriod, Cache-Control max-age,
///   Expires), clamped to `minimumInterval...maximumInterval`; with no hint, `defaultInterval`.
/// - After a failure: Retry-After when the server sent one (clamped to `maximumRetryAfter`),
///   else exponential backoff `failureBase * 2^(failures-1)` up to `failureCap`, with up to
///   ±`jitterFraction` of jitter from the caller's `jitter` value in 0..<1. A failing source is
///   never given up on: it is retried at least every `failureCap`.
public struct SchedulePolicy: Sendable, Hashable {
    public var defaultInterval: Int64 = 3600
    public var minimumInterval: Int64 = 15 * 60
    public var maximumInterval: Int64 = 24 * 3600
    /// The shortest `every=` honoured (a user may poll a feed they own often, but not in a loop).
    public var minimumEvery: Int64 = 60
    public var failureBase: Int64 = 10 * 60
    public var failureCap: Int64 = 24 * 3600
    public var maximumRetryAfter: Int64 = 7 * 24 * 3600
    public var jitterFraction: Double = 0.1

    public init() {}

    /// What a successful response said about its freshness.
    public struct Hints: Sendable, Hashable {
        public var every: Int?
        public var feedRefresh: Int?
        public var maxAge: Int?
        /// `Expires`, seconds since 1970.
        public var expires: Int64?
        public init(every: Int? = nil, feedRefresh: Int? = nil, maxAge: Int? = nil, expires: Int64? = nil) {
            self.every = every
            self.feedRefresh = feedRefresh
            self.maxAge = maxAge
            self.expires = expires
        }
    }

    public func nextDueAfterSuccess(now: Timestamp, hints: Hints) -> Timestamp {
        if let every = hints.every {
            return now.adding(max(Int64(every), minimumEvery))
        }
        var candidates: [Int64] = []
        if let h = hints.feedRefresh, h > 0 { candidates.append(Int64(h)) }
        if let m = hints.maxAge { candidates.append(Int64(m)) }
        if let e = hints.expires { candidates.append(Timestamp(secondsSince1970: e).seconds(since: now)) }
        guard let longest = candidates.max() else { return now.adding(defaultInterval) }
        return now.adding(min(max(longest, minimumInterval), maximumInterval))
    }

    /// `failures` counts this failure (1 for the first). `jitter` is in 0..<1 (0.5 = none).
    public func nextDueAfterFailure(now: Timestamp, failures: Int, retryAfter: Int64?, jitter: Double) -> Timestamp {
        if let retryAfter {
            return now.adding(min(max(retryAfter, 1), maximumRetryAfter))
        }
        let exponent = min(max(failures, 1) - 1, 20)  // failures may be anything the store holds
        let base = min(failureBase << Int64(exponent), failureCap)
        let factor = 1 + jitterFraction * (2 * min(max(jitter, 0), 1) - 1)
        // A NaN jitter or fraction would trap in Int64(_:): read through the checked conversion.
        let wait = OutsideNumber.integer((Double(base) * factor).rounded(), in: 0...failureCap) ?? failureCap
        return now.adding(wait)
    }
}

