import Fetching
import Foundation
import TestSupport
import XCTest

/// file:// is read only for requests that allow it.
final class FileURLTests: XCTestCase {
    func testFileURLOnlyWhenAllowed() throws {
        let dir = TemporaryDirectory()
        let file = dir.file("local feed.xml")
        try Data("<rss>local</rss>".utf8).write(to: file)
        let url = file.absoluteString  // file:///tmp/.../local%20feed.xml

        XCTAssertEqual(try failure(fetch(url)), .unsupportedScheme(url: url))

        let r = try response(fetch(url, allowFile: true))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(text(r.body), "<rss>local</rss>")
    }

    func testMissingFileIsAClearError() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("missing.xml").absoluteString
        let error = try XCTUnwrap(failure(fetch(url, allowFile: true)))
        XCTAssertEqual(error, .fileNotReadable(path: dir.file("missing.xml").path))
    }

    /// A file over the body limit is refused like any other body.
    func testLargeFileIsCapped() throws {
        let dir = TemporaryDirectory()
        try Data(repeating: 65, count: 100_000).write(to: dir.file("big.xml"))
        let error = try XCTUnwrap(failure(fetch(dir.file("big.xml").absoluteString,
                                                limits: testLimits(maxBody: 10_000, maxWire: 1 << 20), allowFile: true)))
        XCTAssertEqual(error, .bodyTooLarge(limit: 10_000, onTheWire: false))
    }
}
