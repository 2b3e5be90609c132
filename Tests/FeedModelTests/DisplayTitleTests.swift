import XCTest
import FeedModel

final class DisplayTitleTests: XCTestCase {
    /// A stand-in for the HTML-to-text conversion the caller provides: drops tags.
    private static func stripTags(_ html: String) -> String {
        var out = "", inTag = false
        for ch in html {
            if ch == "<" { inTag = true; out.append(" ") } else if ch == ">" { inTag = false } else if !inTag { out.append(ch) }
        }
        return out
    }

    private func display(_ card: Card) -> String { card.displayTitle(plainText: Self.stripTags) }

    func testTitleWins() {
        let card = Card(title: "The title", description: "<p>Body</p>", link: "http://example.com/a")
        XCTAssertEqual(display(card), "The title")
    }

    func testTitleIsNotTruncatedOrCollapsed() {
        let long = String(repeating: "word ", count: 40) + "end"
        XCTAssertEqual(display(Card(title: long)), long)
    }

    func testEmptyTitleFallsBackToText() {
        XCTAssertEqual(display(Card(title: "", description: "<p>Body text</p>")), "Body text")
    }

    func testTextIsThePlainTextCollapsed() {
        let card = Card(description: "<p>First   paragraph.</p>\n\n<p>Second\tone.</p>")
        XCTAssertEqual(display(card), "First paragraph. Second one.")
    }

    func testPlainTextClosureIsUsed() {
        let card = Card(description: "<b>ignored</b>")
        XCTAssertEqual(card.displayTitle(plainText: { _ in "  from   the closure " }), "from the closure")
    }

    func testLongTextIsCutToEightyCharactersAtAWord() {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let title = display(Card(description: "<p>\(words)</p>"))
        XCTAssertTrue(title.hasSuffix("…"), title)
        XCTAssertLessThanOrEqual(title.dropLast().count, 80, title)
        XCTAssertGreaterThan(title.dropLast().count, 40, title)
        XCTAssertTrue(words.hasPrefix(title.dropLast()), title)
        // "word1 … word12" is 74 characters; " word13" would end at 81.
        XCTAssertEqual(title, (1...12).map { "word\($0)" }.joined(separator: " ") + "…")
    }

    func testTextOfEightyCharactersIsKeptWhole() {
        let text = String(repeating: "abcd ", count: 15) + "abcde"
        XCTAssertEqual(text.count, 80)
        XCTAssertEqual(display(Card(description: text)), text)
    }

    func testBlankTextFallsBackToLink() {
        let card = Card(description: "<p> </p><img src=\"x.png\">", link: "http://example.com/item")
        XCTAssertEqual(display(card), "http://example.com/item")
    }

    func testNoTitleNoDescriptionUsesLinkAsGiven() {
        XCTAssertEqual(display(Card(link: "http://Example.com/Item#x")), "http://Example.com/Item#x")
    }

    func testUntitled() {
        XCTAssertEqual(display(Card()), "(untitled)")
        XCTAssertEqual(display(Card(title: "", description: "  ")), "(untitled)")
        XCTAssertEqual(display(Card(image: "http://example.com/a.png", author: "Someone")), "(untitled)",
                       "image and author are not shown as a title")
    }
}
