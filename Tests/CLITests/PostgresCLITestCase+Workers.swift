import Foundation
import TestSupport
import XCTest

/// What the tests of `feeds update --worker` share: a home of loopback feeds, a number from
/// the database, a worker started as systemd would start one.
extension PostgresCLITestCase {
    /// `count` feeds of `items` items each on `site`, answered after `delay`, listed in a home.
    func home(_ site: LoopbackHTTPServer, count: Int, items: Int, delay: Duration = .milliseconds(50)) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("feeds-cli-workers")
        var lines = ""
        for n in 0..<count {
            let body = (0..<items).map { "<item><guid>f\(n)-\($0)</guid><title>Card \($0) of \(n)</title></item>" }.joined()
            var response = ScriptedResponse.text("<rss version=\"2.0\"><channel><title>Feed \(n)</title>\(body)</channel></rss>",
                                                 contentType: "application/rss+xml")
            response.delay = delay
            site.route("/f\(n).xml", response)
            lines += site.url("/f\(n).xml") + "\n"
        }
        try lines.write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        return dir
    }

    /// One number from the database, with psql.
    func number(_ database: String, _ sql: String) throws -> Int {
        let text = try psql(database, sql)
        guard let n = Int(text) else { throw PostgresServer.Failure.failed(step: "psql \(sql)", output: text) }
        return n
    }

    /// What psql prints for `sql` (unaligned, tuples only), trimmed.
    func psql(_ database: String, _ sql: String) throws -> String {
        guard let bin = PostgresServer.binaryFolder() else { throw XCTSkip("no psql") }
        let process = Process()
        process.executableURL = bin.appendingPathComponent("psql")
        process.arguments = ["-At", "-d", database, "-c", sql]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A worker as systemd would start one: its own process, output to files.
    func startWorker(_ dir: TemporaryDirectory, _ database: String, _ options: [String] = ["--exit-when-idle", "--batch", "4"],
                             tag: String, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = FeedsCommand.binary
        process.arguments = ["--home", dir.path, "--database", database, "update", "--worker", "--timeout", "2"] + options
        FileManager.default.createFile(atPath: dir.file("\(tag).err").path, contents: nil)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: dir.file("\(tag).err"))
        try process.run()
        return process
    }

    func wait(_ process: Process, seconds: Double = 60) {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        process.waitUntilExit()
    }
}
