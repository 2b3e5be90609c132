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
}
