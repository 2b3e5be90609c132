@testable import Fetching
import FeedModel
import TestSupport
import XCTest

/// Issue 21: a response head's lines are read on their bytes (`HeaderLine`). A generator of lines
/// around every byte the reading looks for (blanks at either end and inside, ":", the status
/// line's spaces, "HTTP/"), with what could make bytes and scalars disagree (combining marks
/// after them, invalid UTF-8, non-ASCII blanks, CR LF): each line reads as the scalar-by-scalar
/// reading (kept here as the reference) says.
final class HeaderLineTests: XCTestCase {
    static let pieces: [[UInt8]] = [
        " ", "  ", "\t", "\r\n", "\r", "\n", ":", "::", ": ", "HTTP/", "HTTP/1.1", "HTTP/2", "http/", "200", "304", "1000",
        "-1", "0", "103", "OK", "Not Modified", "Location", "location", "ETag", "\"x\"", "\u{301}", ":\u{301}", " \u{301}",
        "\u{A0}", "\u{2028}", "é", "🦆", "a", "Z9",
    ].map { Array($0.utf8) } + [[0xFF], [0xE2, 0x82], [0xC3], [0x80]]

    /// The reference: the line as text, trimmed, searched and split scalar by scalar.
    static func reference(_ bytes: [UInt8]) -> HeaderLine {
        func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\n" }
        func trim(_ s: String.UnicodeScalarView.SubSequence) -> String {
            var v = s
            while let c = v.first, isBlank(c) { v.removeFirst() }
            while let c = v.last, isBlank(c) { v.removeLast() }
            return String(String.UnicodeScalarView(v))
        }
        let line = trim(String(decoding: bytes, as: UTF8.self).unicodeScalars[...])
        if line.unicodeScalars.starts(with: "HTTP/".unicodeScalars) {
            let words = line.unicodeScalars.split(separator: " ", maxSplits: 2)
            let status = words.count >= 2 ? OutsideNumber.int(String(String.UnicodeScalarView(words[1])), in: 0...999) ?? 0 : 0
            return .status(status)
        }
        guard !line.isEmpty else { return .ignored }
        if let first = bytes.first, first == 0x20 || first == 0x09 { return .continuation(line) }
        guard let colon = line.unicodeScalars.firstIndex(of: ":") else { return .ignored }
        return .field(name: trim(line.unicodeScalars[..<colon]), value: trim(line.unicodeScalars[line.unicodeScalars.index(after: colon)...]))
    }

    func testLinesReadAsScalarByScalarDoes() {
        var random = SplitMix64(seed: 21)
        for _ in 0..<30_000 {
            let line = (0..<Int.random(in: 0...7, using: &random)).flatMap { _ in Self.pieces.randomElement(using: &random)! }
            let read = line.withUnsafeBytes { HeaderLine.read($0) }
            XCTAssertEqual(read, Self.reference(line), String(decoding: line, as: UTF8.self).debugDescription)
        }
    }

    func testTheLinesOfAResponseHead() {
        func read(_ s: String) -> HeaderLine { Array(s.utf8).withUnsafeBytes { HeaderLine.read($0) } }
        XCTAssertEqual(read("HTTP/1.1 304 Not Modified\r\n"), .status(304))
        XCTAssertEqual(read("HTTP/2 200\r\n"), .status(200))
        XCTAssertEqual(read("HTTP/1.1 99999 Odd\r\n"), .status(0))
        XCTAssertEqual(read("ETag:  \"abc\" \r\n"), .field(name: "ETag", value: "\"abc\""))
        XCTAssertEqual(read("Location: http://a/b?c=d:e\r\n"), .field(name: "Location", value: "http://a/b?c=d:e"))
        XCTAssertEqual(read("\t more text\r\n"), .continuation("more text"))
        XCTAssertEqual(read("\r\n"), .ignored)
        XCTAssertEqual(read("no colon here\r\n"), .ignored)
    }
}
