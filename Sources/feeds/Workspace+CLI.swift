import Aggregator
import FeedModel
import Fetching
import Foundation

extension GlobalOptions {
    /// Where the files are: `--home`/FEEDS_HOME, else XDG.
    func paths() throws -> FeedsPaths {
        try FeedsPaths.resolve(home: home, environment: ProcessInfo.processInfo.environment)
    }

    /// The sources file and the database, each line of the file that does not read said on
    /// standard error (skipped, not fatal): as errors for `update` (which then exits 1), as
    /// warnings for the commands that go on reading.
    func workspace(problems: ProblemReport = .warnings) throws -> Workspace {
        let workspace = try Workspace(paths: paths(), database: database, now: UpdateRunner.systemClock())
        report(workspace, problems)
        return workspace
    }

    /// `workspace()` and its paired sources, read once (`Workspace.openListing`).
    func listingWorkspace(problems: ProblemReport = .warnings) throws -> (Workspace, PairedSources) {
        let (workspace, paired) = try Workspace.openListing(paths: paths(), database: database, now: UpdateRunner.systemClock())
        report(workspace, problems)
        return (workspace, paired)
    }

    private func report(_ workspace: Workspace, _ problems: ProblemReport) {
        for problem in workspace.problems {
            let line = CLI.describe(problem.error) + " (this line is skipped until it is fixed)"
            switch problems {
            case .warnings: Diagnostics.warning(line)
            case .errors: Diagnostics.error(line)
            case .silent: break
            }
        }
    }

    enum ProblemReport { case warnings, errors, silent }
}

enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// `2026-11-29 17:42`, UTC.
    static func time(_ t: Timestamp?) -> String {
        guard let t else { return "-" }
        return t.minuteText
    }

    /// `time(t)` appended to `sink` (`feeds sources` writes two a source on bytes).
    static func appendTime(_ t: Timestamp?, to sink: inout ByteSink) {
        guard let t else { return sink.append(UInt8(ascii: "-")) }
        t.appendMinuteText(to: &sink)
    }
}
