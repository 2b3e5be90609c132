import XCTest
import FeedModel

final class TextRulesTests: XCTestCase {
    // MARK: - collapseWhitespace

    func testCollapsesRunsToOneSpaceAndTrims() {
        XCTAssertEqual(TextRules.collapseWhitespace("  a   b\t\tc\n\nd  "), "a b c d")
        XCTAssertEqual(TextRules.collapseWhitespace("a \t\n\r b"), "a b")
        XCTAssertEqual(TextRules.collapseWhitespace("line one\r\nline two"), "line one line two")
    }

    func testCollapseOfEmptyAndBlank() {
        XCTAssertEqual(TextRules.collapseWhitespace(""), "")
        XCTAssertEqual(TextRules.collapseWhitespace(" \t\r\n "), "")
    }

    func testCollapseLeavesSingleSpacesAlone() {
        XCTAssertEqual(TextRules.collapseWhitespace("already clean text"), "already clean text")
        XCTAssertEqual(TextRules.collapseWhitespace("x"), "x")
    }

    func testCollapsesASCIISpaceControls() {
        XCTAssertEqual(TextRules.collapseWhitespace("a\u{C}f\u{B}g\r\n\th"), "a f g h")
    }

    func testTypographicSpacesAndJoinersAreContent() {
        // em space, thin space, ideographic space, zero-width joiner: chosen by the writer
        XCTAssertEqual(TextRules.collapseWhitespace("a \u{2003} b\u{2009}c\u{3000}d \u{200D} e"),
                       "a \u{2003} b\u{2009}c\u{3000}d \u{200D} e")
    }

    func testNoBreakSpaceIsKept() {
        XCTAssertEqual(TextRules.collapseWhitespace("10\u{A0}km  away"), "10\u{A0}km away")
        XCTAssertEqual(TextRules.collapseWhitespace(" \u{A0} "), "\u{A0}")
    }

    func testCollapseAcceptsSubstrings() {
        let s = "xx  a  b  yy"
        let sub = s.dropFirst(2).dropLast(2)
        XCTAssertEqual(TextRules.collapseWhitespace(sub), "a b")
    }

    func testCollapseKeepsNonASCII() {
        XCTAssertEqual(TextRules.collapseWhitespace(" Árvíz \n tűrő 😀 "), "Árvíz tűrő 😀")
    }

    // MARK: - truncate

    func testShortTextIsUnchanged() {
        XCTAssertEqual(TextRules.truncate("short", to: 10), "short")
        XCTAssertEqual(TextRules.truncate("exactly10!", to: 10), "exactly10!", "exactly the limit is not cut")
        XCTAssertEqual(TextRules.truncate("", to: 5), "")
    }

    func testCutsAtLastWordBoundaryWithEllipsis() {
        let s = "The quick brown fox jumps over the lazy dog"
        // first 20 characters: "The quick brown fox " -> last space at 19
        XCTAssertEqual(TextRules.truncate(s, to: 20), "The quick brown fox…")
        // first 18: "The quick brown fo" -> cut back to "The quick brown"
        XCTAssertEqual(TextRules.truncate(s, to: 18), "The quick brown…")
    }

    func testKeepsWholeWordEndingExactlyAtLimit() {
        // The first 11 characters end with a complete word ("bbbb" is followed by a space), so
        // nothing needs cutting back.
        XCTAssertEqual(TextRules.truncate("aaaaaa bbbb cccc", to: 11), "aaaaaa bbbb…")
        XCTAssertEqual(TextRules.truncate("The quick brown fox jumps", to: 15), "The quick brown…")
    }

    func testCutsMidWordWhenNoBoundaryIsNear() {
        // The only space is in the first half of the kept text: cut at the limit instead.
        XCTAssertEqual(TextRules.truncate("ab cdefghijklmnop", to: 10), "ab cdefghi…")
        XCTAssertEqual(TextRules.truncate("abcdefghijklmnop", to: 5), "abcde…")
        // A space exactly at half the limit is not "near" enough either.
        XCTAssertEqual(TextRules.truncate("abcde fghijklmnop", to: 10), "abcde fghi…")
        // Just past half is.
        XCTAssertEqual(TextRules.truncate("abcdef ghijklmnop", to: 10), "abcdef…")
    }

    func testKeptTextNeverExceedsLimit() {
        let words = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore"
        for limit in 1..<words.count {
            let t = TextRules.truncate(words, to: limit)
            XCTAssertTrue(t.hasSuffix("…"), "limit \(limit): \(t)")
            let kept = t.dropLast()
            XCTAssertLessThanOrEqual(kept.count, limit, "limit \(limit): \(t)")
            XCTAssertTrue(words.hasPrefix(kept), "limit \(limit): \(t)")
            XCTAssertFalse(kept.hasSuffix(" "), "limit \(limit): \(t)")
        }
    }

    func testTruncateCountsCharactersNotBytes() {
        XCTAssertEqual(TextRules.truncate("ééééé", to: 5), "ééééé")
        XCTAssertEqual(TextRules.truncate("😀😀😀😀😀😀", to: 3), "😀😀😀…")
        XCTAssertEqual(TextRules.truncate("e\u{301}e\u{301}e\u{301}", to: 2), "e\u{301}e\u{301}…")
    }

    // MARK: - nonBlank

    func testNonBlank() {
        XCTAssertNil(TextRules.nonBlank(nil))
        XCTAssertNil(TextRules.nonBlank(""))
        XCTAssertNil(TextRules.nonBlank("   "))
        XCTAssertNil(TextRules.nonBlank(" \t\r\n "))
        XCTAssertNil(TextRules.nonBlank("\u{A0}\u{2003}"))
        XCTAssertEqual(TextRules.nonBlank("x"), "x")
        XCTAssertEqual(TextRules.nonBlank("  Hello  World \n"), "Hello  World", "inner white space is kept")
        XCTAssertEqual(TextRules.nonBlank("\u{FEFF}id-1"), "id-1", "a leading byte-order mark is dropped")
        XCTAssertEqual(TextRules.nonBlank("\r\nvalue\r\n"), "value")
    }
}
