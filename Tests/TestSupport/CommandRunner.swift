import Foundation

/// Runs the built `feeds` executable as a child process, the way a user or cron does.
public enum FeedsCommand {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The `feeds` binary next to the test bundle (SwiftPM puts both in the products folder).
    /// FEEDS_TEST_BINARY runs the tests against another build (the code before a fix, say).
    public static var binary: URL {
        if let other = ProcessInfo.processInfo.environment["FEEDS_TEST_BINARY"], !other.isEmpty { return URL(fileURLWithPath: other) }
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        let candidate = dir.appendingPathComponent("feeds")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/feeds")
    }

    /// Runs `feeds ARGS`, feeding `stdin`, with at most `timeout` seconds before it is killed.
    public static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                           timeout: TimeInterval = 30) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // Dates are local in the reader: tests see UTC unless they set TZ themselves.
        env["TZ"] = "UTC"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        // Read both pipes while the child runs, so a large output cannot fill a pipe and block it.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        group.enter(); DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter(); DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw NSError(domain: "FeedsCommand", code: 1, userInfo: [NSLocalizedDescriptionKey: "feeds \(arguments) ran longer than \(timeout) s"])
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
