import Aggregator
import FeedModel
import FeedParsing
import Fetching

/// The `schedule` fuzz target (see `FuzzTarget.schedule`).
enum ScheduleFuzz {
    static let moments: [Int64] = [.min, -1, 0, 1_800_000_000, Timestamp.plausibleRange.upperBound, .max]

    static func run(_ bytes: [UInt8]) throws {
        let (headers, body) = split(bytes)
        let response = FetchResponse(status: 200, finalURL: "https://fuzz.example/feed", headers: headers, body: body)
        let maxAge = response.maxAgeSeconds
        if let maxAge { try Invariant.check((0...(1 << 31)).contains(maxAge), "max-age \(maxAge) outside 0...2^31") }
        let expires = response.expiresSeconds
        var feedRefresh: Int?
        if let parsed = try? FeedParser.parse(body, options: ParseOptions(baseURL: "https://fuzz.example/feed/")) {
            feedRefresh = parsed.feed.refreshHintSeconds
            if let hint = feedRefresh {
                try Invariant.check((1...(10 * 365 * 86_400)).contains(hint), "refresh hint \(hint) out of range")
            }
            for card in parsed.cards {
                try Invariant.card(card)
                for e in card.enclosures {
                    if let length = e.length { try Invariant.check(Enclosure.lengthRange.contains(length), "enclosure length \(length)") }
                }
            }
        }
        let policy = SchedulePolicy()
        // A failure count and a jitter from the input too: the store's count may be anything.
        let failures = bytes.prefix(8).reduce(0) { $0 &* 31 &+ Int($1) }
        let jitter = Double(bytes.last ?? 0) / 255
        for seconds in moments {
            let now = Timestamp(secondsSince1970: seconds)
            let retryAfter = response.retryAfterSeconds(now: seconds)
            if let retryAfter { try Invariant.check(retryAfter >= 0, "negative Retry-After \(retryAfter)") }
            let hints = SchedulePolicy.Hints(feedRefresh: feedRefresh, maxAge: maxAge, expires: expires)
            let due = policy.nextDueAfterSuccess(now: now, hints: hints)
            try within(due, now, policy.minimumInterval...max(policy.maximumInterval, policy.defaultInterval), "success")
            let failed = policy.nextDueAfterFailure(now: now, failures: failures, retryAfter: retryAfter, jitter: jitter)
            try within(failed, now, 0...max(policy.maximumRetryAfter, policy.failureCap), "failure")
        }
    }

    /// `due - now` in `bounds`, unless the sum was held at the end of Int64.
    static func within(_ due: Timestamp, _ now: Timestamp, _ bounds: ClosedRange<Int64>, _ what: String) throws {
        guard due.secondsSince1970 != .max else { return }
        let wait = due.seconds(since: now)
        try Invariant.check(bounds.contains(wait), "\(what): next due \(wait) s after now (\(now.secondsSince1970))")
    }

    /// Header lines up to the first empty line (`Name: value`), the rest the body.
    static func split(_ bytes: [UInt8]) -> (HTTPHeaders, [UInt8]) {
        var fields: [HTTPHeaders.Field] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x0A else { i += 1; continue }
            let line = String(decoding: bytes[start..<i], as: UTF8.self)
            start = i + 1
            i += 1
            if line.isEmpty || line == "\r" { return (HTTPHeaders(fields), Array(bytes[start...])) }
            if let colon = line.firstIndex(of: ":") {
                fields.append(HTTPHeaders.Field(name: String(line[..<colon]),
                                                value: String(line[line.index(after: colon)...]).trimmingASCIIWhitespace))
            }
        }
        return (HTTPHeaders(fields), [])
    }
}
