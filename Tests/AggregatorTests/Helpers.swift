import Foundation
import TestSupport
import XCTest

/// The built `feeds` binary: next to the test bundle, else in .build/debug (`FeedsCommand.binary`,
/// as the CLI tests find it: the sanitizer builds run their own instrumented one).
func feedsBinary() throws -> URL {
    let binary = FeedsCommand.binary
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw XCTSkip("the feeds binary is not built (swift build --build-tests builds it)")
    }
    return binary
}

/// One run of the `feeds` binary.
final class CLIRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Runs `feeds ARGS` and waits (at most `timeout` seconds, then kills it and fails).
    static func run(_ args: [String], timeout: TimeInterval = 20, environment: [String: String] = [:]) throws -> CLIRun {
        let process = Process()
        process.executableURL = try feedsBinary()
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "FEEDS_HOME")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while it runs, so a full pipe never blocks it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            group.wait()
            XCTFail("feeds \(args.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        group.wait()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A small RSS 2.0 document.
func rss(_ title: String, items: [String], ttl: Int? = nil) -> String {
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>\(title)</title><link>https://example.test/</link>"
    if let ttl { s += "<ttl>\(ttl)</ttl>" }
    for item in items {
        s += "<item><title>\(item)</title><guid isPermaLink=\"false\">\(title)/\(item)</guid><link>https://example.test/\(item)</link></item>"
    }
    return s + "</channel></rss>\n"
}

extension TemporaryDirectory {
    func write(_ name: String, _ text: String) throws {
        try text.write(to: file(name), atomically: false, encoding: .utf8)
    }
}
