import Aggregator
import FeedModel
import Fetching
import Foundation

/// `feeds update`: polls due sources (or all, or the named ones), cron-safe.
enum UpdateCommand: Command {
    static let name = "update"
    static let summary = "fetch the sources that are due and save their new cards"
    static let help = """
    usage: feeds update [--all] [--wait] [--verbose] [limits] [NAME|URL ...]

    Fetches the sources whose next-due time has passed, concurrently and politely, and saves
    their cards. Names (display name or URL as in the sources file) poll just those sources.
    Safe under cron: when another update is running, prints one line and exits with status 0.
    Quiet when standard output is not a terminal: only failures, one line each on standard error.

    options:
      --all                  poll every enabled source, whatever the schedule
      --wait                 wait for a running update to finish instead of exiting
      --verbose, -v          print the summary line (always printed on a terminal)
      --images               then download the images of the last 7 days' cards for 'feeds html'
      --jobs N               transfers at once (default 32)
      --per-host N           at most N transfers at once to one host (default 24): each host
                             starts at 6 (or N when lower), gains one for each fast, healthy
                             answer and is halved on 429/503, timeouts and connection errors
      --timeout SECONDS      time allowed for one transfer (default 30)
      --connect-timeout S    time allowed to connect (default 10)
      --max-size BYTES       largest feed, compressed and decompressed (default 32 MiB; K/M suffix)
      --allow-internal       let redirects, images and preview pages reach loopback, private
                             and link-local addresses (your own network) on any site; without
                             it only a source's own site (scheme, host, port) may be on one,
                             checked on the address connected to (through a proxy
                             from the environment: on addresses written in the URL)

    exit status: 0 all sources ok, 1 some source failed, 2 usage or configuration error
    """
    static let spec = Arguments.Spec(valued: ["--jobs", "--per-host", "--timeout", "--connect-timeout", "--max-size"],
                                     flags: ["--all", "--wait", "--verbose", "-v", "--images", "--allow-internal"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        let all = args.flag("--all")
        if all && !args.positionals.isEmpty { throw UsageError("--all and source names do not go together", command: name) }
        let limits = try fetchLimits(args)
        let paths = try global.paths()
        guard let lock = try RunLock.acquire(path: paths.lockFile, wait: args.flag("--wait")) else {
            print("feeds: another update is running (lock \(paths.lockFile)); not starting a second one")
            return .ok
        }
        defer { withExtendedLifetime(lock) {} }
        ProcessMemory.tuneForUpdate()
        let workspace = try global.workspace()
        let runner = UpdateRunner(limits: limits)
        let selection: UpdateSelection = all ? .all : args.positionals.isEmpty ? .due : .named(args.positionals)
        let interactive = Terminal.stdoutIsTTY
        let verbose = args.flag("--verbose") || args.flag("-v") || interactive
        let bar = interactive && Terminal.stderrIsTTY
        let summary = try runner.run(selection, in: workspace) { report, done, total in
            if bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if let line = report.failureLine { Diagnostics.error(line) }
            if let note = report.note { Diagnostics.warning(note) }
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
        return summary.failed > 0 ? .someFailed : .ok
    }

    static func progressBar(_ done: Int, _ total: Int) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
    }

    static func fetchLimits(_ args: Arguments) throws -> FetchLimits {
        // 32 overall keeps a 2-core machine busy parsing while the network waits. Per host the
        // limit adapts (see HostConcurrency): it starts at 6, what browsers open to one server,
        // and grows while the host keeps answering fast, to 24 at most, so a hub serving many
        // feeds is polled in a few round trips yet never hit with all its feeds at once.
        var limits = FetchLimits(userAgent: "feeds/\(Version.string) (feed reader; libcurl)",
                                 maxInFlight: 32, maxPerHost: 24, perHostStart: 6)
        func number(_ option: String) throws -> Double? {
            guard let text = args.value(option) else { return nil }
            guard let value = Double(text), value > 0 else { throw UsageError("\(option) needs a positive number, got '\(text)'", command: name) }
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
            guard let n = Int(digits), n > 0 else { throw UsageError("--max-size needs a size like 10M, got '\(text)'", command: name) }
            limits.maxBodyBytes = n * factor
            limits.maxWireBytes = n * factor
        }
        limits.allowInternalAddresses = args.flag("--allow-internal")
        return limits
    }
}
