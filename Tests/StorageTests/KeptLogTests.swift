import XCTest
import FeedModel
@testable import Storage

/// The write-ahead log an update keeps for the next one (`FeedStore.tuneForBulkWrites`,
/// `leaveLogForNextRun`, `KeptLog.clear`): kept with one valid frame, emptied once no
/// connection is open and only when that loses nothing, so that a copy of the database put
/// back from a backup opens as it was copied.
final class KeptLogTests: StoreTestCase {
    private var logPath: String { databasePath + "-wal" }

    /// The log's header and frames, as SQLite's recovery reads them: the frames carrying the
    /// header's salts, up to the first that does not (nil: no log, or its header zeroed).
    private func validFrames() throws -> Int? {
        guard let data = FileManager.default.contents(atPath: logPath), data.count >= 32 else { return nil }
        let bytes = [UInt8](data)
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard word(0) == 0x377f_0682 || word(0) == 0x377f_0683 else { return nil }
        let frameSize = 24 + Int(word(8))
        var frames = 0, offset = 32
        while offset + frameSize <= bytes.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
            frames += 1
            offset += frameSize
        }
        return frames
    }

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

    func testAnUpdateKeepsItsLogWithOneValidFrameAndClearingEmptiesIt() throws {
        let source = try addSource()
        try update(source, first: 0, count: 400, at: t(2))
        store = nil
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int)
        XCTAssertGreaterThan(size, 100_000, "the log's pages are kept for the next update")
        XCTAssertEqual(try validFrames(), 1, "restarted: one frame, the rest another salt's")
        XCTAssertTrue(KeptLog.clear(databasePath: databasePath))
        XCTAssertNil(try validFrames(), "the header zeroed: no valid frame left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: logPath), "the file stays, for the next update to write over")
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath), "an empty log is left as it is")

        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        XCTAssertEqual(try store.cardCount(CardQuery()), 400)
        // The next update writes over the emptied file, and its cards are there after a reopen.
        try update(source, first: 400, count: 100, at: t(3))
        store = nil
        XCTAssertTrue(KeptLog.clear(databasePath: databasePath))
        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.cardCount(CardQuery()), 500)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    /// A copy of the database put back beside a kept log opens as it was copied: the log's
    /// page (the newer database's first page, with its size) never reaches it.
    func testACopyPutBackAfterAnUpdateOpensAsItWasCopied() throws {
        let source = try addSource()
        try update(source, first: 0, count: 50, at: t(2))
        store = nil
        XCTAssertTrue(KeptLog.clear(databasePath: databasePath))
        let copy = directory.file("backup.db").path
        try FileManager.default.copyItem(atPath: databasePath, toPath: copy)

        store = try FeedStore(path: databasePath)
        _ = try addSource("https://other.example/feed.xml")
        try update(source, first: 50, count: 400, at: t(3))
        store = nil
        XCTAssertTrue(KeptLog.clear(databasePath: databasePath))
        try FileManager.default.removeItem(atPath: databasePath)
        try FileManager.default.copyItem(atPath: copy, toPath: databasePath)

        store = try FeedStore(path: databasePath)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        XCTAssertEqual(try store.cardCount(CardQuery()), 50)
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
        XCTAssertNotNil(try validFrames())
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
        XCTAssertNotNil(try validFrames())
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
        XCTAssertEqual(try validFrames(), 1)
        // One byte of the valid frame's page changed: now it differs from the file's page.
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: logPath))
        try handle.seek(toOffset: 32 + 24 + 100)
        let byte = try XCTUnwrap(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: 32 + 24 + 100)
        try handle.write(contentsOf: [byte ^ 0xFF])
        try handle.close()
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertEqual(try validFrames(), 1)
    }

    func testNoLogNothingCleared() throws {
        store = nil
        try? FileManager.default.removeItem(atPath: logPath)
        XCTAssertFalse(KeptLog.clear(databasePath: databasePath))
        XCTAssertFalse(KeptLog.clear(databasePath: directory.file("missing.db").path))
    }
}
