import FeedModel
import Storage
@testable import HTMLDigest
import XCTest

/// Excerpts: plain text of the description's head, on one line, cut at a word.
final class ExcerptTests: XCTestCase {
    func testHeadTextCutsBetweenWordsAndTags() {
        let html = "<p>" + String(repeating: "word ", count: 300) + "</p>"
        let head = CardHTML.headText(html, bytes: 50)
        XCTAssertEqual(head, Array(repeating: "word", count: 9).joined(separator: " "))
        // Never inside an entity or a tag: the cut moves back to a space or a '>'.
        let entities = "<p>" + String(repeating: "&amp;&eacute; ", count: 20) + "</p>"
        let decoded = CardHTML.headText(entities, bytes: 40)
        XCTAssertEqual(decoded, "&é &é")
        XCTAssertFalse(decoded.contains("&a") || decoded.contains("&e"))
        XCTAssertEqual(CardHTML.headText("<p>short <b>text</b></p>", bytes: 800), "short text")
    }

    func testOneLineAndCut() {
        XCTAssertEqual(CardHTML.oneLine("  a\n\nb\t c  "), "a b c")
        XCTAssertEqual(CardHTML.cut("one two three four", at: 12), "one two…")
        XCTAssertEqual(CardHTML.cut("short", at: 12), "short")
        // Characters, not bytes: more bytes than the limit but no more characters is not cut.
        XCTAssertEqual(CardHTML.cut("éééééé", at: 6), "éééééé")
        XCTAssertEqual(CardHTML.cut("🇫🇷🇩🇪 e\u{301}", at: 4), "🇫🇷🇩🇪 e\u{301}")
        XCTAssertEqual(CardHTML.cut("🇫🇷🇩🇪 e\u{301}x", at: 4), "🇫🇷🇩🇪 e\u{301}…")
        XCTAssertEqual(CardHTML.cut("ab cd ef gh", at: 10), "ab cd ef…")
    }

    func testAgesAreCoarseSoPagesStayStable() {
        let now = Timestamp(secondsSince1970: 1_000_000)
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 59 * 60), now: now), "under an hour ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 5 * 3_600 - 1), now: now), "5 h ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 30 * 3_600), now: now), "1 day ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 3 * 86_400), now: now), "3 days ago")
    }
}

/// Excerpts computed ahead on every core are the ones computed one by one.
final class ParallelExcerptTests: DigestTestCase {
    func testPreparedExcerptsEqualSerialOnes() throws {
        let source = try store.upsertSource(SourceConfiguration(url: "https://many.example/feed"), now: now)
        let cards = (0..<1_000).map { i in
            Card(id: "c\(i)", title: "Card \(i)", description: "<p>Item \(i): " + String(repeating: "<b>word</b> \(i) &amp; ", count: i % 90) + "</p>",
                 link: "https://many.example/\(i)", published: hoursAgo(Int64(i)))
        }
        try store.saveFetch(sourceID: source, feed: FeedInfo(), cards: cards, validators: CacheValidators(), now: now, nextDue: nil)
        let stored = try store.cards()
        var html = CardHTML(images: [:])
        html.prepareExcerpts(stored)
        var serial = CardHTML(images: [:])
        for card in stored {
            XCTAssertEqual(html.excerpt(card), CardHTML.makeExcerpt(card))
            XCTAssertEqual(serial.excerpt(card), CardHTML.makeExcerpt(card))
        }
        XCTAssertEqual(html.excerpt(stored.first!), "Item 0:")  // newest first: card 0
        let long = try XCTUnwrap(stored.first { $0.card.id == "c89" })
        XCTAssertTrue(html.excerpt(long).hasPrefix("Item 89: word 89 & word 89"))
        XCTAssertTrue(html.excerpt(long).hasSuffix("…"))
    }

    /// A card shows on several pages of a run (its day's, its source's, its tags'): its excerpt
    /// is made once and kept from page to page, unless the card changed in between.
    func testExcerptsAreKeptFromPageToPageUntilTheCardChanges() throws {
        let source = try store.upsertSource(SourceConfiguration(url: "https://one.example/feed"), now: now)
        try store.saveFetch(sourceID: source, feed: FeedInfo(),
                            cards: [Card(id: "a", title: "A", description: "<p>First <i>words</i></p>", link: "https://one.example/a")],
                            validators: CacheValidators(), now: now, nextDue: nil)
        let first = try XCTUnwrap(store.cards().first)
        var html = CardHTML(images: [:])
        html.prepareExcerpts([first])
        html.forgetTextsPastLimit()  // between pages: far below what it keeps
        var edited = first
        edited.card.description = "<p>Other words</p>"
        XCTAssertEqual(html.excerpt(edited), "First words", "the same card (same changedAt): the kept excerpt")
        edited.changedAt = Timestamp(secondsSince1970: first.changedAt.secondsSince1970 + 1)
        XCTAssertEqual(html.excerpt(edited), "Other words", "the card changed since: made again")
        html.prepareExcerpts([first])
        XCTAssertEqual(html.excerpt(first), "First words")
    }
}
