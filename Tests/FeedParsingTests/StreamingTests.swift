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

    /// `concurrentCards` moves the card contract to a second thread: the same cards in the same
    /// order, all delivered by the time `finish()` returns, for any chunking.
    func testConcurrentCardsGiveTheSameCardsInOrder() throws {
        var items = ""
        for i in 0..<700 {
            items += "<item><title>item \(i) &amp; more</title><link>http://example.test/\(i)</link>"
                + "<description>&lt;p&gt;body \(i) &lt;a href=\"/x\(i)\"&gt;x&lt;/a&gt;&lt;/p&gt;</description></item>"
        }
        let docs = [Array(rss(items).utf8)] + (try ["rss20-namespaces.xml", "atom10.xml", "illformed-midway.xml"].map {
            [UInt8](try Fixtures.data("feeds/" + $0))
        })
        for bytes in docs {
            let whole = try FeedParser.parse(bytes).cards
            for size in [7, 1000, 1 << 16] {
                var options = ParseOptions()
                options.concurrentCards = true
                var cards: [Card] = []
                let p = FeedStreamParser(options: options) { cards.append($0) }
                var i = 0
                while i < bytes.count {
                    try p.push(Array(bytes[i..<min(bytes.count, i + size)]))
                    i += size
                }
                let summary = try p.finish()
                XCTAssertEqual(cards, whole, "chunks of \(size)")
                XCTAssertEqual(summary.cardCount, whole.count)
            }
        }
        XCTAssertEqual(try FeedParser.parse(docs[0]).cards.count, 700)
    }

    /// A document that turns out not to be a feed still ends the second thread before throwing.
    func testConcurrentCardsEndOnError() throws {
        let page = Array("<html><head><title>x</title></head><body><item><title>a</title></item></body></html>".utf8)
        var counts: [Int] = []
        for concurrent in [false, true] {
            var options = ParseOptions()
            options.concurrentCards = concurrent
            var count = 0
            let p = FeedStreamParser(options: options) { _ in count += 1 }
            try p.push(page)
            XCTAssertThrowsError(try p.finish())
            counts.append(count)
        }
        XCTAssertEqual(counts[1], counts[0])
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
