import FeedModel
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
    }

    func testAgesAreCoarseSoPagesStayStable() {
        let now = Timestamp(secondsSince1970: 1_000_000)
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 59 * 60), now: now), "under an hour ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 5 * 3_600 - 1), now: now), "5 h ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 30 * 3_600), now: now), "1 day ago")
        XCTAssertEqual(CardHTML.age(of: Timestamp(secondsSince1970: 1_000_000 - 3 * 86_400), now: now), "3 days ago")
    }
}
