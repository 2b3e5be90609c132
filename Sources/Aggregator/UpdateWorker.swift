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
    /// Told when the sources file changed and was read again between batches (its lines that
    /// do not read, or why it could not be read: then the last list stays in use).
    public var sourcesFileReread: (_ problems: [SourcesListing.Problem], _ error: Error?) -> Void = { _, _ in }

    /// Leases of a source in a row that ended while a worker was reading it (`leaseTakeovers`)
    /// after which it is quarantined. One is a worker that crashed or was killed: the source is
    /// then fetched in a process of its own (as SQLite's runs do after a crash), where a crash
    /// is only its own failure. Three means workers keep dying even so: it is backed off as a
    /// failure too, so it cannot take the workers down in turn.
    public static let quarantineTakeovers = 3

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
            // A failure here leaves them to their deadline, which gives them to another worker.
            _ = try? store.releaseLeases(worker: name, sources: nil)
        }
        var runner = runner
        runner.sharedHosts = SharedHosts(state: store, worker: name,
                                         slotSeconds: Int(runner.limits.totalTimeout.components.seconds).saturatingAdd(10))
        var summary = UpdateSummary()
        var fileSeen = Self.signature(of: workspace.paths.sourcesFile)
        while !stopRequested() {
            // Between batches, as every cron run does at its start: lines added or deleted count
            // from the next batch on, without a restart.
            let fileNow = Self.signature(of: workspace.paths.sourcesFile)
            if fileNow != fileSeen {
                do {
                    try workspace.reload(now: runner.clock())
                    fileSeen = fileNow
                    sourcesFileReread(workspace.problems, nil)
                } catch {
                    sourcesFileReread([], error)
                }
            }
            let now = runner.clock()
            var leased = try store.leaseDueSources(batch: batch, leaseSeconds: leaseSeconds, worker: name, now: now)
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
                sleep(seconds: Int(min(max(wait, 1), Int64(longestSleepSeconds))), orUntilChanged: (workspace.paths.sourcesFile, fileSeen))
                continue
            }
            let quarantined = try isolateTakenOver(&leased, in: workspace, store: store, now: now)
            for report in quarantined { summary.add(report, keeping: runner.keepsReports); progress(report, summary.sources, summary.sources) }
            // The batch's reports are kept (a hundred or so): they say which leases to give back.
            var batchRunner = runner
            batchRunner.keepsReports = true
            let done = try batchRunner.run(.leased(leased), in: workspace, progress: progress)
            summary.add(done, keeping: runner.keepsReports)
            // Sources the sources file does not list are not fetched (as on SQLite): their
            // leases are kept until they end, so the worker does not take them again at once.
            let fetched = Set(done.reports.map(\.sourceID) + quarantined.map(\.sourceID))
            try store.releaseLeases(worker: name, sources: (leased.map(\.id) + quarantined.map(\.sourceID)).filter { fetched.contains($0) })
        }
        return summary
    }

    /// The leased sources whose reading mark was still set: the worker before this one stopped
    /// while reading them (a crash or a kill). Each is fetched in a process of its own this
    /// time (`isolatedReason`, until a fetch of it succeeds), and one taken over so
    /// `quarantineTakeovers` times in a row is not fetched at all: a failure with backoff, its
    /// lease given back. Returns the reports of those, and takes them out of `leased`.
    func isolateTakenOver(_ leased: inout [StoredSource], in workspace: Workspace, store: PostgresStore, now: Timestamp) throws -> [SourceReport] {
        let suspects = leased.filter { $0.readingSince != nil }
        guard !suspects.isEmpty else { return [] }
        let takeovers = try store.leaseTakeovers(of: suspects.map(\.id))
        var reports: [SourceReport] = []
        for suspect in suspects {
            guard let index = leased.firstIndex(where: { $0.id == suspect.id }) else { continue }
            let count = takeovers[suspect.id] ?? 0
            let reason = "a worker stopped while reading it (\(now.iso8601)): a crash or a kill"
            guard count >= Self.quarantineTakeovers, let entry = try workspace.entries.first(where: { $0.url == suspect.configuration.url }) else {
                // A source the file does not list is not fetched anyway; its mark is cleared all the same.
                try? store.isolate(sourceID: suspect.id, reason: leased[index].isolatedReason ?? reason)
                leased[index].isolatedReason = leased[index].isolatedReason ?? reason
                leased[index].readingSince = nil
                continue
            }
            var report = SourceReport(sourceID: suspect.id, name: suspect.displayName, url: entry.url, outcome: .notModified,
                                      note: nil, warnings: [])
            runner.recordFailure(UpdateRunner.running((entry, suspect)), "quarantined: \(count) workers in a row stopped while reading this source (a crash or a "
                                 + "kill; their logs say which); not fetched until after backoff, then alone in a process of its own",
                                 report: &report, store: store, now: now)
            try? store.isolate(sourceID: suspect.id, reason: "quarantined after \(count) workers in a row stopped while reading it (\(now.iso8601))")
            reports.append(report)
            leased.remove(at: index)
        }
        return reports
    }

    /// What says the sources file changed: its modification time, size and inode (an editor's
    /// rename makes a new one); nil when it cannot be read.
    static func signature(of path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_size), Int64(info.st_ino)]
    }

    /// Sleeps, waking every 100 ms to see whether it is asked to stop, and once a second (when
    /// given a file and what it was) to see whether the sources file changed.
    func sleep(seconds: Int, orUntilChanged file: (path: String, seen: [Int64]?)) {
        let end = Date().addingTimeInterval(Double(seconds))
        var ticks = 0
        while !stopRequested() && Date() < end {
            usleep(100_000)
            ticks += 1
            if ticks % 10 == 0 && Self.signature(of: file.path) != file.seen { return }
        }
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
