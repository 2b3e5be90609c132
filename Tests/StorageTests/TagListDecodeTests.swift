@testable import Storage
import TestSupport
import XCTest

/// Issue 21: stored tags that are ASCII split on the byte " ", the others as Characters; both
/// give what the Character split gives, for generated lists of ASCII words, blanks of every
/// run length, CR LF, and non-ASCII words, some with a combining mark on a space (one
/// Character, which is not " " and so does not split).
final class TagListDecodeTests: XCTestCase {
    static let pieces = ["tech", "a", "Z-9", " ", "  ", "\t", "\r\n", "\r", "\n", "é", "e\u{301}", " \u{301}", "\u{A0}", "日本", "🦆", "x"]

    func testDecodeSplitsAsCharactersDo() {
        var random = SplitMix64(seed: 2103)
        for _ in 0..<20_000 {
            let stored = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            XCTAssertEqual(TagList.decode(stored), stored.split(separator: " ").map(String.init), stored.debugDescription)
        }
        XCTAssertEqual(TagList.decode(" tech  news "), ["tech", "news"])
        XCTAssertEqual(TagList.decode("a \u{301}b"), ["a \u{301}b"], "a space with a mark on it is not a separator")
    }
}
