import Foundation
import TestSupport
import XCTest

/// A card becomes read only when all of it reached the reader: `feeds read | head -3` marks the
/// cards head read whole, not every card sent into the pipe; a write error on standard output
/// other than EPIPE is one line and status 1 for every command; EPIPE ends quietly.
final class DeliveredReadStateTests: XCTestCase {
    /// Runs `feeds ARGS` with standard output a pipe the test reads `take` bytes of (nil: all)
    /// before closing it. Returns the status, standard error and the bytes read.
    private func run(_ args: [String], home: CardHome, take: Int?) throws -> (status: Int32, stderr: String, read: Int) {
        let process = Process()
        process.executableURL = FeedsCommand.binary
        process.arguments = ["--home", home.path] + args
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "COLUMNS": "80"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Self.deadline(process)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 512)
        let fd = out.fileHandleForReading.fileDescriptor
        while take.map({ total < $0 }) ?? true {
            let n = read(fd, &buffer, min(buffer.count, take.map { $0 - total } ?? buffer.count))
            if n <= 0 { break }
            total += n
        }
        try out.fileHandleForReading.close()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self), total)
    }

    /// Kills `process` if it still runs after 30 s, so a hung feeds fails the test, not the suite.
    private static func deadline(_ process: Process) {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { kill(pid, SIGKILL) }
    }

    func testAReaderThatStopsEarlyGetsOnlyWhatItReadMarked() throws {
        // ~40 KB of digest: all of it fits in a pipe's 64 KiB buffer, so only waiting for the
        // reader (not the pipe accepting the bytes) tells what was delivered.
        let home = try CardHome(count: 200, words: 20)
        let r = try run(["read", "--unread"], home: home, take: 1_000)
        XCTAssertEqual(r.status, 0, "EPIPE ends quietly")
        XCTAssertEqual(r.stderr, "")
        let read = 200 - (try home.unreadCount())
        XCTAssertGreaterThanOrEqual(read, 1, "the first card was delivered whole")
        XCTAssertLessThanOrEqual(read, 6, "1,000 bytes hold a few cards, not 200")
    }

    func testAReaderThatReadsNothingGetsNothingMarked() throws {
        let home = try CardHome(count: 30)
        let r = try run(["read"], home: home, take: 0)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(try home.unreadCount(), 30)
    }

    func testAReaderThatReadsAllGetsAllMarkedJSONToo() throws {
        let home = try CardHome(count: 30)
        XCTAssertEqual(try run(["read", "--limit", "10"], home: home, take: nil).status, 0)
        XCTAssertEqual(try home.unreadCount(), 20)
        let partial = try run(["read", "--json"], home: home, take: 2)
        XCTAssertEqual(partial.status, 0)
        XCTAssertEqual(try home.unreadCount(), 20, "'[\\n' holds no card")
        XCTAssertEqual(try run(["read", "--json"], home: home, take: nil).status, 0)
        XCTAssertEqual(try home.unreadCount(), 0)
    }

    func testWriteErrorsAreOneLineAndStatusOneForEveryCommand() throws {
        let home = try CardHome(count: 30)
        let feed = home.directory.file("feed.rss").path
        for args in [["parse", "--json", feed], ["parse", feed], ["read"], ["read", "--json"], ["read", "--brief"],
                     ["search", "river"], ["sources"], ["export"], ["--version"], ["--help"], ["help", "read"],
                     ["read", "--help"], ["mark", "read", "--all"]] {
            let process = Process()
            process.executableURL = FeedsCommand.binary
            process.arguments = ["--home", home.path] + args
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            let err = Pipe()
            process.standardError = err
            try process.run()
            Self.deadline(process)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1, "\(args): \(errors)")
            XCTAssertEqual(errors, "feeds: cannot write to standard output: No space left on device\n", "\(args)")
        }
        XCTAssertEqual(try home.unreadCount(), 0, "the last command, mark read --all, did its work")
        // ... and `read` to /dev/full marked nothing: checked on a fresh home.
        let fresh = try CardHome(count: 5)
        let process = Process()
        process.executableURL = FeedsCommand.binary
        process.arguments = ["--home", fresh.path, "read"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = FileHandle.nullDevice
        try process.run()
        Self.deadline(process)
        process.waitUntilExit()
        XCTAssertEqual(try fresh.unreadCount(), 5, "nothing written, nothing read")
    }

    func testEPIPEIsQuietForEveryCommand() throws {
        let home = try CardHome(count: 300, words: 20)
        let feed = home.directory.file("feed.rss").path
        for args in [["parse", "--json", feed], ["parse", feed], ["read", "--keep-unread"], ["search", "river"], ["read", "--brief"]] {
            let r = try run(args, home: home, take: 100)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", "\(args)")
        }
    }
}
