@testable import Aggregator
import FeedModel
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// Opening a workspace skips the sync of the sources file when the store was synced from the
/// file as it reads now (issue 21: with 5,000 sources the file's reading and the comparison with
/// every stored configuration were ~11 ms of every command). What must hold: any change of the
/// file is synced at the next open, whatever its size and however soon; any write of a source's
/// configuration to the store drops the stamp; a file with a line that does not read is never
/// stamped (its warning is said at every open); and a matching stamp does skip the sync.
final class SourcesFileStampTests: XCTestCase {
    private let now = Timestamp(secondsSince1970: 1_800_000_000)

    private func open(_ home: TemporaryDirectory) throws -> Workspace {
        try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]), now: now)
    }

    private func names(_ workspace: Workspace) throws -> [String: String?] {
        Dictionary(uniqueKeysWithValues: try workspace.store.sources().map { ($0.configuration.url, $0.configuration.name) })
    }

    func testEveryEditOfTheFileIsSyncedAtTheNextOpen() throws {
        let home = TemporaryDirectory()
        // Same length each time, written back to back: a stamp of times and sizes would miss these.
        for (i, name) in ["alpha", "bravo", "bravx", "xravo", "bravo"].enumerated() {
            try home.write("sources", "https://a.example/feed name=\(name) tags=t\(i % 2)\nhttps://b.example/feed\n")
            let workspace = try open(home)
            XCTAssertEqual(try names(workspace)["https://a.example/feed"], name, "edit \(i)")
            XCTAssertEqual(try workspace.store.sources().first?.configuration.tags, ["t\(i % 2)"])
            XCTAssertNotNil(try workspace.store.sourcesFileStamp(), "a clean file is stamped")
            XCTAssertEqual(try workspace.entries.map(\.url), ["https://a.example/feed", "https://b.example/feed"])
        }
    }

    func testAMatchingStampSkipsTheSyncAndAConfigurationWriteDropsIt() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed name=alpha\n")
        let first = try open(home)
        let stamp = try XCTUnwrap(try first.store.sourcesFileStamp())
        // A configuration written behind the file's back drops the stamp (the schema's triggers)...
        try first.store.db.execute("UPDATE sources SET name = 'changed by hand'")
        XCTAssertNil(try first.store.sourcesFileStamp())
        XCTAssertEqual(try names(try open(home))["https://a.example/feed"], "alpha", "so the next open syncs it back")
        // ... and a stamp that matches is trusted: put back by hand over a changed row, the open
        // does not look at the configurations (what saves the time).
        let second = try open(home)
        try second.store.db.execute("UPDATE sources SET name = 'changed by hand'")
        try second.store.recordSourcesFileStamp(stamp)
        XCTAssertEqual(try names(try open(home))["https://a.example/feed"], "changed by hand")
        // Fetch state is not configuration: it leaves the stamp alone.
        try second.store.db.execute("UPDATE sources SET etag = 'x', card_count = card_count")
        XCTAssertEqual(try second.store.sourcesFileStamp(), stamp)
        for sql in ["DELETE FROM sources", "INSERT INTO sources (url, kind, created_at) VALUES ('https://c.example/', 'feed', 0)"] {
            try second.store.recordSourcesFileStamp(stamp)
            try second.store.db.execute(sql)
            XCTAssertNil(try second.store.sourcesFileStamp(), sql)
        }
    }

    func testAStampThatIsNotTheFilesIsASyncNotAnError() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed name=alpha\n")
        let first = try open(home)
        for garbage in ["x", String(repeating: "9", count: 10_000), "0:0:0 ", "\u{0}\u{202E}", "NaN"] {
            try first.store.db.execute("UPDATE sources SET name = 'changed by hand'")
            try first.store.recordSourcesFileStamp(garbage)
            let reopened = try open(home)
            XCTAssertEqual(try names(reopened)["https://a.example/feed"], "alpha", garbage)
            XCTAssertNotEqual(try reopened.store.sourcesFileStamp(), garbage)
        }
        XCTAssertThrowsError(try first.store.db.execute("INSERT OR REPLACE INTO sources_file_stamp (id, stamp) VALUES (1, '')"))
        XCTAssertThrowsError(try first.store.db.execute("INSERT INTO sources_file_stamp (id, stamp) VALUES (2, 'x')"))
    }

    func testAReloadSyncsAndStampsWhatItRead() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed name=alpha\n")
        let workspace = try open(home)
        try home.write("sources", "https://a.example/feed name=bravo\nhttps://b.example/feed\n")
        try workspace.reload(now: now)
        XCTAssertEqual(try names(workspace)["https://a.example/feed"], "bravo")
        XCTAssertEqual(try workspace.entries.count, 2)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: home.path + "/sources")))
        XCTAssertEqual(try workspace.store.sourcesFileStamp(),
                       SourcesFileStamp.stamp(bytes, executable: SourcesFileStamp.executableIdentity))
    }

    func testAFileWithABrokenLineIsNeverStampedAndWarnsAtEveryOpen() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed\nhttps://b.example/feed every=0x\n")
        for _ in 0..<3 {
            let workspace = try open(home)
            XCTAssertEqual(workspace.problems.count, 1)
            XCTAssertNil(try workspace.store.sourcesFileStamp())
        }
    }

    func testAWorkspaceOpenedOnAStampStillReadsItsEntriesWhenAsked() throws {
        let home = TemporaryDirectory()
        let lines = (0..<50).map { "https://h\($0 % 7).example/f\($0) name=\"feed \($0)\" tags=a,b\($0 % 3)" }
        try home.write("sources", lines.joined(separator: "\n") + "\n")
        let synced = try open(home)
        let reopened = try open(home)
        XCTAssertEqual(try reopened.entries, try synced.entries)
        XCTAssertTrue(reopened.problems.isEmpty)
        XCTAssertTrue(reopened.sourcesFileExists)
        XCTAssertEqual(try reopened.sources().map(\.stored.id), try synced.sources().map(\.stored.id))
    }

    func testStampsTellApartFilesThatDifferInOneByte() {
        var generator = SystemRandomNumberGenerator()
        // Each stamp with the bytes it was made of: two different inputs must not share a stamp.
        // (A set of stamps alone failed when the random bytes repeated an earlier input: n = 1
        // drawing 0x00 is n = 0 with a 0 appended, one run in ~250.)
        var seen: [String: [UInt8]] = [:]
        func distinct(_ input: [UInt8], _ what: String = "") {
            let stamp = SourcesFileStamp.stamp(input, executable: "x")
            if let earlier = seen.updateValue(input, forKey: stamp) { XCTAssertEqual(earlier, input, "two inputs, one stamp \(what)") }
        }
        for n in [0, 1, 2, 15, 16, 17, 255, 4_096, 70_001] {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let stamp = SourcesFileStamp.stamp(bytes, executable: "x")
            XCTAssertEqual(stamp, SourcesFileStamp.stamp(bytes, executable: "x"), "the same bytes, the same stamp")
            XCTAssertNotEqual(stamp, SourcesFileStamp.stamp(bytes, executable: "y"), "another program, another stamp")
            distinct(bytes)
            for position in Set([0, n / 2, n - 1]) where n > 0 {
                for flip: UInt8 in [1, 0x80, 0xff] {
                    var edited = bytes
                    edited[position] ^= flip
                    distinct(edited, "n \(n) at \(position)")
                }
            }
            // Two bytes swapped, and one appended.
            if n >= 2, bytes[0] != bytes[1] {
                var swapped = bytes
                swapped.swapAt(0, 1)
                distinct(swapped)
            }
            distinct(bytes + [0])
        }
        XCTAssertFalse(SourcesFileStamp.executableIdentity.isEmpty)
    }

    // Lines added at the end of a stamped file: the stamp says the store holds the other lines'
    // configurations, so only the new lines are synced (looked up by URL).

    private func file(_ home: TemporaryDirectory) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: home.path + "/sources"))
    }

    private func add(_ home: TemporaryDirectory, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: home.path + "/sources"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// Syncs `home`'s file, then changes a.example's name by hand under the stamp put back: a
    /// later open that reads that line again says so (its name is the file's again).
    private func syncThenChangeByHand(_ home: TemporaryDirectory) throws {
        let first = try open(home)
        let stamp = try XCTUnwrap(try first.store.sourcesFileStamp())
        try first.store.db.execute("UPDATE sources SET name = 'changed by hand' WHERE url = 'https://a.example/feed'")
        try first.store.recordSourcesFileStamp(stamp)
    }

    /// A home whose file `before` was synced and changed by hand (`syncThenChangeByHand`), then
    /// `added` at its end, opened again.
    private func openAfterAdding(_ added: String, to before: String) throws -> (home: TemporaryDirectory, workspace: Workspace) {
        let home = TemporaryDirectory()
        try home.write("sources", before)
        try syncThenChangeByHand(home)
        try add(home, added)
        return (home, try open(home))
    }

    func testLinesAddedAtTheEndAreSyncedAloneAndTheOthersTrusted() throws {
        // A changed row under a stamp put back by hand: trusted, as a matching stamp is.
        let (home, second) = try openAfterAdding("https://c.example/feed name=charlie tags=y,z keep-days=30\n\nhttps://d.example/feed\n",
                                                 to: "https://a.example/feed name=alpha\nhttps://b.example/feed tags=x\n# a comment\n")
        let stored = try names(second)
        XCTAssertEqual(stored["https://a.example/feed"], "changed by hand", "the lines synced before are not read back")
        XCTAssertEqual(stored["https://c.example/feed"], "charlie")
        XCTAssertEqual(stored["https://d.example/feed"], .some(nil))
        let c = try XCTUnwrap(try second.store.sourceConfiguration(url: "https://c.example/feed"))
        XCTAssertEqual(c.tags, ["y", "z"])
        XCTAssertEqual(c.keepDays, 30)
        XCTAssertEqual(try second.entries.map(\.url), ["https://a.example/feed", "https://b.example/feed", "https://c.example/feed", "https://d.example/feed"])
        XCTAssertEqual(try second.store.sourcesFileStamp(), SourcesFileStamp.of(try file(home)), "stamped again")
        // Nothing added: nothing synced, as before.
        XCTAssertEqual(try names(try open(home))["https://a.example/feed"], "changed by hand")
    }

    func testAnEditAnywhereElseIsSyncedInFull() throws {
        // Each: the file before, what is written after it, and the name line a's source must have then.
        let cases: [(String, (TemporaryDirectory) throws -> Void, String?)] = [
            // A line edited and one added.
            ("https://a.example/feed name=alpha\n", { try $0.write("sources", "https://a.example/feed name=bravo\nhttps://c.example/feed\n") }, "bravo"),
            // The last line, which had no line break, grown: its bytes are the old file's and more.
            ("https://b.example/feed\nhttps://a.example/feed", { try self.add($0, " name=grown\nhttps://c.example/feed\n") }, "grown"),
            // Lines cut off the end.
            ("https://a.example/feed name=alpha\nhttps://c.example/feed\n", { try $0.write("sources", "https://a.example/feed name=alpha\n") }, "alpha"),
        ]
        for (index, (before, edit, name)) in cases.enumerated() {
            let home = TemporaryDirectory()
            try home.write("sources", before)
            try syncThenChangeByHand(home)
            try edit(home)
            XCTAssertEqual(try names(try open(home))["https://a.example/feed"], .some(name), "case \(index)")
        }
    }

    func testAnAddedLineListingAgainASourceTheFileDroppedSyncsItsConfiguration() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed\nhttps://b.example/feed name=old\n")
        _ = try open(home)
        try home.write("sources", "https://a.example/feed\n")
        let dropped = try open(home)
        XCTAssertEqual(try names(dropped)["https://b.example/feed"], "old", "kept in the store, no longer listed")
        try add(home, "https://b.example/feed name=new\n")
        let again = try open(home)
        XCTAssertEqual(try names(again)["https://b.example/feed"], "new")
        XCTAssertEqual(try again.store.sources().count, 2)
    }

    func testAnAddedLineRepeatingAnEarlierOneIsAProblemAndNothingIsStamped() throws {
        let home = TemporaryDirectory()
        try home.write("sources", "https://a.example/feed name=alpha\n")
        _ = try open(home)
        try add(home, "https://c.example/feed\nhttps://a.example/feed name=twice\n")
        let workspace = try open(home)
        XCTAssertEqual(workspace.problems.count, 1)
        XCTAssertEqual(try names(workspace)["https://a.example/feed"], "alpha", "the first line stays")
        XCTAssertEqual(try names(workspace)["https://c.example/feed"], .some(nil))
        XCTAssertNil(try workspace.store.sourcesFileStamp())
    }

    /// Broken and hostile lines added at the end: each is a problem of one line naming the file
    /// and its line, the good line added beside it is synced, the lines before are left as they
    /// were, and nothing is stamped (so the warning comes back at every open). A quoted name
    /// holding control characters reads (and is stamped).
    func testABadLineAddedAtTheEndIsAOneLineProblemAndTheGoodOnesAreSynced() throws {
        let bad: [(line: String, says: String)] = [
            ("https://a.example/feed name=twice", "is already listed on line 1"),
            ("https://e.example/feed name=\"unclosed", "unclosed quote"),
            ("https://e.example/feed every=0x", "every="),
            ("https://e.example/feed colour=red", "unknown option 'colour'"),
            ("https://e.example/feed name=\"\\u{1B}[2J\\u{202E}\" tags=\u{7}x", ""),
            ("javascript:alert(1)", "unsupported URL scheme"),
            (String(repeating: "\"", count: 5_001), "quote"),
            ("https://e.example/\u{FFFD}\u{0}feed keep-days=99999999999999999999999", "keep-days="),
        ]
        for (index, (line, says)) in bad.enumerated() {
            let (home, workspace) = try openAfterAdding("https://c.example/feed name=charlie\n\(line)\n", to: "https://a.example/feed name=alpha\n")
            let stored = try names(workspace)
            XCTAssertEqual(stored["https://c.example/feed"], "charlie", "case \(index)")
            XCTAssertEqual(stored["https://a.example/feed"], "changed by hand", "case \(index): the line before is not read again")
            if says.isEmpty {
                // Control characters in a quoted name read (they are neutralised where shown).
                XCTAssertTrue(workspace.problems.isEmpty, "case \(index)")
                XCTAssertEqual(try workspace.store.sourcesFileStamp(), SourcesFileStamp.of(try file(home)), "case \(index)")
                continue
            }
            XCTAssertNil(try workspace.store.sourcesFileStamp(), "case \(index)")
            XCTAssertEqual(workspace.problems.count, 1, "case \(index)")
            let message = workspace.problems.first.map { "\($0.error.localizedDescription)" } ?? ""
            XCTAssertTrue(message.contains("sources:3"), "case \(index): \(message)")
            XCTAssertTrue(message.contains(says), "case \(index): \(message)")
            XCTAssertFalse(message.contains("\n"), "case \(index): one line")
        }
    }

    func testLinesSyncedAreCountedOnlyForTheStampedBytesFollowedByMore() {
        let before = Array("a\nb c\n".utf8), after = before + Array("d\n".utf8)
        let stamp = SourcesFileStamp.stamp(before, executable: "x")
        func lines(_ stamp: String, _ bytes: [UInt8], _ executable: String = "x") -> Int? {
            bytes.withUnsafeBytes { SourcesFileStamp.linesSynced(by: stamp, before: $0, executable: executable) }
        }
        XCTAssertEqual(lines(stamp, after), 2)
        XCTAssertEqual(lines(stamp, after + Array("e".utf8)), 2)
        XCTAssertNil(lines(stamp, before), "the same file: nothing added")
        XCTAssertNil(lines(stamp, after, "y"), "another program")
        var edited = after
        edited[0] = UInt8(ascii: "z")
        XCTAssertNil(lines(stamp, edited))
        XCTAssertNil(lines(SourcesFileStamp.stamp(Array("a\nb".utf8), executable: "x"), Array("a\nbc\n".utf8)), "a last line grown")
        for garbage in ["", "x", ":", "0:0 x", "-1:0 x", "7: x", "99999999999999999999999:0 x", "7:zz x", "\u{202E}7:0 x", String(repeating: "9", count: 10_000)] {
            XCTAssertNil(lines(garbage, after), garbage)
        }
    }
}
