@testable import ContractChecks
@testable import FeedModel
import TestSupport
import XCTest

/// The `text` fuzz target (issue 15) on generated inputs, in the suite: fields made of every
/// class of control (C0, DEL, C1, bidi, line separators, escape sequences) and random bytes;
/// and its check itself, which must catch a raw control or the fuzzing proves nothing.
final class TextWritersTests: XCTestCase {
    static let pieces: [[UInt8]] = [
        Array("\u{1B}[2J".utf8), Array("\u{1B}]0;pwned\u{07}".utf8), Array("\u{1B}]52;c;eA==\u{1B}\\".utf8),
        Array("\u{9B}31m".utf8), [0x9B], [0x1B], [0x07], [0x00], [0x7F], [0x0D], [0x0A], [0x09], [0x08],
        Array("\u{202E}".utf8), Array("\u{2067}".utf8), Array("\u{2028}".utf8), Array("\u{200F}".utf8),
        Array("<p>".utf8), Array("&#27;".utf8), Array("&#x9b;".utf8), Array(" word ".utf8), Array("日本".utf8),
    ]

    func testGeneratedCardsWithControlsInEveryFieldKeepTheTerminalSafe() throws {
        var random = SplitMix64(seed: 1515)
        for _ in 0..<400 {
            var input: [UInt8] = []
            for field in 0..<7 {
                if field > 0 { input.append(0xFF) }
                for _ in 0..<Int.random(in: 0...5, using: &random) {
                    if Bool.random(using: &random) {
                        input += Self.pieces.randomElement(using: &random)!
                    } else {
                        input += (0..<Int.random(in: 1...4, using: &random)).map { _ in UInt8.random(in: 0...0xFE, using: &random) }
                    }
                }
            }
            XCTAssertNoThrow(try FuzzTarget.text.run(input), "\(input)")
        }
    }

    func testTheCheckCatchesRawControls() {
        for bad in ["a\u{1B}]0;x\u{07}", "a\u{9B}2J", "a\u{202E}b", "a\u{07}", "a\rb", "a\u{2028}"] {
            XCTAssertThrowsError(try TextWriters.terminalSafe(bad, keepsLines: true, styled: false, "test"), bad.debugDescription)
        }
        XCTAssertThrowsError(try TextWriters.terminalSafe("a\nb", keepsLines: false, styled: false, "test"))
        XCTAssertThrowsError(try TextWriters.terminalSafe("\u{1B}]0;x\u{07}", keepsLines: true, styled: true, "test"))
        XCTAssertNoThrow(try TextWriters.terminalSafe("\u{1B}[1;33mtitle\u{1B}[0m\nx", keepsLines: true, styled: true, "test"))
    }

    func testTheNeutraliserShowsEachClass() {
        XCTAssertEqual(TerminalText.line("a\u{1B}]0;t\u{07}b"), #"a\x1b]0;t\x07b"#)
        XCTAssertEqual(TerminalText.line("\u{9B}\u{7F}\u{00}"), #"\x9b\x7f\x00"#)
        XCTAssertEqual(TerminalText.line("x\u{202E}y\u{2066}z\u{2028}"), #"x\u202ey\u2066z\u2028"#)
        XCTAssertEqual(TerminalText.line("one\ntwo\r\tthree"), "one two  three")
        XCTAssertEqual(TerminalText.lines("one\ntwo\r\tthree"), "one\ntwo\\x0d    three")
        let plain = "Café · 日本 — 🦆"
        XCTAssertEqual(TerminalText.line(plain), plain)
        XCTAssertEqual(TerminalText.line("ǛǛ"), "ǛǛ", "a continuation byte 0x9B is no C1 control")
    }

    /// The byte test that lets clean text through unchanged agrees with the neutraliser on every
    /// scalar of the first planes (alone, between ASCII, at either end, next to another one),
    /// both for one-line fields and laid-out text: a character is let through untouched exactly
    /// when the neutraliser keeps it.
    func testTheCleanTextShortcutAgreesWithTheNeutraliserOnEveryScalar() {
        let scalars = (0..<0x3100).compactMap(Unicode.Scalar.init) + (0xFE00..<0x10000).compactMap(Unicode.Scalar.init)
            + [Unicode.Scalar(0x1F600)!, Unicode.Scalar(0x10FFFF)!]
        for scalar in scalars {
            for text in ["\(scalar)", "a\(scalar)b", "x\(scalar)", "\(scalar)·", "é\(scalar)\u{2014}", "\n\(scalar)"] {
                let name = "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)"
                let lineClean = !text.unicodeScalars.contains(where: TerminalText.isNeutralised)
                let linesClean = !text.unicodeScalars.contains { TerminalText.isNeutralised($0) && $0 != "\n" }
                XCTAssertEqual(TerminalText.isClean(text.utf8, keepLines: false), lineClean, name)
                XCTAssertEqual(TerminalText.isClean(text.utf8, keepLines: true), linesClean, name + " laid out")
            }
        }
        XCTAssertEqual(TerminalText.line("cards 3 (1 unread) · last fetch —"), "cards 3 (1 unread) · last fetch —")
        XCTAssertEqual(TerminalText.line("a\u{85}b\u{202E}c"), "a\\x85b\\u202ec")
    }

    /// The line appended to a byte sink (`feeds sources` writes its names and URLs so) is the
    /// line `line` gives, byte for byte: for every scalar of the first planes in the places
    /// above, and for generated text with controls of every class among ordinary characters.
    func testAppendedLinesAreTheNeutralisedLines() {
        func appended(_ text: String) -> [UInt8] {
            var sink = ByteSink(capacity: 16)
            sink.append(contentsOf: "> " as StaticString)
            TerminalText.appendLine(text, to: &sink)
            return sink.withUnsafeBufferPointer { Array($0) }
        }
        let scalars = (0..<0x3100).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1F600)!, Unicode.Scalar(0x10FFFF)!]
        for scalar in scalars {
            for text in ["\(scalar)", "a\(scalar)b", "é\(scalar)\u{2014}", "\n\(scalar)\t"] {
                XCTAssertEqual(appended(text), Array(("> " + TerminalText.line(text)).utf8), "U+\(String(scalar.value, radix: 16))")
            }
        }
        var random = SplitMix64(seed: 4242)
        let pieces = ["a", "é", "·", "\u{1b}[2J", "\u{9b}", "\u{202e}", "\u{2028}", "\r\n", "\t", "\\x1b", "東", "\u{7f}", "\u{0}", " "]
        for _ in 0..<2_000 {
            let text = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            XCTAssertEqual(appended(text), Array(("> " + TerminalText.line(text)).utf8), text.debugDescription)
        }
    }
}
