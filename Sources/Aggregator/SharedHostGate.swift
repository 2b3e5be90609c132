import FeedModel
import Fetching
import Storage

/// Per-host politeness across workers (issue 22): before each transfer the fetcher asks this
/// gate, which takes one of the host's request slots all workers share (`SharedHostState`:
/// at most `limit` at once, each a lease that ends by itself should this worker die) and gives
/// it back when the transfer ends. A host another worker saw answer 429/503 with Retry-After
/// is not asked until then. Fetching knows nothing of it but `HostGate`.
final class SharedHostGate: HostGate {
    let state: any SharedHostState
    let worker: String
    let limit: Int
    let slotSeconds: Int
    let clock: @Sendable () -> Timestamp
    /// The slots this worker holds, by host, and the hosts the database failed on (they keep
    /// only this worker's own limit until the run ends: a store that cannot be reached fails
    /// the saves too, and says why).
    private var held: [String: [HostSlot]] = [:]
    private var unshared: Set<String> = []

    init(state: any SharedHostState, worker: String, limit: Int, slotSeconds: Int, clock: @escaping @Sendable () -> Timestamp) {
        (self.state, self.worker, self.limit, self.slotSeconds, self.clock) = (state, worker, limit, slotSeconds, clock)
    }

    func admission(host: String) -> HostAdmission {
        guard !unshared.contains(host) else { return .start }
        let now = clock()
        do {
            switch try state.acquireHostSlot(host: host, limit: limit, worker: worker, leaseSeconds: slotSeconds, now: now) {
            case .granted(let slot):
                held[host, default: []].append(slot)
                return .start
            case .full:
                return .wait
            case .backingOff(let until):
                return .backingOff(seconds: max(1, until.secondsSince1970.saturatingSubtract(now.secondsSince1970)))
            }
        } catch {
            unshared.insert(host)
            return .start
        }
    }

    func finished(host: String) {
        guard let slot = held[host]?.popLast() else { return }
        try? state.releaseHostSlot(slot)
    }

    /// Every slot still held (a run that stopped early).
    func releaseAll() {
        for slot in held.values.joined() { try? state.releaseHostSlot(slot) }
        held = [:]
        try? state.flushReleasedHostSlots()
    }
}

/// What a runner needs to share hosts with other workers.
public struct SharedHosts {
    public var state: any SharedHostState
    public var worker: String
    /// How long a slot lasts if never given back: the transfer's timeout and some.
    public var slotSeconds: Int
    /// A 503 without Retry-After pauses the host for every worker this long.
    public var defaultBackoffSeconds: Int64 = 60

    public init(state: any SharedHostState, worker: String, slotSeconds: Int) {
        (self.state, self.worker, self.slotSeconds) = (state, worker, slotSeconds)
    }
}

extension UpdateRunner {
    /// A 429 or 503 from `url`'s host, recorded for every worker: none asks it before the
    /// pause it asked for (as this source's schedule honours it), `defaultBackoffSeconds`
    /// without Retry-After.
    func shareBackoff(of url: String, retryAfter: Int64?, now: Timestamp) {
        guard let sharedHosts, let host = Fetcher.hostKey(of: url) else { return }
        let seconds = retryAfter.map { min(max($0, 1), policy.maximumRetryAfter) } ?? sharedHosts.defaultBackoffSeconds
        try? sharedHosts.state.recordHostBackoff(host: host, until: Timestamp(secondsSince1970: now.secondsSince1970.saturatingAdd(seconds)))
    }

    /// The pause a `hostBackingOff` failure carries, as the source's retry time.
    static func sharedBackoffSeconds(_ error: FetchError) -> Int64? {
        if case .hostBackingOff(_, let seconds) = error { return seconds }
        return nil
    }
}
