import Foundation
import TestSupport
import XCTest

/// The JSON reader's memory, measured as a person would meet it: the built `feeds parse` on a
/// large hostile document in a child process, its peak resident memory (`wait4`'s rusage) held
/// to a small multiple of the input. (JSONSerialization took 3.2 GB for 28 MB of nested arrays
/// in a JSON Feed, 4.3 GB for a 23 MB SearXNG answer of tiny objects; the tape reader ~120 MB.)
final class JSONMemoryTests: XCTestCase {
    /// Peak RSS allowed: this many times the input, plus the process's own baseline.
    private let multiple = 8
    private let baselineMB = 40

    /// Writes `head`, then `atom` joined by commas until `mb` MB, then `tail`.
    private func write(_ url: URL, head: String, atom: String, tail: String, mb: Int) throws -> Int {
        let target = mb << 20
        let count = (target - head.utf8.count - tail.utf8.count) / (atom.utf8.count + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(target + 16)
        bytes += Array(head.utf8)
        let piece = Array(atom.utf8)
        for i in 0..<count {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += piece
        }
        bytes += Array(tail.utf8)
        try Data(bytes).write(to: url)
        return bytes.count
    }

    /// Runs `feeds ARGS` with its output to /dev/null; its exit status, standard error and
    /// peak RSS in kB.
    private func runMeasured(_ arguments: [String], in dir: TemporaryDirectory) throws -> (status: Int32, stderr: String, maxRSSKB: Int) {
        let errPath = dir.file("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([FeedsCommand.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, FeedsCommand.binary.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, try String(contentsOfFile: errPath, encoding: .utf8), usage.ru_maxrss)
    }

    private func check(_ name: String, head: String, atom: String, tail: String, mb: Int = 24,
                       expectStatus: Int32, expectError: String?) throws {
        let dir = TemporaryDirectory("json-memory")
        let file = dir.file(name)
        let size = try write(file, head: head, atom: atom, tail: tail, mb: mb)
        XCTAssertGreaterThanOrEqual(size, 20 << 20)
        let r = try runMeasured(["parse", "--json", file.path], in: dir)
        XCTAssertEqual(r.status, expectStatus, "\(name): \(r.stderr)")
        if let expectError {
            XCTAssertEqual(r.stderr, "feeds: \(file.path): \(expectError)\n", name)
        }
        let limitKB = (multiple * size >> 10) + baselineMB << 10
        XCTAssertLessThan(r.maxRSSKB, limitKB, "\(name): peak \(r.maxRSSKB >> 10) MB for \(size >> 20) MB of input")
        XCTAssertGreaterThan(r.maxRSSKB, size >> 10, "\(name): the input itself is read")  // the measure measures something
    }

    func testJSONFeedOfNestedArraysStopsAtTheBudgetWithinBoundedMemory() throws {
        try check("nested.json", head: #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "x": ["#,
                  atom: "[[[[[[[[]]]]]]]]", tail: "]}]}", expectStatus: 2,
                  expectError: "not a valid JSON Feed: the JSON has more than 4194304 values")
    }

    func testSearXNGAnswerOfTinyObjectsStopsAtTheBudgetWithinBoundedMemory() throws {
        try check("searxng.json", head: #"{"query": "q", "results": [{"url": "https://a.example/"}], "infoboxes": ["#,
                  atom: #"{"a":[]}"#, tail: "]}", expectStatus: 2,
                  expectError: "not a valid JSON Feed: the JSON has more than 4194304 values")
    }

    /// Within the budget (2.6 million values): read whole, still within the bound.
    func testLargeDocumentWithinTheBudgetIsReadWithinBoundedMemory() throws {
        try check("within.json", head: #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": "one", "x": ["#,
                  atom: "1234567", tail: "]}]}", expectStatus: 0, expectError: nil)
    }
}
