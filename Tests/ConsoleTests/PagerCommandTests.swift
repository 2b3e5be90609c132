import Foundation
import XCTest
@testable import Console

/// How `$PAGER` is read, and what `DeliveredWrite` counts as delivered through a real pipe.
final class PagerCommandTests: XCTestCase {
    func testPagerCommandFromTheEnvironment() {
        XCTAssertEqual(Pager.command(environment: [:]), ["less", "-R"], "unset: less -R")
        XCTAssertNil(Pager.command(environment: ["PAGER": ""]), "empty: no pager")
        XCTAssertNil(Pager.command(environment: ["PAGER": "  \t "]), "blanks: no pager")
        XCTAssertEqual(Pager.command(environment: ["PAGER": "less -RS"]), ["less", "-RS"])
        XCTAssertEqual(Pager.command(environment: ["PAGER": " more\t-d  "]), ["more", "-d"])
        XCTAssertEqual(Pager.command(environment: ["PAGER": "/usr/bin/less"]), ["/usr/bin/less"])
        for shell in ["less -R | cat", "LESS=X less", "less '-R'", "$HOME/bin/pager", "less; rm x", "pager \"a b\""] {
            XCTAssertEqual(Pager.command(environment: ["PAGER": shell]), ["/bin/sh", "-c", shell], shell)
        }
    }

    func testLessGetsColorsWhenLESSIsUnset() {
        XCTAssertEqual(Pager.environment(["A": "1"])["LESS"], "R")
        XCTAssertEqual(Pager.environment(["LESS": "-X"])["LESS"], "-X", "a person's LESS is kept")
    }

    func testAScreenfulNeedsThePager() {
        XCTAssertTrue(Pager.needed(lines: 24, rows: 24))
        XCTAssertFalse(Pager.needed(lines: 23, rows: 24))
    }

    func testDeliveredCountsWhatAPipesReaderTook() throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        let bytes = [UInt8](repeating: 0x61, count: 10_000)
        // The reader takes 3,000 bytes, then goes away: the other 7,000 sat in the pipe unread.
        let readEnd = ends[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 3_000)
            var got = 0
            while got < 3_000 { let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, 3_000 - got) }; if n <= 0 { break }; got += n }
            close(readEnd)
        }
        reader.start()
        let outcome = DeliveredWrite.write(bytes, to: ends[1], settle: true)
        close(ends[1])
        XCTAssertEqual(outcome.delivered, 3_000)
        XCTAssertTrue(outcome.closedEarly)
        XCTAssertNil(outcome.error)
    }

    func testAStartedChildGetsItsExitStatusAndAMissingOneIsNotFound() throws {
        XCTAssertEqual(try ChildProcess(["/bin/sh", "-c", "exit 3"]).wait(), 3)
        XCTAssertEqual(try ChildProcess(["sh", "-c", "kill -TERM $$"]).wait(), 128 + SIGTERM, "found on PATH; killed by a signal")
        XCTAssertThrowsError(try ChildProcess(["no-such-program-here"])) { error in
            XCTAssertEqual(error as? SpawnError, .notFound("no-such-program-here"))
        }
    }

    func testAForegroundChildGetsCtrlCWhileWeIgnoreIt() throws {
        // Ctrl-C reaches the whole foreground group: here the child sends it to us, then to itself.
        XCTAssertEqual(try ChildProcess.runInForeground(["/bin/sh", "-c", "kill -INT $PPID; kill -INT $$; sleep 5"]), 128 + SIGINT)
        var now = sigaction()
        sigaction(SIGINT, nil, &now)
        XCTAssertNotEqual(unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self), unsafeBitCast(SIG_IGN, to: Int.self),
                          "our SIGINT disposition is back")
    }

    func testTheChildStaysInOurProcessGroupWithDefaultSignals() throws {
        // Ignored here (as feeds ignores SIGPIPE), the child must still get the default back.
        let saved = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, saved) }
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        let child = try ChildProcess(["/bin/sh", "-c", "cut -d' ' -f5 /proc/$$/stat >&0; grep SigIgn /proc/$$/status >&0"], stdin: ends[1])
        close(ends[1])
        XCTAssertEqual(child.wait(), 0)
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = read(ends[0], &buffer, buffer.count)
        close(ends[0])
        let lines = String(decoding: buffer[0..<max(0, n)], as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.first.map { $0.trimmingCharacters(in: .whitespaces) }, String(getpgrp()), "same process group")
        let ignored = lines.last.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) } ?? .max
        XCTAssertEqual(ignored & (1 << (UInt64(SIGPIPE) - 1)), 0, "SIGPIPE not ignored in the child")
    }
}
