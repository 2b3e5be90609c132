import XCTest
import FeedModel
import Storage
import TestSupport
@testable import Reader

/// The digest and its JSON, against snapshot files in Tests/Fixtures/snapshots/reader-*.
/// Set UPDATE_SNAPSHOTS=1 to rewrite them after an intended change (and review the diff).
final class DigestTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: FeedStore!
    /// 2024-03-01T12:00:00Z.
    private let now = Timestamp(secondsSince1970: 1_709_294_400)

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-reader")
        store = try FeedStore(path: directory.file("feeds.db").path)
    }

    override func tearDown() {
        store = nil
        directory = nil
    }

    private func ago(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: now.secondsSince1970 - seconds) }

    /// The cards every snapshot shows, newest first: ids 1…6 in this order of saving.
    private func seed() throws -> [StoredCard] {
        let news = try store.upsertSource(SourceConfiguration(url: "https://news.example/feed", name: "News"), now: ago(90 * 86_400))
        let blog = try store.upsertSource(SourceConfiguration(url: "https://blog.example/feed", name: "日本のブログ"), now: ago(90 * 86_400))
        try store.saveFetch(sourceID: news, feed: FeedInfo(title: "News"), cards: [
            Card(id: "wide", title: "日本語のタイトル 😀 and a tail long enough to wrap", description: "<p>東京で新しい図書館が開館しました。本が好きな人はぜひ訪れてください。</p><p>Cafe\u{301} déjà vu 👨‍👩‍👧 family</p>",
                 link: "https://news.example/wide", published: ago(5 * 60), author: "Zoë"),
            Card(id: "long", title: "A very long word", description: "<p>Before https://example.org/a/very/long/path/that/does/not/fit/on/one/line/at/all/index.html after.</p>",
                 link: "https://news.example/long", published: ago(3 * 3_600)),
            Card(id: "lists", title: "Lists & breaks", description: """
                <p>Intro with <a href="https://example.org/more">a link</a> &amp; an entity.</p>
                <ul><li>one item long enough that it has to wrap under its bullet</li><li>two<ul><li>nested</li></ul></li></ul>
                <ol start="3"><li>third</li><li>fourth</li></ol><p>line<br>break</p>
                """, link: "https://news.example/lists", published: ago(2 * 86_400 + 60)),
        ], validators: CacheValidators(), now: ago(60), nextDue: nil)
        try store.saveFetch(sourceID: blog, feed: FeedInfo(title: "Blog"), cards: [
            Card(id: "empty", title: "Empty description", link: "https://blog.example/empty", published: ago(30 * 86_400)),
            Card(id: "untitled", description: "<p>No title here, so the start of this text stands in for one.</p>",
                 link: "https://blog.example/untitled", image: "https://blog.example/picture.jpg"),
            Card(id: "bare", link: "https://blog.example/bare"),
        ], validators: CacheValidators(), now: ago(30), nextDue: nil)
        try store.markRead(.cards([CardID(rawValue: 4)]))
        return try store.cards()
    }

    private func assertSnapshot(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let shown = actual.replacingOccurrences(of: "\u{1B}", with: "\\e")
        let path = "snapshots/reader-\(name).txt"
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try shown.write(to: Fixtures.url(path), atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(shown, try Fixtures.string(path), "snapshot \(path)", file: file, line: line)
    }

    private func digest(_ mode: DigestStyle.Mode, width: Int = 40, highlight: String? = nil) -> Digest {
        Digest(style: DigestStyle(width: width, mode: mode), now: now, highlight: highlight.map(SearchHighlight.init(query:)))
    }

    func testPlainTextAsPiped() throws {
        let cards = try seed()
        XCTAssertEqual(cards.map(\.card.id), ["wide", "long", "lists", "empty", "bare", "untitled"])
        let text = digest(.plain).render(cards)
        XCTAssertFalse(text.contains("\u{1B}"), "no escapes when piped")
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 40, String(line)) }
        try assertSnapshot(text, "plain-40")
    }

    func testTerminalColors() throws {
        try assertSnapshot(digest(.color).render(try seed()), "color-40")
    }

    func testNoColorKeepsBoldOnly() throws {
        let text = digest(.monochrome).render(try seed())
        XCTAssertFalse(text.contains("\u{1B}[3"), "no color codes under NO_COLOR")
        XCTAssertTrue(text.contains("\u{1B}[1m"))
        try assertSnapshot(text, "nocolor-40")
    }

    func testWideTerminalAndGroups() throws {
        let cards = try seed()
        try assertSnapshot(digest(.plain, width: 72).render(cards, grouping: .source), "plain-72-by-source")
        let byDay = digest(.plain, width: 72).render(cards, grouping: .day)
        XCTAssertTrue(byDay.hasPrefix("== 2024-03-01 (4)\n"), byDay)  // undated cards go by their first sighting
        XCTAssertTrue(byDay.contains("== 2024-02-28 (1)\n"), byDay)
    }

    func testSearchMatchesAreHighlightedOnATerminalOnly() throws {
        let cards = try seed()
        let colored = digest(.color, highlight: "cafe OR tail*").block(cards[0])
        XCTAssertTrue(colored.contains("\u{1B}[7mtail\u{1B}[0m"), colored)
        XCTAssertTrue(colored.contains("\u{1B}[7mCafe\u{301}\u{1B}[0m"), colored)
        XCTAssertFalse(colored.contains("\u{1B}[7mand"), colored)
        XCTAssertFalse(digest(.plain, highlight: "cafe").block(cards[0]).contains("\u{1B}"))
    }

    func testJSONIsTheParseModelPlusSourceAndReadState() throws {
        let json = DigestJSON.array(try seed())
        try assertSnapshot(json, "json")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        XCTAssertEqual(decoded?.count, 6)
        let first = try XCTUnwrap(decoded?.first)
        for field in ["id", "key", "title", "link", "description", "image", "published", "updated", "author",
                      "enclosures", "kind", "cardID", "source", "sourceID", "read", "firstSeen"] {
            XCTAssertNotNil(first[field], field)
        }
        XCTAssertEqual(decoded?[3]["read"] as? Bool, true)
        XCTAssertEqual(decoded?[0]["source"] as? String, "News")
        XCTAssertEqual(DigestJSON.array([]), "[]\n")
    }

    func testModeFollowsTerminalAndNoColor() {
        XCTAssertEqual(DigestStyle.mode(isTerminal: false, environment: [:]), .plain)
        XCTAssertEqual(DigestStyle.mode(isTerminal: false, environment: ["NO_COLOR": "1"]), .plain)
        XCTAssertEqual(DigestStyle.mode(isTerminal: true, environment: [:]), .color)
        XCTAssertEqual(DigestStyle.mode(isTerminal: true, environment: ["NO_COLOR": "1"]), .monochrome)
        XCTAssertEqual(DigestStyle.mode(isTerminal: true, environment: ["NO_COLOR": ""]), .color, "set but empty: ignored")
    }

    func testAges() {
        XCTAssertEqual(Age.describe(ago(10), now: now), "just now")
        XCTAssertEqual(Age.describe(ago(5 * 60), now: now), "5m ago")
        XCTAssertEqual(Age.describe(ago(47 * 3_600), now: now), "47h ago")
        XCTAssertEqual(Age.describe(ago(13 * 86_400), now: now), "13d ago")
        XCTAssertEqual(Age.describe(ago(30 * 86_400), now: now), "2024-01-31")
        XCTAssertEqual(Age.describe(ago(-3_600), now: now), "2024-03-01", "the future shows its date")
    }
}
