import XCTest
@testable import Reader

/// Terminal column counts of the characters a feed may hold.
final class DisplayWidthTests: XCTestCase {
    func testASCIIAndLatin() {
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
        XCTAssertEqual(DisplayWidth.of("Café"), 4)
        XCTAssertEqual(DisplayWidth.of("naïve résumé"), 12)
    }

    func testCombiningMarksTakeNoColumn() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("a\u{308}o\u{308}"), 2)
        XCTAssertEqual(DisplayWidth.of("\u{915}\u{94D}\u{937}"), 2, "Devanagari conjunct: two spacing letters, one virama")
    }

    func testWideCharacters() {
        XCTAssertEqual(DisplayWidth.of("日本語"), 6)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)
        XCTAssertEqual(DisplayWidth.of("ｆｕｌｌ"), 8, "fullwidth forms")
        XCTAssertEqual(DisplayWidth.of("かな and 漢字"), 13)
    }

    func testEmoji() {
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2, "a ZWJ family is one picture")
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2, "a flag")
        XCTAssertEqual(DisplayWidth.of("❤️"), 2, "VS16 asks for emoji presentation")
        XCTAssertEqual(DisplayWidth.of("❤"), 1, "without VS16: text presentation")
    }

    func testControlsAndEscapesTakeNoColumn() {
        XCTAssertEqual(DisplayWidth.of("a\u{200B}b"), 2, "zero width space")
        XCTAssertEqual(DisplayWidth.of("\u{1B}[1mbold\u{1B}[0m"), 4)
        XCTAssertEqual(DisplayWidth.of("\u{1B}[38;5;244mx\u{1B}[0m"), 1)
        XCTAssertEqual(DisplayWidth.of("soft\u{AD}hyphen"), 10)
    }
}
