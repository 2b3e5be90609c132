import XCTest
@testable import Reader

/// Wrapping by display width.
final class TextWrapTests: XCTestCase {
    func testWordsWrapAtTheWidthWithTheIndent() {
        XCTAssertEqual(TextWrap.wrap("one two three four five", width: 12, indent: "  "),
                       ["  one two", "  three four", "  five"])
    }

    func testWideCharactersCountTwoColumns() {
        // Ten CJK characters are twenty columns: a line of 12 holds six of them.
        XCTAssertEqual(TextWrap.wrap("日本語の文章を折り返す", width: 12), ["日本語の文章", "を折り返す"])
        XCTAssertEqual(TextWrap.wrap("😀 😀 😀 😀 😀", width: 10), ["😀 😀 😀", "😀 😀"])
        XCTAssertEqual(TextWrap.wrap("e\u{301}e\u{301}e\u{301} abc", width: 8), ["e\u{301}e\u{301}e\u{301} abc"], "marks take no room")
    }

    func testLongWordsAreCut() {
        XCTAssertEqual(TextWrap.wrap("go https://example.org/abcdefghij end", width: 12),
                       ["go", "https://exam", "ple.org/abcd", "efghij end"])
    }

    func testListItemsHangUnderTheirText() {
        XCTAssertEqual(TextWrap.wrap("• alpha beta gamma\n  • delta epsilon\n12. zeta eta theta", width: 14),
                       ["• alpha beta", "  gamma", "  • delta", "    epsilon", "12. zeta eta", "    theta"])
    }

    /// A numbered marker is one to four ASCII digits, a dot and a space at the start of the
    /// line (after its indent); anything else wraps as plain text.
    func testOnlyShortNumbersAreListMarkers() {
        XCTAssertEqual(TextWrap.wrap("1234. alpha beta", width: 12), ["1234. alpha", "      beta"])
        XCTAssertEqual(TextWrap.wrap("  7. alpha beta", width: 11), ["  7. alpha", "     beta"])
        XCTAssertEqual(TextWrap.wrap("12345. alpha beta", width: 12), ["12345. alpha", "beta"])
        XCTAssertEqual(TextWrap.wrap("2026 was a year. Then more", width: 12), ["2026 was a", "year. Then", "more"])
        XCTAssertEqual(TextWrap.wrap("1.5 kg of apples", width: 8), ["1.5 kg", "of", "apples"])
        XCTAssertEqual(TextWrap.wrap("a. alpha beta", width: 8), ["a. alpha", "beta"])
        XCTAssertEqual(TextWrap.wrap("١. alpha beta", width: 8), ["١. alpha", "beta"], "ASCII digits only")
        XCTAssertEqual(TextWrap.wrap("1\u{301}. alpha beta", width: 9), ["1\u{301}. alpha", "beta"], "a digit with a mark is no digit")
    }

    func testBlankLinesStayBlankAndEscapesTakeNoWidth() {
        XCTAssertEqual(TextWrap.wrap("a\n\nb", width: 10, indent: "  "), ["  a", "", "  b"])
        let bold = "\u{1B}[1mabc\u{1B}[0m"
        XCTAssertEqual(TextWrap.wrap("\(bold) \(bold) \(bold)", width: 7), ["\(bold) \(bold)", bold])
    }

    func testAWideCharacterWiderThanTheLineStillMovesOn() {
        XCTAssertEqual(TextWrap.pieces(of: "日本", first: 1, then: 1), ["日", "本"])
    }
}
