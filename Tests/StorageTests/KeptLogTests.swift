import XCTest
import FeedModel
@testable import Storage

/// The write-ahead log an update keeps for the next one (`FeedStore.tuneForBulkWrites`,
/// `leaveLogForNextRun`, `KeptLog.clear`): kept with one valid frame, emptied once no
/// connection is open and only when that loses nothing, so that a copy of the database put
/// back from a backup opens as it was copied.
final class KeptLogTests: StoreTestCase {
    private var logPath: String { databasePath + "-wal" }

    /// This test's log's valid frames (`validLogFrames`).
    private func validFrames() -> Int? { validLogFrames(atPath: logPath) }

    /// An update's writes: many cards in batches under the bulk settings, then its end.
    private func update(_ source: SourceID, first: Int, count: Int, at now: Timestamp) throws {
        try store.tuneForBulkWrites(checkpointPages: 16_000, cacheKiB: 1024)
        let cards = (first..<first + count).map {
            article("g\($0)", published: t(1, $0), description: String(repeating: "words of card \($0) ", count: 40))
        }
        try store.inOneTransaction { _ = try save(cards, to: source, at: now) }
        try store.finishBulkWrites()
        try store.leaveLogForNextRun()
    }

    /// Closes the store (the last connection) and empties its kept log; whether it was emptied.
    private func closeAndClear() -> Bool {
        store = nil
        return KeptLog.clear(databasePath: databasePath)
    }

    /// Opens the store again and checks it: intact, `cards` cards.
    private func reopen(expectingCards cards: Int) throws {
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        XCTAssertEqual(try store.cardCount(CardQuery()), cards)
    }

    func testAnUpdateKeepsItsLogWithOneValidFrameAndClearingEmptiesIt() throws {
        let source = try addSource()
        try update(source, first: 0, count: 400, at: t(2))
        store = nil
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int)
        XCTAssertGreaterThan(size, 100_000, "the log's pages are kept for the next update")
        XCTAssertEqual(validFrames(), 1, "restarted: one frame, the rest another salt's")
        XCTAssertTrue(KeptLog.clear(databasePath: databasePath))
        XCTAssertNil(validFrames(), "the header zeroed: no valid frame left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: logPath), "the file stays, for the next update to write over")
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath), "an empty log is left as it is")

        try reopen(expectingCards: 400)
        // The next update writes over the emptied file, and its cards are there after a reopen.
        try update(source, first: 400, count: 100, at: t(3))
        XCTAssertTrue(closeAndClear())
        try reopen(expectingCards: 500)
    }

    /// A copy of the database put back beside a kept log opens as it was copied: the log's
    /// page (the newer database's first page, with its size) never reaches it.
    func testACopyPutBackAfterAnUpdateOpensAsItWasCopied() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        XCTAssertTrue(closeAndClear())
        let copy = directory.file("backup.db").path
        try FileManager.default.copyItem(atPath: databasePath, toPath: copy)

        store = try FeedStore(path: databasePath)
        _ = try addSource("https://other.example/feed.xml")
        try update(source, first: 50, count: 400, at: t(3))
        XCTAssertTrue(closeAndClear())
        try FileManager.default.removeItem(atPath: databasePath)
        try FileManager.default.copyItem(atPath: copy, toPath: databasePath)

        try reopen(expectingCards: 50)
        XCTAssertEqual(try store.sources().count, 1)
    }

    /// A connection of this process open: the log's files are not touched at all (closing a
    /// descriptor of them would drop that connection's locks).
    func testNothingIsTouchedWhileAConnectionOfThisProcessIsOpen() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        let reader = try FeedStore(path: databasePath)
        XCTAssertEqual(try reader.cardCount(CardQuery()), 50)
        store = nil
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertNotNil(validFrames())
        XCTAssertEqual(try reader.cardCount(CardQuery()), 50)
        XCTAssertEqual(try reader.integrityCheck(), "ok")
    }

    /// Another process with the database open (the sqlite3 shell, having read it): the log is
    /// left as it is; the shell, closing last, deletes it (SQLite's default).
    func testALogIsLeftAloneWhileAnotherProcessHasTheDatabaseOpen() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        store = nil
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [databasePath]
        let input = Pipe(), output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM cards;\n".utf8))
        // Its answer: it has read the database, and holds it open (its shared lock) until it ends.
        var answer = Data()
        while !answer.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            answer += more
        }
        XCTAssertEqual(String(decoding: answer, as: UTF8.self), "50\n")
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertNotNil(validFrames())
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: logPath))
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.cardCount(CardQuery()), 50)
    }

    /// A valid frame whose page is not the database file's (not copied there, as after a
    /// crash): the log is left as it is, since emptying it would lose that page.
    func testALogWithAFrameNotInTheDatabaseFileIsLeftAlone() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        store = nil
        XCTAssertEqual(validFrames(), 1)
        // One byte of the valid frame's page changed: now it differs from the file's page.
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: logPath))
        try handle.seek(toOffset: 32 + 24 + 100)
        let byte = try XCTUnwrap(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: 32 + 24 + 100)
        try handle.write(contentsOf: [byte ^ 0xFF])
        try handle.close()
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertEqual(validFrames(), 1)
    }

    /// Whatever a log file holds (it is a file on disk: damaged, truncated, written by anyone),
    /// `clear` never writes the database file, and empties the log only when no frame of it
    /// is one SQLite would take: a header of another kind, an impossible page size, a frame of
    /// page 0 or of a page past the file's end leave it as it is.
    func testAHostileLogIsLeftAsItIsAndTheDatabaseUntouched() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        store = nil
        let real = try XCTUnwrap(FileManager.default.contents(atPath: logPath))
        let database = try XCTUnwrap(FileManager.default.contents(atPath: databasePath))
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        let header = [UInt8](real.prefix(32)), salts = [UInt8](real[16..<24])
        func frame(page: UInt32, size: Int = 4096) -> [UInt8] { word(page) + word(1) + salts + [UInt8](repeating: 0, count: 8 + size) }
        var seed: UInt64 = 21
        func noise(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: seed >> 33) }
        }
        let kept: [(String, [UInt8])] = [
            ("noise 10", noise(10)), ("noise 4,000", noise(4_000)), ("noise 100,000", noise(100_000)),
            ("page size 0", word(0x377f_0682) + word(3_007_000) + word(0) + [UInt8](header[12...]) + frame(page: 1)),
            ("page size 3", word(0x377f_0682) + word(3_007_000) + word(3) + [UInt8](header[12...]) + frame(page: 1, size: 3)),
            ("page size 2^31", word(0x377f_0682) + word(3_007_000) + word(1 << 31) + [UInt8](header[12...])),
            ("a frame of page 0", header + frame(page: 0)),
            ("a frame past the file's end", header + frame(page: 0xFFFF_FFFF)),
            ("a frame unlike the file's page 1", header + frame(page: 1)),
        ]
        for (what, bytes) in kept {
            XCTAssertTrue(FileManager.default.createFile(atPath: logPath, contents: Data(bytes)), what)
            XCTAssertFalse(KeptLog.clear(databasePath: databasePath), what)
            XCTAssertEqual(FileManager.default.contents(atPath: logPath), Data(bytes), "\(what): the log as it was")
            XCTAssertEqual(FileManager.default.contents(atPath: databasePath), database, "\(what): the database untouched")
        }
        // A header alone, or a frame cut short: no frame SQLite would take, so it is emptied.
        for (what, bytes) in [("a header alone", header), ("a frame cut short", header + Array(frame(page: 1).prefix(1_000)))] {
            XCTAssertTrue(FileManager.default.createFile(atPath: logPath, contents: Data(bytes)), what)
            XCTAssertTrue(KeptLog.clear(databasePath: databasePath), what)
            XCTAssertNil(validFrames(), what)
            XCTAssertEqual(FileManager.default.contents(atPath: databasePath), database, "\(what): the database untouched")
        }
        try reopen(expectingCards: 50)
    }

    func testNoLogNothingCleared() throws {
        store = nil
        try? FileManager.default.removeItem(atPath: logPath)
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertFalse(KeptLog.clear(databasePath: directory.file("missing.db").path))
    }
}
