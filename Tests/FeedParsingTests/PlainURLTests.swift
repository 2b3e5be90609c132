@testable import FeedParsing
@testable import Markup
import XCTest

/// The byte-level "already final" tests for URLs (they let the parser and the sanitizer skip the
/// full RFC 3986 parse) against their definitions written plainly, on random URLs built from the
/// characters that decide them: a wrong "yes" would keep a dot segment or a space in a card.
final class PlainURLTests: XCTestCase {
    /// `CardURL.isPlainWebURL` as its doc comment defines it.
    private func plainWebURL(_ s: String) -> Bool {
        let b = Array(s.utf8)
        let start: Int
        if s.hasPrefix("http://") { start = 7 } else if s.hasPrefix("https://") { start = 8 } else { return false }
        guard b.count > 8, start < b.count, ![0x2F, 0x3F, 0x23].contains(b[start]) else { return false }
        if b[start...].contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return false }
        if b.count - 1 > start, (start..<(b.count - 1)).contains(where: { b[$0] == 0x2F && b[$0 + 1] == 0x2E }) { return false }
        let end = b[start...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? b.count
        let host = (b[start..<end].lastIndex(of: 0x40).map { $0 + 1 }) ?? start
        return host < end && b[host] != 0x3A
    }

    /// `HTMLPolicy.isPlainAbsoluteWebURL` as its doc comment defines it.
    private func plainAbsoluteWebURL(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count > 8 else { return false }
        let rest: Int
        if s.hasPrefix("http://") { rest = 7 } else if s.hasPrefix("https://") { rest = 8 } else { return false }
        return !b[rest...].contains { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x26 }
    }

    func testByteTestsAgreeWithTheirDefinitionsOnRandomURLs() {
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let pieces = ["/", ".", "a", "b1", "@", ":", "?", "#", " ", "&", "é", "\u{7F}", "\t", "-", "..", "/.", "x.y", "~"]
        var plainSeen = 0
        for _ in 0..<20000 {
            var url = next() % 2 == 0 ? "https://" : "http://"
            for _ in 0..<Int(next() % 30) { url += pieces[Int(next() % UInt64(pieces.count))] }
            XCTAssertEqual(CardURL.isPlainWebURL(url), plainWebURL(url), url)
            var bytes = Array(url.utf8)
            let plain = bytes.withUnsafeMutableBufferPointer { HTMLPolicy.isPlainAbsoluteWebURL(UnsafeBufferPointer($0)) }
            XCTAssertEqual(plain, plainAbsoluteWebURL(url), url)
            if plain { plainSeen += 1 }
        }
        XCTAssertGreaterThan(plainSeen, 100, "the generator should also make plain URLs")
        // A dot segment right after an eight-byte word boundary, and inside one.
        XCTAssertFalse(CardURL.isPlainWebURL("https://example.org/./x"))
        XCTAssertFalse(CardURL.isPlainWebURL("https://exampl/../x"))
        XCTAssertTrue(CardURL.isPlainWebURL("https://example.org/a.b/c"))
    }
}

/// Trimming of attribute values and labels (`isPermaLink`, `rel`, `version`, lengths), done on bytes.
final class ASCIITrimTests: XCTestCase {
    func testTrimsOnlyASCIIWhitespaceAtTheEnds() {
        XCTAssertEqual("  utf-8\r\n".trimmingASCIIWhitespace, "utf-8")
        XCTAssertEqual("\t\n \r".trimmingASCIIWhitespace, "")
        XCTAssertEqual("".trimmingASCIIWhitespace, "")
        XCTAssertEqual("false".trimmingASCIIWhitespace, "false")
        XCTAssertEqual(" é à ".trimmingASCIIWhitespace, "é à")
        XCTAssertEqual("\u{A0}x\u{A0}".trimmingASCIIWhitespace, "\u{A0}x\u{A0}", "no-break spaces are not ASCII")
        XCTAssertEqual(Int64(" 1234 ".trimmingASCIIWhitespace), 1234)
    }
}
