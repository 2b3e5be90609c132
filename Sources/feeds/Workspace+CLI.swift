import Aggregator
import FeedModel
import Fetching
import Foundation

extension GlobalOptions {
    /// Where the files are: `--home`/FEEDS_HOME, else XDG.
    func paths() throws -> FeedsPaths {
        try FeedsPaths.resolve(home: home, environment: ProcessInfo.processInfo.environment)
    }

    func workspace() throws -> Workspace {
        try Workspace(paths: paths(), now: UpdateRunner.systemClock())
    }
}

enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// `2026-11-29 17:42`, UTC.
    static func time(_ t: Timestamp?) -> String {
        guard let t else { return "-" }
        let c = t.components
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }
}
