import Aggregator
import FeedModel
import Foundation
import TestSupport
import XCTest

/// Issue 15: a FIFO or a device as a local source (an imported OPML file can name one) hung
/// `feeds update --timeout 3` until killed, and every later run said "another update is
/// running" and exited 0. Local sources are read only when they are regular files (symlinks to
/// one included); the lock of a dead run is taken over; a run that finds the lock held longer
/// than a run can take says so (status 1) instead of exiting 0 in silence.
final class LocalSourceKindsTests: XCTestCase {
    private func mkfifo(_ path: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/mkfifo")
        p.arguments = [path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    func testOnlyRegularFilesAreReadAndTheRunFinishes() throws {
        let home = TemporaryDirectory()
        try home.write("real.rss", rss("Real", items: ["a", "b"]))
        try FileManager.default.createSymbolicLink(atPath: home.file("link.rss").path, withDestinationPath: home.file("real.rss").path)
        try mkfifo(home.file("pipe.rss").path)
        try FileManager.default.createDirectory(at: home.file("folder.rss"), withIntermediateDirectories: true)
        // A symlink to a FIFO is a FIFO too; devices of each kind; a socket is not creatable
        // here without binding one, the FIFO and the devices stand for the class.
        try FileManager.default.createSymbolicLink(atPath: home.file("pipe-link.rss").path, withDestinationPath: home.file("pipe.rss").path)
        let refused = ["pipe.rss": "a FIFO (named pipe)", "pipe-link.rss": "a FIFO (named pipe)", "/dev/zero": "a character device",
                       "/dev/tty": "a character device", "file:///dev/null": "a character device", "folder.rss": "a directory"]
        let lines = ["real.rss name=Real", "link.rss name=Link"] + refused.keys.sorted()
        try home.write("sources", lines.joined(separator: "\n") + "\n")
        let run = try CLIRun.run(["--home", home.path, "update", "--all", "--timeout", "3"], timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.count, refused.count, run.stderr)
        for (source, kind) in refused {
            XCTAssertTrue(run.stderrLines.contains { $0.contains(source.replacingOccurrences(of: "file://", with: "")) && $0.contains("it is \(kind), not a regular file") },
                          "\(source): \(run.stderr)")
        }
        let listed = try CLIRun.run(["--home", home.path, "sources"])
        XCTAssertTrue(listed.stdout.contains("Real\n  real.rss\n  cards 2"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Link\n  link.rss\n  cards 2"), listed.stdout)
        // The next run is not locked out: nothing was left holding the lock.
        let again = try CLIRun.run(["--home", home.path, "update", "--all", "--timeout", "3"], timeout: 20)
        XCTAssertFalse(again.stdout.contains("another update is running"), again.stdout)
        XCTAssertEqual(again.status, 1)
    }

    func testAFIFOAsASavedSearchsResponseFileIsRefusedToo() throws {
        let home = TemporaryDirectory()
        try mkfifo(home.file("answer.json").path)
        try home.write("sources", "search:searxng \"q\" endpoint=answer.json\n")
        let run = try CLIRun.run(["--home", home.path, "update", "--all", "--timeout", "3"], timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("it is a FIFO (named pipe), not a regular file"), run.stderr)
    }

    func testTheLockOfAKilledRunIsTakenOver() throws {
        let home = TemporaryDirectory()
        try home.write("real.rss", rss("Real", items: ["a"]))
        try home.write("sources", "real.rss\n")
        // Another process holds the lock, then dies by SIGKILL.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [home.file("feeds.lock").path, "sleep", "60"]
        try holder.run()
        var held = false
        for _ in 0..<200 where !held {
            held = (try RunLock.acquire(path: home.file("feeds.lock").path, wait: false)) == nil
            if !held { usleep(10_000) }
        }
        XCTAssertTrue(held, "flock(1) took the lock")
        let busy = try CLIRun.run(["--home", home.path, "update"], timeout: 10)
        XCTAssertTrue(busy.stdout.contains("another update is running"), busy.stdout)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let run = try CLIRun.run(["--home", home.path, "update", "-v"], timeout: 10)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("1 ok (1 new card)"), run.stdout)
    }

    func testALockHeldLongerThanARunTakesIsReported() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "")
        let lockPath = home.file("feeds.lock").path
        let now = Timestamp(secondsSince1970: Int64(Date().timeIntervalSince1970))
        // Held by this (live) process since three hours ago.
        var held: RunLock? = try XCTUnwrap(RunLock.acquire(path: lockPath, wait: false, now: Timestamp(secondsSince1970: now.secondsSince1970 - 3 * 3600)))
        XCTAssertEqual(RunLock.holder(path: lockPath), RunLock.Holder(pid: getpid(), since: Timestamp(secondsSince1970: now.secondsSince1970 - 3 * 3600)))
        let stuck = try CLIRun.run(["--home", home.path, "update"], timeout: 10)
        XCTAssertEqual(stuck.status, 1, stuck.stdout + stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("180 minutes ago"), stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("is still running as pid \(getpid()): it looks stuck"), stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("nothing was updated"), stuck.stderr)
        withExtendedLifetime(held) {}
        // Held since a minute ago: an ordinary overlap, one line, status 0.
        held = nil
        held = try XCTUnwrap(RunLock.acquire(path: lockPath, wait: false, now: Timestamp(secondsSince1970: now.secondsSince1970 - 60)))
        let overlap = try CLIRun.run(["--home", home.path, "update"], timeout: 10)
        XCTAssertEqual(overlap.status, 0)
        XCTAssertTrue(overlap.stdout.contains("another update is running"), overlap.stdout)
        XCTAssertEqual(overlap.stderr, "")
        withExtendedLifetime(held) {}
    }

    func testStuckBoundFollowsTheTimeout() {
        XCTAssertEqual(RunLock.stuckBound(transferTimeoutSeconds: 30), 3_600)
        XCTAssertEqual(RunLock.stuckBound(transferTimeoutSeconds: 120), 12_000)
        let holder = RunLock.Holder(pid: 1, since: Timestamp(secondsSince1970: 1_000))
        XCTAssertFalse(holder.isStuck(now: Timestamp(secondsSince1970: 4_600), bound: 3_600))
        XCTAssertTrue(holder.isStuck(now: Timestamp(secondsSince1970: 4_601), bound: 3_600))
    }
}
