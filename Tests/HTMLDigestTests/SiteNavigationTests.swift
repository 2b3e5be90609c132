import FeedModel
import Foundation
import HTMLDigest
import Storage
import XCTest

/// How a reader finds their way (issue 18): the index's sections with the newest card first,
/// archive days linking the days before and after, counts that say what they count.
final class SiteNavigationTests: DigestTestCase {
    func testIndexSectionsPutTheSourceWithTheNewestCardFirst() throws {
        // Names against dates: A to Z would be Alpha, Beta, Gamma.
        for (name, hours) in [("Alpha", 30), ("Beta", 2), ("Gamma", 10)] as [(String, Int64)] {
            let id = try store.upsertSource(SourceConfiguration(url: "https://\(name.lowercased()).example/feed", name: name), now: hoursAgo(400))
            try store.saveFetch(sourceID: id, feed: FeedInfo(title: name), cards: [
                Card(id: "\(name)-1", title: "\(name) card", link: "https://\(name.lowercased()).example/1", published: hoursAgo(hours)),
            ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        }
        // Read and undated cards do not move a source up: Gamma gets an undated card.
        let gamma = try XCTUnwrap(try store.sources().first { $0.configuration.name == "Gamma" })
        try store.saveFetch(sourceID: gamma.id, feed: FeedInfo(title: "Gamma"), cards: [
            Card(id: "Gamma-1", title: "Gamma card", link: "https://gamma.example/1", published: hoursAgo(10)),
            Card(id: "Gamma-2", title: "Gamma undated", link: "https://gamma.example/2"),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        try writeSite()
        let index = try read("index.html")
        let positions = try ["Beta", "Gamma", "Alpha"].map { name in try XCTUnwrap(index.range(of: ">\(name)</a>")).lowerBound }
        XCTAssertEqual(positions, positions.sorted(), "Beta (2 h), Gamma (10 h), Alpha (30 h)")
        XCTAssertTrue(index.contains("the source with the newest card first"), "the page says so")
        XCTAssertTrue(index.contains(">Gamma</a> <span class=\"count\">2 cards since 2026-11-22 12:00, 2 unread</span>"))
        XCTAssertTrue(index.contains(">Beta</a> <span class=\"count\">1 card since 2026-11-22 12:00, 1 unread</span>"))
    }

    func testArchiveDaysLinkTheDaysBeforeAndAfter() throws {
        try fillStore()
        try writeSite()
        // Days with cards: 2026-11-29, -28, -27, 2026-10-20 (none in between).
        let middle = try read("archive/2026-11-28.html")
        XCTAssertTrue(middle.contains("<a href=\"2026-11-27.html\" rel=\"prev\">← 2026-11-27</a>"))
        XCTAssertTrue(middle.contains("<a href=\"2026-11-29.html\" rel=\"next\">2026-11-29 →</a>"))
        XCTAssertTrue(middle.contains("1 card dated 2026-11-28 (UTC)."))
        let oldest = try read("archive/2026-10-20.html")
        XCTAssertFalse(oldest.contains("rel=\"prev\""), "the oldest day has no day before")
        XCTAssertTrue(oldest.contains("<a href=\"2026-11-27.html\" rel=\"next\">"), "the next day with cards, weeks later")
        XCTAssertFalse(try read("archive/2026-11-29.html").contains("rel=\"next\""))
        // Dates on archive and source pages say their zone.
        XCTAssertTrue(oldest.contains("2026-10-20 12:00 UTC</time>"))
    }

    func testPluralsEverywhere() throws {
        try fillStore()
        try writeSite()
        for page in try pages() {
            let text = try read(page)
            XCTAssertNil(text.range(of: #"\b1 cards\b"#, options: .regularExpression), page)
        }
        XCTAssertTrue(try read("sources/index.html").contains("<span class=\"count\">1 card</span>"))
    }
}
