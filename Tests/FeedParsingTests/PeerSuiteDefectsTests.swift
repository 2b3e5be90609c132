import FeedModel
@testable import FeedParsing
import XCTest

/// Issue 17: defects other parsers' test suites find (feedparser, feed-rs, sfeed), each on a
/// fixture of ours under Tests/Fixtures/feeds/peers.
final class PeerSuiteDefectsTests: XCTestCase {
    func testAtomContentOfANonTextNonXMLTypeIsBase64() throws {
        let f = try parseFixture("peers/atom-base64-content.xml")
        XCTAssertEqual(f.cards.first?.description, "<p>Decoded <b>body</b> from base64</p>")
    }

    func testAnAtomEntryDocumentIsAFeedOfOne() throws {
        let f = try parseFixture("peers/atom-entry-document.xml")
        XCTAssertEqual(f.format, .atom10)
        XCTAssertEqual(f.cards.count, 1)
        let card = try XCTUnwrap(f.cards.first)
        XCTAssertEqual(card.title, "A lone entry")
        XCTAssertEqual(card.link, "http://peers.example/entries/one.html")   // xml:base on the root, not rel="self"
        XCTAssertEqual(card.author, "Entry Author")
        XCTAssertEqual(card.updated.map(\.iso8601), "2024-03-02T08:30:00Z")
    }

    func testAnEmptyContentEncodedDoesNotHideTheDescription() throws {
        let f = try parseFixture("peers/rss-empty-content-encoded.xml")
        XCTAssertEqual(f.cards.map(\.description), ["The description is the body.", "<p>Also the body.</p>", "<p>The full text wins.</p>"])
    }

    func testWeekdaysInAnyLanguageAreIgnoredAndMonthsAreRead() throws {
        let f = try parseFixture("peers/rss-foreign-dates.xml")
        let dates = Dictionary(uniqueKeysWithValues: f.cards.map { ($0.title ?? "", $0.published.map(\.iso8601)) })
        XCTAssertEqual(dates["fr"], "2022-11-15T23:38:15Z")
        XCTAssertEqual(dates["fr-full"], "2023-02-02T08:00:00Z")
        XCTAssertEqual(dates["de"], "2023-03-15T11:00:00Z")
        XCTAssertEqual(dates["es"], "2023-01-09T18:30:00Z")
        XCTAssertEqual(dates["it"], "2023-06-01T05:15:00Z")
        XCTAssertEqual(dates["pt"], "2023-10-08T00:00:00Z")
        XCTAssertEqual(dates["nl"], "2023-12-12T09:00:00Z")
        XCTAssertEqual(dates["fr-juillet"], "2023-07-14T20:00:00Z")
    }

    func testMonthNamesInSixLanguagesAndNoAmbiguousPrefix() {
        let months: [(String, Int)] = [
            ("janvier", 1), ("Februar", 2), ("marzo", 3), ("avr", 4), ("maggio", 5), ("junho", 6), ("juil", 7),
            ("août", 8), ("setembro", 9), ("okt", 10), ("noviembre", 11), ("déc", 12), ("dez", 12), ("mei", 5),
            ("maart", 3), ("ene", 1), ("gen", 1), ("ago", 8), ("ott", 10), ("dic", 12),
        ]
        for (name, month) in months {
            let text = "12 \(name) 2023 10:00:00 GMT"
            let expected = String(format: "2023-%02d-12T10:00:00Z", month)
            XCTAssertEqual(FeedDate.parse(text).map(\.iso8601), expected, text)
        }
        XCTAssertNil(FeedDate.parse("12 jui 2023 10:00:00 GMT"), "juin or juillet: not a guess")
        // A weekday that is not one stays an error when no comma says it is one.
        XCTAssertNil(FeedDate.parse("foo 12 Jan 2023 10:00:00 GMT"))
    }

    func testARelSelfLinkIsNeverTheSiteLink() throws {
        let rss = try parseFixture("peers/rss-self-link.xml")
        XCTAssertEqual(rss.feed.link, "http://peers.example/")
        XCTAssertEqual(rss.cards.first?.link, "http://peers.example/item")
        let atom = try parseFixture("peers/atom-self-link-first.xml")
        XCTAssertEqual(atom.feed.link, "http://peers.example/site")
        XCTAssertEqual(atom.cards.first?.link, "http://peers.example/e")
    }
}
