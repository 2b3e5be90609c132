import FeedModel
import Foundation
import Storage
#if canImport(Glibc)
import Glibc
#endif

/// Fetching one source in a child process of `feeds` itself, with bounds of its own: a Swift
/// runtime trap, an allocation that fails or a parser that runs away can not be caught inside
/// a process, but in a child they end only the child, and the run goes on and records the
/// source's failure. Used for the sources that stopped a run or exceeded a limit
/// (`StoredSource.isolatedReason`), after all the others, one at a time.
public struct IsolatedFetch: Sendable {
    /// The `feeds` executable.
    public var executable: String
    /// The child's arguments for a source: `--home DIR update --isolated-child ID ...`.
    public var arguments: @Sendable (SourceID) -> [String]
    /// Wall-clock time allowed to the child, after which it is killed.
    public var timeoutSeconds: Double

    /// Bounds the child sets on itself at once (`ChildLimits.apply`): address space and CPU time.
    public static let memoryBytes: UInt64 = 2 << 30
    public static let cpuSeconds: UInt64 = 120

    public init(executable: String, arguments: @escaping @Sendable (SourceID) -> [String], timeoutSeconds: Double) {
        self.executable = executable
        self.arguments = arguments
        self.timeoutSeconds = timeoutSeconds
    }

    /// How the child ended.
    public enum Ending: Sendable, Equatable {
        /// It exited by itself; `report` is the line it printed, when it printed one.
        case exited(status: Int32, report: ChildReport?, stderr: String)
        /// A signal ended it (a trap is SIGILL or SIGTRAP, a CPU limit SIGXCPU or SIGKILL).
        case signaled(Int32, stderr: String)
        case timedOut
        case couldNotStart(String)
    }

    /// Runs the child for `source` and waits for it (at most `timeoutSeconds`).
    public func run(_ source: SourceID) -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(source)
        var environment = ProcessInfo.processInfo.environment
        // The Swift runtime's backtracer would spend seconds symbolicating a crash: the crash
        // itself is what matters here.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        // Both pipes read while the child runs: one that fills a pipe would otherwise block.
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            DispatchQueue.global().async(group: readers) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOut: isOut)
            }
        }
        do { try process.run() } catch {
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            readers.wait()
            return .couldNotStart(error.localizedDescription)
        }
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        if done.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
            readers.wait()
            return .timedOut
        }
        readers.wait()
        let (stdout, stderr) = collected.both
        let errText = ChildReport.lastLines(stderr)
        if process.terminationReason == .uncaughtSignal {
            return .signaled(process.terminationStatus, stderr: errText)
        }
        return .exited(status: process.terminationStatus, report: ChildReport.decode(stdout), stderr: errText)
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data(), err = Data()
        func set(_ data: Data, isOut: Bool) {
            lock.lock(); defer { lock.unlock() }
            if isOut { out = data } else { err = data }
        }
        var both: (Data, Data) {
            lock.lock(); defer { lock.unlock() }
            return (out, err)
        }
    }
}

/// The one line a child prints on standard output: its source's report, as JSON.
public struct ChildReport: Sendable, Equatable {
    public var outcome: String
    public var new: Int
    public var updated: Int
    public var name: String
    public var message: String?
    public var note: String?
    public var warnings: [String]

    public init(_ report: SourceReport) {
        switch report.outcome {
        case .saved(let n, let u): (outcome, new, updated, message) = ("saved", n, u, nil)
        case .notModified: (outcome, new, updated, message) = ("notModified", 0, 0, nil)
        case .failed(let m): (outcome, new, updated, message) = ("failed", 0, 0, m)
        case .disabled(let m): (outcome, new, updated, message) = ("disabled", 0, 0, m)
        }
        name = report.name
        note = report.note
        warnings = report.warnings
    }

    public var line: String {
        var object: [String: Any] = ["outcome": outcome, "new": new, "updated": updated, "name": name, "warnings": warnings]
        if let message { object["message"] = message }
        if let note { object["note"] = note }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The report in the child's output (its last line), nil when there is none.
    static func decode(_ data: Data) -> ChildReport? {
        guard data.count <= 1 << 20,
              let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
              let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
              let outcome = object["outcome"] as? String, let name = object["name"] as? String
        else { return nil }
        var r = ChildReport(SourceReport(sourceID: SourceID(rawValue: 0), name: name, url: "", outcome: .notModified,
                                         note: object["note"] as? String, warnings: object["warnings"] as? [String] ?? []))
        r.outcome = outcome
        r.new = (object["new"] as? Int) ?? 0
        r.updated = (object["updated"] as? Int) ?? 0
        r.message = object["message"] as? String
        return r
    }

    var outcomeValue: SourceReport.Outcome {
        switch outcome {
        case "saved": return .saved(new: new, updated: updated)
        case "notModified": return .notModified
        case "disabled": return .disabled(message ?? "disabled")
        default: return .failed(message ?? "failed")
        }
    }

    /// What a crashed child said last (the runtime's "Fatal error: ..." line, say), as one line
    /// of printable ASCII, short.
    static func lastLines(_ data: Data) -> String {
        let text = String(decoding: data.suffix(4096), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let chosen = lines.last(where: { $0.contains("Fatal error") || $0.contains("error:") }) ?? lines.last ?? ""
        let printable = chosen.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        return String(String.UnicodeScalarView(printable.prefix(200)))
    }
}

/// The bounds a child sets on itself before it reads anything.
public enum ChildLimits {
    public static func apply(memoryBytes: UInt64 = IsolatedFetch.memoryBytes, cpuSeconds: UInt64 = IsolatedFetch.cpuSeconds) {
        #if os(Linux)
        var memory = rlimit(rlim_cur: rlim_t(memoryBytes), rlim_max: rlim_t(memoryBytes))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        // SIGXCPU at the soft limit, SIGKILL a little later.
        var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 5))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        // No core files from a child that traps.
        var core = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &core)
        #endif
    }
}

/// A signal's name for a person.
func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGILL: return "SIGILL, a runtime trap"
    case SIGTRAP: return "SIGTRAP, a runtime trap"
    case SIGABRT: return "SIGABRT, an abort"
    case SIGSEGV: return "SIGSEGV, a bad memory access"
    case SIGBUS: return "SIGBUS, a bad memory access"
    case SIGKILL: return "SIGKILL, killed (a limit?)"
    case SIGXCPU: return "SIGXCPU, CPU time limit"
    default: return "signal \(signal)"
    }
}
