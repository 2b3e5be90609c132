@testable import Reader
import XCTest

/// Highlighting finds the words the search found: the same folding as the index (issue 19),
/// and the words of a query typed with punctuation.
final class SearchHighlightFoldingTests: XCTestCase {
    func testFoldedWordsAreHighlighted() {
        let cases: [(query: String, word: String)] = [("fussball", "Fußball"), ("FUSSBALL", "fußball"), ("first", "ﬁrst"),
                                                      ("full", "ＦＵＬＬ"), ("οδος", "ΟΔΟΣ"), ("kirmizi", "Kırmızı"), ("cafe", "Café")]
        for (query, word) in cases {
            XCTAssertTrue(SearchHighlight(query: query).matches(word), "\(query) highlights \(word)")
        }
        XCTAssertFalse(SearchHighlight(query: "fussball").matches("Fußbal"))
    }

    func testWordsWithPunctuationHighlightTheirParts() {
        let highlight = SearchHighlight(query: "heat-pump title:node.js")
        for word in ["Heat", "pump", "Node", "js"] { XCTAssertTrue(highlight.matches(word), word) }
        XCTAssertFalse(highlight.matches("title"))
    }
}
