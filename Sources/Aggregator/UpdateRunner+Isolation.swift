import FeedModel
import Fetching
import Foundation
import Storage

// A crash must not repeat forever: a run that dies inside one source (a Swift trap, a failed
// allocation, a kill by a limit) leaves that source's reading mark in the store; the next run
// records it as that source's failure, backs it off, and from then on fetches it last, alone,
// in a child process with its own bounds (`IsolatedFetch`), so even a crash there is only that
// source's failure. A source that exceeded a limit is isolated the same way.
extension UpdateRunner {
    static let interruptedMessage = "the last update stopped while reading this source (a crash or a kill); it is fetched last and alone from now on"

    /// Records the sources the last run was reading when it stopped: a failure each (with
    /// backoff), isolated from now on. Returns their reports.
    func recordInterrupted(in workspace: Workspace) throws -> [SourceReport] {
        let store = workspace.updateStore
        let ids = Set(try store.interruptedSources())
        guard !ids.isEmpty else { return [] }
        let now = clock()
        var reports: [SourceReport] = []
        for source in try workspace.sources() where ids.contains(source.stored.id) {
            var report = SourceReport(sourceID: source.stored.id, name: source.stored.displayName, url: source.entry.url,
                                      outcome: .notModified, note: nil, warnings: [])
            recordFailure(Self.running(source), Self.interruptedMessage, report: &report, store: store, now: now)
            try? store.isolate(sourceID: source.stored.id, reason: "an update stopped while reading it (\(now.iso8601))")
            reports.append(report)
        }
        // A mark on a source no longer in the sources file: nothing to report, only to clear.
        for id in ids where !reports.contains(where: { $0.sourceID == id }) {
            try? store.isolate(sourceID: id, reason: "an update stopped while reading it (\(now.iso8601))")
        }
        return reports
    }

    /// The limit a fetch error says the source exceeded, as the reason to isolate it; nil for
    /// the other errors (a timeout is the network's doing, not the source's content).
    static func exceededLimit(_ error: FetchError) -> String? {
        switch error {
        case .bodyTooLarge(let limit, _): return "it exceeded the size limit (\(limit) bytes)"
        case .outOfMemory: return "it ran out of memory"
        default: return nil
        }
    }

    /// Fetches one isolated source in its child process and reports it. The child records its
    /// own outcome; when it dies or is killed, the failure is recorded here.
    func fetchIsolated(_ source: (entry: SourceEntry, stored: StoredSource), with isolation: IsolatedFetch,
                       store: any UpdateRunStore) -> SourceReport {
        var report = SourceReport(sourceID: source.stored.id, name: source.stored.displayName, url: source.entry.url,
                                  outcome: .notModified, note: nil, warnings: [])
        let ending = isolation.run(source.stored.id)
        let why: String
        switch ending {
        case .exited(_, let child?, _):
            report.name = child.name
            report.outcome = child.outcomeValue
            report.note = child.note
            report.warnings = child.warnings
            return report
        case .exited(let status, nil, let stderr):
            why = "its process of its own exited with status \(status) without a report" + (stderr.isEmpty ? "" : " (\(stderr))")
        case .signaled(let signal, let stderr):
            why = "it crashed its process of its own (\(signalName(signal)))" + (stderr.isEmpty ? "" : ": \(stderr)")
        case .timedOut:
            why = "its process of its own took longer than \(Int(isolation.timeoutSeconds)) s and was stopped"
        case .couldNotStart(let detail):
            why = "could not start a process of its own: \(detail)"
        }
        // The child may have recorded attempts: back off from the count the store holds now.
        var current = Self.running(source)
        if let fresh = try? store.source(id: source.stored.id) { current.stored = RunState(fresh) }
        recordFailure(current, why + "; it stays isolated and is retried after backoff", report: &report, store: store, now: clock())
        return report
    }
}
