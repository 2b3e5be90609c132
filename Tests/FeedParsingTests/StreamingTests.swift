import FeedModel
import FeedParsing
import TestSupport
import XCTest

/// The push parser gives the same cards whatever the chunk boundaries, and hands each card out
/// as soon as its item closes.
final class StreamingTests: XCTestCase {
    private func parseInChunks(_ bytes: [UInt8], size: Int) throws -> [Card] {
        var cards: [Card] = []
        let p = FeedStreamParser { cards.append($0) }
        var i = 0
        while i < bytes.count {
            try p.push(Array(bytes[i..<min(bytes.count, i + size)]))
            i += size
        }
        _ = try p.finish()
        return cards
    }

    func testChunkBoundariesDoNotMatter() throws {
        for name in ["rss20-namespaces.xml", "rss091-netscape.xml", "atom10.xml", "illformed-midway.xml",
                     "encoding/utf16le-bom.xml", "encoding/cp1252-in-utf8.xml", "hostile/billion-laughs.xml", "jsonfeed.json"] {
            let bytes = [UInt8](try Fixtures.data("feeds/" + name))
            let whole = try FeedParser.parse(bytes).cards
            for size in [1, 2, 3, 7, 64, 1000] {
                XCTAssertEqual(try parseInChunks(bytes, size: size), whole, "\(name) in chunks of \(size)")
            }
        }
    }

    func testCardsArriveBeforeTheDocumentEnds() throws {
        var seen: [String?] = []
        let p = FeedStreamParser { seen.append($0.title) }
        // More than the 1 KiB the encoding sniffer waits for, so parsing has begun.
        let channel = "<title>T</title><description>" + String(repeating: "x", count: 2000) + "</description>"
        try p.push(Array(rss("<item><title>first</title></item>", channel: channel).dropLast(16).utf8))   // all but "</channel></rss>"
        XCTAssertEqual(seen, ["first"])
        try p.push(Array("<item><title>second</title></item></channel></rss>".utf8))
        _ = try p.finish()
        XCTAssertEqual(seen, ["first", "second"])
    }

    func testFileAndMemoryEntryPointsAgree() throws {
        var fromFile: [Card] = []
        let summary = try FeedParser.parseFile(Fixtures.url("feeds/atom10.xml").path) { fromFile.append($0) }
        let inMemory = try parseFixture("atom10.xml")
        XCTAssertEqual(fromFile, inMemory.cards)
        XCTAssertEqual(summary.feed, inMemory.feed)
        XCTAssertEqual(summary.cardCount, 2)
    }

    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try FeedParser.parseFile("/nonexistent/feed.xml") { _ in }) { error in
            XCTAssertTrue(error.localizedDescription.contains("/nonexistent/feed.xml"), error.localizedDescription)
        }
    }
}
