import FeedModel
import XCTest

/// `UTF8Text` hands bytes over without a String: its well-formedness check must agree with
/// Swift's own validation, and both forms of one text must be the same value.
final class UTF8TextTests: XCTestCase {
    func testWellFormedAgreesWithSwiftOnEdgeCases() {
        let cases: [[UInt8]] = [
            [], [0x41], Array("café 東京 🚀".utf8), [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xC2],
            [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x80], [0xE2, 0x28, 0xA1], [0xF0, 0x9F, 0x9A],
            Array("12345678\u{E9}".utf8), Array("1234567".utf8) + [0xC3], Array(repeating: 0x61, count: 17) + [0xBF],
            // Around the thirty-two-byte ASCII skip.
            Array(repeating: 0x61, count: 15) + [0xFF], Array(repeating: 0x61, count: 16) + [0x80, 0x61],
            Array(repeating: 0x61, count: 31) + [0xC3], Array(repeating: 0x61, count: 32) + [0xC3, 0xA9] + Array(repeating: 0x61, count: 16),
            Array(repeating: 0x61, count: 63) + [0xFF], Array(repeating: 0x61, count: 40) + [0xE2, 0x80],
        ]
        for bytes in cases {
            XCTAssertEqual(bytes.withUnsafeBufferPointer(UTF8Text.isWellFormed), Self.swiftAccepts(bytes), "\(bytes)")
        }
    }

    func testWellFormedAgreesWithSwiftOnRandomBytes() {
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        // Mostly valid text with bytes changed here and there, so both answers are common.
        let pieces = ["a", "plain words ", "é", "—", "東", "🚀", "\n"].map { Array($0.utf8) }
        var accepted = 0, refused = 0
        for _ in 0..<5000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 12) { bytes += pieces[Int(next() % UInt64(pieces.count))] }
            if !bytes.isEmpty && next() % 2 == 0 { bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next()) }
            let expected = Self.swiftAccepts(bytes)
            XCTAssertEqual(bytes.withUnsafeBufferPointer(UTF8Text.isWellFormed), expected, "\(bytes)")
            if expected { accepted += 1 } else { refused += 1 }
        }
        XCTAssertGreaterThan(accepted, 1000)
        XCTAssertGreaterThan(refused, 1000)
    }

    func testBothFormsAreOneValue() {
        let s = "<p>Zürich — 🚀</p>"
        let fromBytes = UTF8Text(validating: Array(s.utf8)), fromString = UTF8Text(s)
        XCTAssertEqual(fromBytes, fromString)
        XCTAssertEqual(fromBytes.hashValue, fromString.hashValue)
        XCTAssertEqual(fromBytes.string, s)
        XCTAssertEqual(fromBytes.utf8Count, s.utf8.count)
        XCTAssertNotEqual(UTF8Text("a"), UTF8Text(validating: Array("b".utf8)))
        var card = Card(description: s)
        XCTAssertEqual(card.descriptionText, fromBytes)
        card.descriptionText = fromBytes
        XCTAssertEqual(card.description, s)
        XCTAssertEqual(card, Card(description: s))
    }

    func testIllFormedBytesAreRepairedOnTheWayIn() {
        let bytes: [UInt8] = [0x61, 0xC3, 0x28, 0x62, 0xED, 0xA0, 0x80]
        let text = UTF8Text(validating: bytes)
        XCTAssertEqual(text.string, String(decoding: bytes, as: UTF8.self))
        // What byte consumers get is well-formed too.
        XCTAssertTrue(text.withUTF8(UTF8Text.isWellFormed))
    }

    private static func swiftAccepts(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }
}
