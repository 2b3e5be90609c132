@testable import Aggregator
import FeedModel
import Foundation
import TestSupport
import XCTest

/// skip=/keep= rules (issue 19): what a line states reads back from what is written, and the
/// filter's decisions on each field, with the bounds on a feed's text.
final class CardRulesTests: XCTestCase {
    func testRulesWrittenForALineReadBackAsThemselves() throws {
        // Patterns with the characters the file's quoting treats specially.
        let patterns = ["(?i)sponsored", "a b", "say \"hi\"", "\\d+\\.\\d+", "#tag", "x\\\\y", "title", "é|ü", "\t"]
        for pattern in patterns {
            for fields in [CardRule.Field.allCases, [.title], [.description]] {
                var entry = SourceEntry(url: "https://a.example/f")
                entry.rules = [CardRule(action: .skip, fields: fields, pattern: pattern, isGlobal: false),
                               CardRule(action: .keep, fields: fields, pattern: pattern, isGlobal: false)]
                let back = try SourcesFile.parse(entry.formatted).first
                XCTAssertEqual(back?.rules, entry.rules, entry.formatted)
            }
        }
    }

    func testTheFilterLooksAtTheFieldsItNames() throws {
        func admits(_ rules: [String], _ card: Card) -> Bool {
            let parsed = rules.map { text -> CardRule in
                let (action, value) = text.hasPrefix("keep=") ? (CardRule.Action.keep, String(text.dropFirst(5))) : (.skip, String(text.dropFirst(5)))
                guard case .success(let rule) = CardRule.parse(action, value) else { XCTFail(text); return CardRule(action: .skip, fields: [], pattern: "x", isGlobal: false) }
                return rule
            }
            return CardRuleFilter(parsed)!.admits(card)
        }
        var card = Card(title: "Hello world")
        card.author = "Ann Ad"
        card.link = "https://ads.example/1"
        card.description = "<p>Some <b>sponsored</b> text</p>"
        XCTAssertFalse(admits(["skip=sponsored"], card), "any field, the description as its text")
        XCTAssertTrue(admits(["skip=title:sponsored"], card))
        XCTAssertFalse(admits(["skip=description:Some sponsored text"], card), "markup is not matched")
        XCTAssertFalse(admits(["skip=author:\\bAd$"], card))
        XCTAssertTrue(admits(["skip=link:^http://"], card))
        XCTAssertTrue(admits(["keep=(?i)HELLO"], card))
        XCTAssertFalse(admits(["keep=title:swift"], card))
        XCTAssertFalse(admits(["keep=Hello", "skip=ads\\.example"], card), "a skip wins over a keep")
        XCTAssertTrue(admits(["skip=title:"  + String(repeating: "x", count: 10)], Card(title: String(repeating: "y", count: 100_000) + "xxxxxxxxxx")),
                      "only the first 4,096 characters of a field are looked at")
    }
}
