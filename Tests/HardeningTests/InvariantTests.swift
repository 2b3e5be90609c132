@testable import ContractChecks
import FeedModel
import XCTest

/// The checks themselves: each must catch what it is there for, or fuzzing proves nothing.
final class InvariantTests: XCTestCase {
    func testAGoodCardPasses() {
        let card = Card(id: "1", title: "Title", description: "<p>text <a href=\"https://x.example/\">x</a></p>",
                        link: "https://x.example/1", image: "https://x.example/i.png",
                        published: Timestamp(secondsSince1970: 1_700_000_000))
        XCTAssertNoThrow(try Invariant.card(card))
    }

    func testEachBrokenRuleIsCaught() {
        let broken: [(String, Card)] = [
            ("relative link", Card(link: "/relative")),
            ("javascript link", Card(link: "javascript:alert(1)")),
            ("ftp image", Card(image: "ftp://x.example/i.png")),
            ("script", Card(description: "<p>a</p><SCRIPT>alert(1)</SCRIPT>")),
            ("event attribute", Card(description: "<img src=\"https://x.example/i.png\" onerror=\"alert(1)\">")),
            ("javascript url", Card(description: "<a href=\"JavaScript:alert(1)\">x</a>")),
            ("untrimmed title", Card(title: " padded ")),
            ("empty author", Card(author: "")),
            ("enclosure", Card(enclosures: [Enclosure(url: "data:audio/mp3,xx")])),
        ]
        for (what, card) in broken {
            XCTAssertThrowsError(try Invariant.card(card), what)
        }
        // Dates outside 1970-2100: the card itself drops them now (the contract in the type),
        // and the check would still catch one.
        XCTAssertNil(Card(published: Timestamp(secondsSince1970: -1)).published)
        XCTAssertNil(Card(updated: Timestamp(year: 2101, month: 1, day: 1)).updated)
        XCTAssertThrowsError(try Invariant.date(Timestamp(secondsSince1970: -1), "date before 1970"))
        XCTAssertThrowsError(try Invariant.date(Timestamp(year: 2101, month: 1, day: 1)!, "date after 2100"))
    }

    func testEventAttributeDetectionIgnoresText() {
        XCTAssertNoThrow(try Invariant.safeHTML("<p>turn on=off, <b>only</b> text</p>", "text"))
        XCTAssertNoThrow(try Invariant.safeHTML("<p>javascript: the good parts</p>", "text"))
        XCTAssertThrowsError(try Invariant.safeHTML("<a href=\"java\tscript:x\">x</a>", "split"))
        XCTAssertThrowsError(try Invariant.safeHTML("<p/onclick=alert(1)>x</p>", "slash"))
        XCTAssertThrowsError(try Invariant.safeHTML("<p ONMOUSEOVER = 'x'>x</p>", "spaces"))
    }
}
