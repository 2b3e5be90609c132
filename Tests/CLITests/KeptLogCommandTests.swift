import Foundation
import TestSupport
import XCTest

/// `feeds update` leaves its write-ahead log file behind for the next update to write over,
/// emptied (its header zeroed: no valid frame), so that a copy of `feeds.db` put back from a
/// backup opens as it was copied, and every command reads the database as the update left it.
final class KeptLogCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }
    private var log: String { home + "/feeds.db-wal" }

    override func setUpWithError() throws { directory = TemporaryDirectory("feeds-cli-kept-log") }
    override func tearDown() { directory = nil }

    private func feeds(_ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args)
    }

    /// A feed of `count` items from `first` on, each with a paragraph, so the log is pages long.
    private func writeFeed(_ name: String, first: Int, count: Int) throws {
        let items = (first..<first + count).map { i in
            "<item><guid>g\(i)</guid><title>Item \(i)</title><pubDate>Mon, 02 Dec 2024 10:00:00 GMT</pubDate>"
                + "<description>\(String(repeating: "paragraph \(i) ", count: 40))</description></item>"
        }.joined()
        try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(name)</title>\(items)</channel></rss>"
            .write(to: directory.file(name), atomically: false, encoding: .utf8)
    }

    /// The log's first word: SQLite's magic number while it holds frames, zero once emptied.
    private func logMagic(_ path: String? = nil) throws -> UInt32? {
        guard let data = FileManager.default.contents(atPath: path ?? log), data.count >= 4 else { return nil }
        return data.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func cardCount() throws -> Int {
        let r = try feeds(["read", "--json", "--keep-unread"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // One card a line of the JSON array (`{"id":...}`).
        return r.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"id\":") }.count
    }

    func testAnUpdateLeavesItsLogEmptiedAndACopyPutBackOpensAsCopied() throws {
        try writeFeed("a.rss", first: 0, count: 200)
        try "a.rss name=A\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try feeds(["update"]).status, 0)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        XCTAssertGreaterThan(size, 32_768, "the log file is kept, pages long")
        XCTAssertEqual(try logMagic(), 0, "emptied: no valid frame")
        let backup = directory.file("backup.db").path
        try FileManager.default.copyItem(atPath: home + "/feeds.db", toPath: backup)

        try writeFeed("b.rss", first: 1000, count: 300)
        try "a.rss name=A\nb.rss name=B\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try feeds(["update", "--all"]).status, 0)
        XCTAssertEqual(try logMagic(), 0)
        XCTAssertEqual(try cardCount(), 500)

        // The copy put back beside the log opens as copied: nothing of the later update in it.
        XCTAssertEqual(try feeds(["update"]).status, 0)
        try FileManager.default.removeItem(atPath: home + "/feeds.db")
        try FileManager.default.copyItem(atPath: backup, toPath: home + "/feeds.db")
        XCTAssertEqual(try cardCount(), 200)
        let check = try feeds(["sources"])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    /// The search index's log is kept the same way: there after the update, emptied, and a
    /// search then finds the update's cards (and a second update's).
    func testAnUpdateLeavesTheSearchIndexLogEmptiedAndSearchFindsItsCards() throws {
        let searchLog = home + "/feeds.search.db-wal"
        try writeFeed("a.rss", first: 0, count: 200)
        try "a.rss name=A\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try feeds(["update"]).status, 0)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: searchLog)[.size] as? Int)
        XCTAssertGreaterThan(size, 32_768, "the index's log file is kept, pages long")
        XCTAssertEqual(try logMagic(searchLog), 0, "emptied: no valid frame")

        try writeFeed("b.rss", first: 1000, count: 100)
        try "a.rss name=A\nb.rss name=B\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try feeds(["update", "--all"]).status, 0)
        XCTAssertEqual(try logMagic(searchLog), 0)
        for (word, expected) in [("paragraph", 300), ("1042", 1), ("17", 1)] {
            let r = try feeds(["search", word, "--json", "--limit", "1000"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"id\":") }.count, expected, word)
        }
    }
}
