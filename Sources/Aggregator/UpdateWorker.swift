import FeedModel
import Fetching
import Foundation
import Storage

/// `feeds update --worker`: one of any number of processes, on any number of machines, that
/// update the sources of one PostgreSQL database together (issue 22). The database is the
/// coordination: the worker leases a batch of due sources (`SourceLeasing`), runs the update
/// on them, gives them back, and again; with nothing leasable it sleeps until the next due
/// time or lease end. Its session is fenced with its name, so a worker that a slow batch kept
/// past its lease records nothing over what the worker that took the source over saved.
public struct UpdateWorker {
    public var runner: UpdateRunner
    /// `hostname:pid`: unique among live workers, and says where one runs.
    public var name: String
    public var batch: Int
    /// Ends once no source is due (leased or not), instead of sleeping until one is.
    public var exitWhenIdle: Bool
    public var leaseSeconds: Int
    /// Asked between batches and while sleeping: SIGTERM's flag.
    public var stopRequested: @Sendable () -> Bool
    /// The longest sleep between two looks at the database (a source added meanwhile).
    public var longestSleepSeconds = 60

    public init(runner: UpdateRunner, name: String, batch: Int, exitWhenIdle: Bool, leaseSeconds: Int,
                stopRequested: @escaping @Sendable () -> Bool) {
        self.runner = runner
        self.name = name
        self.batch = batch
        self.exitWhenIdle = exitWhenIdle
        self.leaseSeconds = leaseSeconds
        self.stopRequested = stopRequested
    }

    /// `hostname:pid`.
    public static var defaultName: String {
        "\(ProcessInfo.processInfo.hostName):\(getpid())"
    }

    /// How long a batch's lease lasts: every transfer of the batch may take the whole transfer
    /// timeout, a host taking `perHostStart` at once, and as long again to parse and save (the
    /// isolated fetch's allowance), plus 10 s for the round trips to the database; a day at most.
    public static func leaseSeconds(batch: Int, limits: FetchLimits) -> Int {
        let perHost = max(1, min(limits.maxPerHost, limits.perHostStart ?? limits.maxPerHost))
        let rounds = (max(1, batch) + perHost - 1) / perHost
        let timeout = max(1, Int(limits.totalTimeout.components.seconds))
        return min(rounds.saturatingMultiply(timeout.saturatingMultiply(2)).saturatingAdd(10), 86_400)
    }

    /// Runs until stopped (or idle, with `exitWhenIdle`); the reports of every batch. Its
    /// leases are given back whatever happens (a batch that throws, SIGTERM between batches).
    public func run(in workspace: Workspace, progress: (SourceReport, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws -> UpdateSummary {
        guard let store = workspace.postgres else { throw WorkerError.needsPostgres }
        store.fence = name
        defer {
            store.fence = nil
            try? store.releaseLeases(worker: name, sources: nil)
        }
        var runner = runner
        runner.sharedHosts = SharedHosts(state: store, worker: name,
                                         slotSeconds: Int(runner.limits.totalTimeout.components.seconds).saturatingAdd(10))
        var summary = UpdateSummary()
        while !stopRequested() {
            let now = runner.clock()
            let leased = try store.leaseDueSources(batch: batch, leaseSeconds: leaseSeconds, worker: name, now: now)
            if leased.isEmpty {
                // Due sources other workers hold: looked at every second, since they usually
                // give them back (then due later) long before their leases end, and a worker
                // that died leaves them to whoever looks first once its leases end.
                if try store.dueCount(at: now, notHeldBy: name) > 0 {
                    sleep(seconds: 1)
                    continue
                }
                if exitWhenIdle { break }
                let next = try store.nextLeasableAt(now: now)
                let wait = next.map { $0.secondsSince1970 - now.secondsSince1970 } ?? Int64(longestSleepSeconds)
                sleep(seconds: Int(min(max(wait, 1), Int64(longestSleepSeconds))))
                continue
            }
            let ids = Set(leased.map(\.id))
            let done = try runner.run(.leased(ids), in: workspace, progress: progress)
            summary.reports += done.reports
            // Sources the sources file does not list are not fetched (as on SQLite): their
            // leases are kept until they end, so the worker does not take them again at once.
            let fetched = Set(done.reports.map(\.sourceID))
            try store.releaseLeases(worker: name, sources: leased.map(\.id).filter { fetched.contains($0) })
        }
        return summary
    }

    /// Sleeps, waking every 100 ms to see whether it is asked to stop.
    func sleep(seconds: Int) {
        let end = Date().addingTimeInterval(Double(seconds))
        while !stopRequested() && Date() < end { usleep(100_000) }
    }
}

public enum WorkerError: Error, LocalizedError {
    case needsPostgres

    public var errorDescription: String? {
        "--worker needs a PostgreSQL database the workers share (--database postgres://user@host:port/db or FEEDS_DATABASE)"
    }
}
