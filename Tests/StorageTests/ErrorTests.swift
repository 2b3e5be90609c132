import XCTest
import FeedModel
import TestSupport
@testable import Storage

final class ErrorTests: XCTestCase {
    func testTextFileIsNotAFeedsDatabase() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("notes.db").path
        let text = String(repeating: "These are my notes, not a database.\n", count: 100)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try FeedStore(path: path)) { error in
            guard case .notAFeedsDatabase(let reportedPath, _) = error as? StorageError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(reportedPath, path)
            XCTAssertTrue(error.localizedDescription.contains("\(path) is not a feeds database"),
                          error.localizedDescription)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "the file must be left alone")
    }

    func testOtherProgramsDatabaseIsRefused() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("other.db").path
        do {
            let other = try Database(path: path)
            try other.execute("CREATE TABLE contacts (name TEXT)")
        }
        XCTAssertThrowsError(try FeedStore(path: path)) { error in
            guard case .notAFeedsDatabase = error as? StorageError else { return XCTFail("unexpected \(error)") }
        }
        let check = try Database(path: path)
        XCTAssertEqual(try check.prepare("SELECT count(*) FROM sqlite_schema").queryOne { $0.int(0) }, 1,
                       "no feeds table may be added to somebody else's database")
    }

    func testDirectoryInPlaceOfTheFileCannotBeOpened() throws {
        let directory = TemporaryDirectory("feeds-storage")
        XCTAssertThrowsError(try FeedStore(path: directory.path)) { error in
            guard case .cannotOpen(let path, _) = error as? StorageError else { return XCTFail("unexpected \(error)") }
            XCTAssertEqual(path, directory.path)
            XCTAssertTrue("\(error)".hasPrefix("cannot open database \(directory.path)"), "\(error)")
        }
    }

    func testFileInPlaceOfTheFolderIsReported() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let blocker = directory.file("data").path
        try "x".write(toFile: blocker, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try FeedStore(path: blocker + "/feeds/feeds.db")) { error in
            guard case .cannotCreateDirectory(let path, _) = error as? StorageError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertTrue(path.hasPrefix(blocker), path)
        }
    }

    func testCorruptHeaderIsReportedWithThePath() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("feeds.db").path
        do {
            let store = try FeedStore(path: path)
            try store.upsertSource(SourceConfiguration(url: "https://example.org/feed"), now: Timestamp(secondsSince1970: 0))
            try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // Overwrite the page size and following header bytes with nonsense.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 16)
        try handle.write(contentsOf: [UInt8](repeating: 0xEE, count: 84))
        try handle.close()
        XCTAssertThrowsError(try FeedStore(path: path)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains(path), message)
            switch error as? StorageError {
            case .notAFeedsDatabase?, .corrupt?: break
            default: XCTFail("unexpected \(error)")
            }
        }
    }

    func testBusyMapsToALockedMessageNamingThePath() {
        let error = StorageError.from(code: 5 /* SQLITE_BUSY */, message: "database is locked",
                                      path: "/x/feeds.db", context: "saving")
        XCTAssertEqual(error, .locked(path: "/x/feeds.db"))
        XCTAssertEqual(error.localizedDescription,
                       "database /x/feeds.db is locked by another process; try again when the other feeds command has finished")
    }
}
