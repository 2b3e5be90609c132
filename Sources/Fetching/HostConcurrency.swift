/// How many transfers one host gets at once: an adaptive limit (additive increase, multiplicative
/// decrease, like TCP's congestion window) between 1 and a ceiling.
///
/// Why adaptive: a fixed per-host limit is either too low for a hub that serves many feeds
/// quickly (200 feeds on one host at 6 at a time, 50 ms each, is 34 round trips: slower than
/// tools with no per-host limit at all) or too high for a small server that is struggling. So a
/// host starts at `start` (6, what browsers open to one HTTP/1.1 server) and gets one more slot
/// for every answer that comes back healthy and fast (not much slower than the fastest answer it
/// gave in this run), up to `ceiling` (24 in `feeds update`: well below "every feed of the host
/// at once" and what a host that keeps answering at full speed can take). A sign of overload —
/// 429, 502, 503, 504, a timeout, a refused, failed or dropped connection — halves the limit
/// (at least 1); a slow but healthy answer holds it. Transfers already running are never
/// interrupted: a lower limit only delays the next starts.
///
/// Pure: the time an answer took is a parameter; it never reads a clock.
public struct HostConcurrency: Sendable, Hashable {
    /// What one finished transfer says about its host.
    public enum Signal: Sendable, Hashable {
        /// An answer that is not a sign of overload (200, 304, 404, ...), with the seconds the
        /// server took to start answering once the request was sent.
        case answered(seconds: Double)
        /// 429, 502/503/504, a timeout, a refused or lost connection.
        case overloaded
        /// Says nothing about the host's load (a bad URL, a body over the size limit, TLS).
        case neutral
    }

    public let ceiling: Int
    public private(set) var limit: Int
    /// The fastest answer of the run so far: the host's "unloaded" speed.
    public private(set) var fastest: Double?

    /// An answer counts as fast up to twice the fastest one plus this much (so a host that
    /// answers in 1 ms is not judged slow at 3 ms, which is noise).
    static let slack = 0.05

    public init(start: Int, ceiling: Int) {
        self.ceiling = max(1, ceiling)
        limit = min(max(1, start), self.ceiling)
    }

    public mutating func record(_ signal: Signal) {
        switch signal {
        case .answered(let seconds):
            let seconds = max(0, seconds)
            let best = min(fastest ?? seconds, seconds)
            fastest = best
            if seconds <= 2 * best + Self.slack { limit = min(ceiling, limit + 1) }
        case .overloaded:
            limit = max(1, limit / 2)
        case .neutral:
            break
        }
    }
}

extension HostConcurrency.Signal {
    /// The signal of a transfer's outcome.
    static func of(_ result: Result<FetchResponse, FetchError>) -> Self {
        switch result {
        case .success(let response):
            switch response.status {
            case 429, 502, 503, 504: return .overloaded
            default:
                // Time from sending the request to the first byte of the answer: the server's
                // own time, without the connection set-up a reused connection does not pay.
                let t = response.timing
                return .answered(seconds: t.firstByte - max(t.connect, t.tlsHandshake))
            }
        case .failure(let error):
            switch error {
            case .timedOut, .connectionRefused, .couldNotConnect, .connectionLost, .emptyReply:
                return .overloaded
            default:
                return .neutral
            }
        }
    }
}
