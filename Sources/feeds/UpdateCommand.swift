import Aggregator
import FeedModel
import Fetching
import Storage
import Foundation

/// `feeds update`: polls due sources (or all, or the named ones), cron-safe.
enum UpdateCommand: Command {
    static let name = "update"
    static let summary = "fetch the sources that are due and save their new cards"
    static let help = """
    usage: feeds update [--all] [--wait] [--verbose] [limits] [NAME|URL ...]
           feeds --database URL update --worker [--batch N] [--exit-when-idle] [limits]

    Fetches the sources whose next-due time has passed, concurrently and politely, and saves
    their cards. Names (display name or URL as in the sources file) poll just those sources.
    Safe under cron: when another update is running, prints one line and exits with status 0.
    Quiet when standard output is not a terminal: only failures, one line each on standard error.

    On PostgreSQL (--database URL or FEEDS_DATABASE), any number of updates and workers on
    any number of machines share the sources: each leases a batch of due sources, fetches and
    saves them, and gives them back; a source is never fetched by two at once.

    options:
      --all                  poll every enabled source, whatever the schedule
      --worker               (PostgreSQL) keep updating: lease a batch of due sources, update
                             them, repeat; sleep until the next is due; SIGTERM or SIGINT ends
                             it after the batch it is on, its leases given back
      --batch N              sources a worker leases at once (default 100)
      --exit-when-idle       end the worker once no source is due
      --wait                 wait for a running update to finish instead of exiting
      --verbose, -v          print the summary line (always printed on a terminal)
      --images               then download the images of the last 7 days' cards for 'feeds html'
      --jobs N               transfers at once (default 480)
      --per-host N           at most N transfers at once to one host (default 24): each host
                             starts at 6 (or N when lower) or where the last update left it,
                             gains one for each fast, healthy answer and is halved on 429/503,
                             timeouts and connection errors
      --timeout SECONDS      time allowed for one transfer (default 30)
      --connect-timeout S    time allowed to connect (default 10)
      --max-size BYTES       largest feed, compressed and decompressed (default 32 MiB; K/M suffix)
      --allow-internal       let redirects, images and preview pages reach loopback, private
                             and link-local addresses (your own network) on any site; without
                             it only a source's own site (scheme, host, port) may be on one,
                             checked on the address connected to (through a proxy
                             from the environment: on addresses written in the URL)

    A line of the sources file that does not read is reported (file:line and why) and skipped:
    the other sources are updated and the status is 1. No sources file, or one listing no
    source, is said with where it was looked for and the status is 2.

    exit status: 0 all sources ok, 1 some source failed or a line was skipped, 2 usage or
    configuration error (no sources)
    """
    /// `--isolated-child ID` is not for people: it is how an update runs one isolated source in a
    /// process of its own (see `IsolatedFetch`); not in the help.
    static let spec = Arguments.Spec(valued: ["--jobs", "--per-host", "--timeout", "--connect-timeout", "--max-size", "--isolated-child",
                                              "--batch"],
                                     flags: ["--all", "--wait", "--verbose", "-v", "--images", "--allow-internal", "--worker",
                                             "--exit-when-idle"])

    /// Options the child of an isolated fetch gets from its parent, as given.
    static let forwarded = ["--timeout", "--connect-timeout", "--max-size"]

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        if let id = args.value("--isolated-child") { return try runIsolatedChild(id, args, global: global) }
        let all = args.flag("--all")
        if all && !args.positionals.isEmpty { throw UsageError("--all and source names do not go together", command: name) }
        let limits = try fetchLimits(args)
        let worker = args.flag("--worker")
        if !worker, args.flag("--exit-when-idle") || args.value("--batch") != nil {
            throw UsageError("--batch and --exit-when-idle are options of --worker", command: name)
        }
        if worker && (all || !args.positionals.isEmpty) { throw UsageError("--worker takes no --all and no source names", command: name) }
        if worker && global.database == nil { throw UsageError(WorkerError.needsPostgres.errorDescription ?? "", command: name) }
        // On PostgreSQL an update of the due sources is a worker that ends when none is left:
        // leases keep it apart from the others, so it needs no lock of the home.
        if global.database != nil && (worker || (!all && args.positionals.isEmpty)) {
            return try runWorker(args, global: global, limits: limits, exitWhenIdle: !worker || args.flag("--exit-when-idle"))
        }
        let paths = try global.paths()
        let started = UpdateRunner.systemClock()
        guard let lock = try RunLock.acquire(path: paths.lockFile, wait: args.flag("--wait"), now: started) else {
            return overlapping(lockFile: paths.lockFile, now: started, limits: limits)
        }
        defer { withExtendedLifetime(lock) {} }
        ProcessMemory.tuneForUpdate()
        // libcurl loads while the sources and the database are read: -10 to -20 ms before the
        // first request (an all-304 pass of 5,000 feeds takes ~0.6 s).
        Fetcher.loadLibraryInBackground()
        // Once `runLocked` has returned or thrown, every connection of the run is closed (the
        // workspace went with it): the logs kept for the next update, the cards' and the search
        // index's, are emptied (`KeptLog`).
        defer {
            if global.database == nil {
                KeptLog.clear(databasePath: paths.database)
                KeptLog.clear(databasePath: SearchIndexer.path(forStore: paths.database))
            }
        }
        return try runLocked(args, global: global, limits: limits, all: all)
    }

    /// An update of this home's SQLite database (or of named sources on PostgreSQL), under
    /// the home's lock.
    private static func runLocked(_ args: Arguments, global: GlobalOptions, limits: FetchLimits, all: Bool) throws -> ExitStatus {
        let workspace = try global.workspace(problems: .errors)
        if try workspace.entries.isEmpty { return nothingToUpdate(workspace) }
        var runner = updateRunner(args, global: global, limits: limits)
        // What a report says is printed as it comes (below); the end prints only the counts.
        runner.keepsReports = false
        let selection: UpdateSelection = all ? .all : args.positionals.isEmpty ? .due : .named(args.positionals)
        let interactive = Terminal.stdoutIsTTY
        let verbose = args.flag("--verbose") || args.flag("-v") || interactive
        let bar = interactive && Terminal.stderrIsTTY
        let summary = try runner.run(selection, in: workspace) { report, done, total in
            if bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if let line = report.failureLine { Diagnostics.error(line) }
            if let note = report.note { Diagnostics.warning(note) }
            for note in report.limitNotes { Diagnostics.warning(note) }
            if verbose { for w in report.warnings { Diagnostics.warning("\(report.name): \(w)") } }
            if bar { FileHandle.standardError.write(Data(progressBar(done, total).utf8)) }
        }
        if bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if verbose { Output.standard.line(summary.line) }
        if args.flag("--images") {
            let now = UpdateRunner.systemClock()
            let images = try ImageDownloads.run(workspace, since: Timestamp(secondsSince1970: now.secondsSince1970 - 7 * 86_400), now: now,
                                                allowInternal: limits.allowInternalAddresses)
            if verbose { Output.standard.line(ImageDownloads.line(images)) }
        }
        return summary.failed > 0 || !workspace.problems.isEmpty ? .someFailed : .ok
    }

    /// The runner both a run and a worker use: the limits, crash isolation and the test trap.
    static func updateRunner(_ args: Arguments, global: GlobalOptions, limits: FetchLimits) -> UpdateRunner {
        var runner = UpdateRunner(limits: limits)
        runner.isolation = isolation(args, global: global, limits: limits)
        runner.whileReading = testTrap
        return runner
    }

    /// `--worker` (or an update of the due sources on PostgreSQL): batches leased, updated and
    /// given back until SIGTERM, SIGINT or, with `exitWhenIdle`, no source is due.
    static func runWorker(_ args: Arguments, global: GlobalOptions, limits: FetchLimits, exitWhenIdle: Bool) throws -> ExitStatus {
        var batch = 100
        if let text = args.value("--batch") {
            guard let n = Int(text), n > 0, n <= PostgresStore.largestBatch else {
                throw UsageError("--batch needs a whole number from 1 to \(PostgresStore.largestBatch), got '\(text)'", command: name)
            }
            batch = n
        }
        WorkerSignals.install()
        ProcessMemory.tuneForUpdate()
        let workspace = try global.workspace(problems: .errors)
        if try workspace.entries.isEmpty { return nothingToUpdate(workspace) }
        var runner = updateRunner(args, global: global, limits: limits)
        // A worker runs for days: it counts its batches' reports, printed as they come.
        runner.keepsReports = false
        let verbose = args.flag("--verbose") || args.flag("-v") || Terminal.stdoutIsTTY
        var worker = UpdateWorker(runner: runner, name: UpdateWorker.defaultName, batch: batch, exitWhenIdle: exitWhenIdle,
                                  leaseSeconds: UpdateWorker.leaseSeconds(batch: batch, limits: limits),
                                  stopRequested: { WorkerSignals.stopRequested })
        worker.sourcesFileReread = { problems, error in
            if let error {
                Diagnostics.error("could not read \(workspace.paths.sourcesFile) again: \(CLI.describe(error)); the sources listed before stay in use")
                return
            }
            if verbose { Diagnostics.warning("\(workspace.paths.sourcesFile) changed: read again, \((try? workspace.entries)?.count ?? 0) sources") }
            for problem in problems { Diagnostics.error(CLI.describe(problem.error) + " (this line is skipped until it is fixed)") }
        }
        let summary = try worker.run(in: workspace) { report, _, _ in
            if let line = report.failureLine { Diagnostics.error(line) }
            if let note = report.note { Diagnostics.warning(note) }
            for note in report.limitNotes { Diagnostics.warning(note) }
            if verbose { for w in report.warnings { Diagnostics.warning("\(report.name): \(w)") } }
        }
        if verbose { Output.standard.line(summary.line) }
        // What a worker costs the database per source (bench/workers.sh reads this line).
        if ProcessInfo.processInfo.environment["FEEDS_COUNT_STATEMENTS"] == "1", let store = workspace.postgres {
            let sources = summary.sources
            let per = sources == 0 ? "-" : String(format: "%.1f", Double(store.statementsSent) / Double(sources))
            Diagnostics.error("statements: \(store.statementsSent) for \(sources) sources (\(per) a source)")
        }
        return summary.failed > 0 || !workspace.problems.isEmpty ? .someFailed : .ok
    }

    /// No source to update is a configuration error, never a quiet success: a cron job with a
    /// wrong home or a deleted sources file would otherwise look healthy for ever.
    static func nothingToUpdate(_ workspace: Workspace) -> ExitStatus {
        let file = workspace.paths.sourcesFile
        let how = "add one with 'feeds add URL' or 'feeds import FILE.opml' (or give --home DIR / FEEDS_HOME if it lives elsewhere)"
        if !workspace.sourcesFileExists {
            Diagnostics.error("no sources file at \(file): nothing to update; \(how)")
        } else if workspace.problems.isEmpty {
            Diagnostics.error("\(file) lists no sources: nothing to update; \(how)")
        } else {
            Diagnostics.error("no line of \(file) reads (see above): nothing to update; fix the lines, or \(how)")
        }
        return .usage
    }

    /// Another run holds the lock: one line and status 0, the cron-safe answer, unless that run
    /// has gone on longer than its limits allow. Then it is stuck (or something else holds the
    /// lock), and saying so on standard error with status 1 makes cron mail it instead of
    /// every later run doing nothing in silence.
    static func overlapping(lockFile: String, now: Timestamp, limits: FetchLimits) -> ExitStatus {
        let holder = RunLock.holder(path: lockFile)
        let bound = RunLock.stuckBound(transferTimeoutSeconds: Double(limits.totalTimeout.components.seconds))
        guard let holder, holder.isStuck(now: now, bound: bound) else {
            Output.standard.line("feeds: another update is running (lock \(lockFile)); not starting a second one")
            return .ok
        }
        let minutes = (now.secondsSince1970 - holder.since.secondsSince1970) / 60
        let alive = kill(holder.pid, 0) == 0 || errno == EPERM
        Diagnostics.error("the update holding \(lockFile) started \(Terminal.time(holder.since)) (\(minutes) minutes ago, "
                          + "longer than a run takes: \(bound / 60) minutes at most) and "
                          + (alive ? "is still running as pid \(holder.pid): it looks stuck; see what it is doing or stop it (kill \(holder.pid))"
                                   : "its pid \(holder.pid) is gone: another process holds the lock (see fuser \(lockFile))")
                          + "; nothing was updated")
        return .someFailed
    }

    /// The child of an isolated fetch: its bounds first, then the one source, without the lock
    /// (the parent holds it), its report as one JSON line on standard output.
    static func runIsolatedChild(_ text: String, _ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard let id = Int64(text), id > 0 else { throw UsageError("--isolated-child needs a source id", command: name) }
        ChildLimits.apply()
        ProcessMemory.tuneForUpdate()
        let workspace = try global.workspace(problems: .silent)  // the parent reports them
        var runner = UpdateRunner(limits: try fetchLimits(args))
        runner.whileReading = testTrap
        let summary = try runner.run(.isolatedChild(SourceID(rawValue: id)), in: workspace)
        for report in summary.reports { Output.standard.line(ChildReport(report).line) }
        return summary.failed > 0 ? .someFailed : .ok
    }

    /// Debug builds only: a trap while reading a source whose URL contains
    /// FEEDS_TEST_TRAP_READING, for the tests of what the next run does after a crash.
    static var testTrap: (@Sendable (SourceEntry) -> Void)? {
        #if DEBUG
        if let marker = ProcessInfo.processInfo.environment["FEEDS_TEST_TRAP_READING"], !marker.isEmpty {
            return { entry in if entry.url.contains(marker) { fatalError("test trap while reading \(entry.url)") } }
        }
        #endif
        return nil
    }

    /// How this run fetches isolated sources: this executable again, with the same home and limits.
    static func isolation(_ args: Arguments, global: GlobalOptions, limits: FetchLimits) -> IsolatedFetch? {
        guard let executable = Bundle.main.executablePath else { return nil }
        var base: [String] = global.home.map { ["--home", $0] } ?? []
        if let database = global.database { base += ["--database", database] }
        base.append("update")
        for option in forwarded { if let value = args.value(option) { base += [option, value] } }
        if args.flag("--allow-internal") { base.append("--allow-internal") }
        let prefix = base
        // The transfer's own time, then as long again for parsing and saving.
        let seconds = Double(limits.totalTimeout.components.seconds) * 2 + 30
        return IsolatedFetch(executable: executable, arguments: { prefix + ["--isolated-child", String($0.rawValue)] },
                             timeoutSeconds: seconds)
    }

    /// SIGTERM and SIGINT ask a worker to stop after its batch (its leases given back).
    enum WorkerSignals {
        nonisolated(unsafe) static var flag: sig_atomic_t = 0
        static var stopRequested: Bool { flag != 0 }

        static func install() {
            signal(SIGTERM) { _ in WorkerSignals.flag = 1 }
            signal(SIGINT) { _ in WorkerSignals.flag = 1 }
        }
    }

    static func progressBar(_ done: Int, _ total: Int) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
    }

    static func fetchLimits(_ args: Arguments) throws -> FetchLimits {
        // Per host the limit adapts (see HostConcurrency): it starts at 6, what browsers open to
        // one server, and grows while the host keeps answering fast, to 24 at most, so a hub
        // serving many feeds is polled in a few round trips yet never hit with all its feeds at
        // once. Overall 480 (20 such hosts at their ceiling): transfers that bring bodies are held
        // back by the update's buffered-bytes bound (`UpdateRunner.maxBufferedBytes`), so this
        // counts for answers without one, a pass of 304s: 5,000 feeds on 20 hosts at 50 ms of
        // latency took 8.2 s at 32 at once, 1.4 s at 480 (each transfer ~19 KB of memory).
        var limits = FetchLimits(userAgent: "feeds/\(Version.string) (feed reader; libcurl)",
                                 maxInFlight: 480, maxPerHost: 24, perHostStart: 6)
        func number(_ option: String) throws -> Double? {
            guard let text = args.value(option) else { return nil }
            // At most a billion: `--timeout 1e300` would trap when made milliseconds.
            guard let value = Double(text), value > 0, value <= 1_000_000_000 else {
                throw UsageError("\(option) needs a positive number (at most 1000000000), got '\(text)'", command: name)
            }
            return value
        }
        if let n = try number("--jobs") { limits.maxInFlight = Int(n) }
        if let n = try number("--per-host") { limits.maxPerHost = Int(n) }
        if let s = try number("--timeout") { limits.totalTimeout = .milliseconds(Int64(s * 1000)) }
        if let s = try number("--connect-timeout") { limits.connectTimeout = .milliseconds(Int64(s * 1000)) }
        if let text = args.value("--max-size") {
            let units: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30]
            var digits = Substring(text)
            var factor = 1
            if let last = text.last, let f = units[last] { factor = f; digits = digits.dropLast() }
            guard let n = Int(digits), n > 0, n <= Int.max / factor else { throw UsageError("--max-size needs a size like 10M, got '\(text)'", command: name) }
            limits.maxBodyBytes = n * factor
            limits.maxWireBytes = n * factor
        }
        limits.allowInternalAddresses = args.flag("--allow-internal")
        return limits
    }
}
