import XCTest
import FeedModel
import Storage
import TestSupport
@testable import Reader

/// The one-line list, enclosure lines and sizes, and which cards a partial write delivered.
final class BriefAndEnclosureTests: XCTestCase {
    func testEnclosureKindsAndSizes() {
        XCTAssertEqual(DigestEnclosures.line(Enclosure(url: "https://a.example/e.mp3", type: "audio/mpeg", length: 30_000_000)),
                       "[audio] https://a.example/e.mp3 (30.0 MB)")
        XCTAssertEqual(DigestEnclosures.line(Enclosure(url: "https://a.example/v", type: "video/mp4")), "[video] https://a.example/v")
        XCTAssertEqual(DigestEnclosures.line(Enclosure(url: "https://a.example/d.pdf", type: "application/pdf", length: 512)),
                       "[file] https://a.example/d.pdf (512 B)")
        XCTAssertEqual(DigestEnclosures.kind(nil), "file")
        let sizes: [(Int64, String)] = [(999, "999 B"), (1_000, "1.0 kB"), (1_550, "1.6 kB"), (999_949, "999.9 kB"),
                                        (999_999, "1.0 MB"), (30_000_000, "30.0 MB"), (1_234_567_890, "1.2 GB"),
                                        (Int64.max, "9.2 EB")]
        for (bytes, text) in sizes { XCTAssertEqual(DigestEnclosures.size(bytes), text, "\(bytes)") }
    }

    func testTheImageEnclosureIsNotShownTwice() {
        let card = Card(id: "x", title: "T", link: "https://a.example/", image: "https://a.example/i.jpg",
                        enclosures: [Enclosure(url: "https://a.example/i.jpg", type: "image/jpeg"),
                                     Enclosure(url: "https://a.example/e.ogg", type: "audio/ogg")])
        XCTAssertEqual(DigestEnclosures.lines(card), ["[audio] https://a.example/e.ogg"])
    }

    func testBriefOnATerminalFitsTheWidthAndIsStyled() throws {
        let directory = TemporaryDirectory("feeds-brief")
        let store = try FeedStore(path: directory.file("feeds.db").path)
        let now = Timestamp(secondsSince1970: 1_700_000_000)
        let source = try store.upsertSource(SourceConfiguration(url: "https://a.example/feed", name: "A source with a long name indeed"), now: now)
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "A"), cards: [
            Card(id: "1", title: "A title far too long to fit on one forty column line of a terminal", link: "https://a.example/1", published: now),
            Card(id: "2", title: "Line\nbreaks  and\ttabs", link: "https://a.example/2", published: now),
        ], validators: CacheValidators(), now: now, nextDue: nil)
        let cards = try store.cards()
        let styled = BriefList(style: DigestStyle(width: 60, mode: .color)).layout(cards)
        let unstyled = styled.text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        for line in unstyled.split(separator: "\n") { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60, String(line)) }
        XCTAssertTrue(unstyled.contains("  A source with a lon…  "), unstyled)
        XCTAssertTrue(unstyled.contains("…  #1"), unstyled)
        XCTAssertTrue(styled.text.contains("\u{1B}[1m"), "unread titles bold")
        let plain = BriefList(style: DigestStyle(width: 60, mode: .plain)).layout(cards).text
        XCTAssertFalse(plain.contains("\u{1B}"))
        XCTAssertTrue(plain.contains("A title far too long to fit on one forty column line of a terminal  #1"), "piped: whole titles")
        XCTAssertTrue(plain.contains("Line breaks and tabs  #2"), "one line a card")
        XCTAssertEqual(plain.split(separator: "\n").count, 2)
    }

    func testCardsDeliveredAreThoseWrittenWhole() {
        var out = RenderedCards()
        out.append("== heading\n")
        out.append("first\n", card: 1)
        out.append("second\n", card: 0)
        XCTAssertEqual(out.cardsDelivered(0), [])
        XCTAssertEqual(out.cardsDelivered(16), [], "one byte short of the first card's end")
        XCTAssertEqual(out.cardsDelivered(17), [1])
        XCTAssertEqual(out.cardsDelivered(out.byteCount), [1, 0])
        XCTAssertEqual(out.lineCount, 3)
    }
}
