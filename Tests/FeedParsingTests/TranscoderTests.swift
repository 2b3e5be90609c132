import FeedModel
import XCTest
@testable import FeedParsing

/// The UTF-8 input layer copies well-formed text in runs and rewrites only what needs it: any
/// chunking must give the same bytes, well-formed, and clean UTF-8 must pass unchanged.
final class TranscoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], cuts: [Int]) -> (out: [UInt8], repaired: Int) {
        let t = Transcoder(encoding: .utf8)
        var out: [UInt8] = []
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            bytes[start..<cut].withUnsafeBufferPointer { t.decode($0, final: cut == bytes.count, into: &out) }
            start = cut
        }
        return (out, t.repairedBytes)
    }

    func testCleanUTF8PassesUnchanged() {
        let text = Array(String(repeating: "plain ASCII words, café, 東京, 🚀 — ", count: 50).utf8)
        XCTAssertEqual(decode(text, cuts: []).out, text)
        XCTAssertEqual(decode(text, cuts: [1, 7, 8, 9, 33, 34, 35, 100]).out, text)
        XCTAssertEqual(decode(text, cuts: []).repaired, 0)
    }

    /// A chunk that is its own decoding skips the copy; anything to rewrite or carry does not.
    func testPassingThroughOnlyWhatNeedsNoRewrite() {
        func passes(_ bytes: [UInt8], encoding: TextEncoding = .utf8) -> Bool {
            bytes.withUnsafeBufferPointer { Transcoder(encoding: encoding).passesThrough($0) }
        }
        XCTAssertTrue(passes(Array("plain, café, 東京, 🚀 and more plain text".utf8)))
        XCTAssertTrue(passes([]))
        XCTAssertFalse(passes(Array("cut 東".utf8).dropLast()), "a sequence cut by the chunk's end")
        XCTAssertFalse(passes([0x61, 0xE9, 0x62]), "Latin-1 byte")
        XCTAssertFalse(passes([0x61, 0xC2, 0x92]), "C1 character")
        XCTAssertFalse(passes(Array("plain".utf8), encoding: .windows1252))
        // After a cut sequence is carried, the next chunk goes through decode to join it.
        let t = Transcoder(encoding: .utf8)
        var out: [UInt8] = []
        let first = Array("x東".utf8).dropLast()
        Array(first).withUnsafeBufferPointer { t.decode($0, final: false, into: &out) }
        XCTAssertFalse([0xB1, 0x61].withUnsafeBufferPointer { t.passesThrough($0) })
    }

    func testUTF8EncodingMatchesSwift() {
        for value in [0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2019, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F680, 0x10FFFF] as [UInt32] {
            var mine: [UInt8] = []
            appendUTF8(value, to: &mine)
            var sink = ByteSink(capacity: 1)
            appendUTF8(value, to: &sink)
            XCTAssertEqual(mine, Array(String(Unicode.Scalar(value)!).utf8), "U+\(String(value, radix: 16))")
            XCTAssertEqual(sink.array, mine)
        }
    }

    func testRepairsAreTheSameWhateverTheChunks() {
        var state: UInt64 = 0xABCD_EF01
        func next(_ n: Int) -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(n)) }
        let pieces: [[UInt8]] = [Array("text ".utf8), Array("é".utf8), Array("東".utf8), Array("🚀".utf8), [0xE9], [0x92],
                                 [0xC2, 0x92], [0xED, 0xA0, 0x80], [0xF0, 0x9F], [0xC0, 0xAF], Array("12345678".utf8), [0xFF]]
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + next(20)) { bytes += pieces[next(pieces.count)] }
            let whole = decode(bytes, cuts: [])
            XCTAssertTrue(whole.out.withUnsafeBufferPointer(UTF8Text.isWellFormed), "\(bytes)")
            let cuts = (0..<next(5)).map { _ in next(bytes.count + 1) }
            let chunked = decode(bytes, cuts: cuts)
            XCTAssertEqual(chunked.out, whole.out, "\(bytes) cut at \(cuts)")
            XCTAssertEqual(chunked.repaired, whole.repaired, "\(bytes) cut at \(cuts)")
        }
        // windows-1252 where UTF-8 fails, and for the C1 characters.
        XCTAssertEqual(String(decoding: decode([0x61, 0xE9, 0x62], cuts: []).out, as: UTF8.self), "aéb")
        XCTAssertEqual(String(decoding: decode([0xC2, 0x92], cuts: [1]).out, as: UTF8.self), "\u{2019}")
    }
}

/// The builder's cache of names by address: a lookup gives what was stored, and a full table
/// still answers (computing, not storing).
final class PointerCacheTests: XCTestCase {
    func testValuesAndBound() {
        var cache = PointerCache<Int>()
        let base = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        defer { base.deallocate() }
        var computed = 0
        for round in 0..<2 {
            for i in 0..<1000 {
                let value = cache.value(for: UnsafeRawPointer(base + i * 4)) { computed += 1; return i * 7 }
                XCTAssertEqual(value, i * 7)
            }
            // The first round computes all 1000; the second only those that did not fit.
            if round == 0 { XCTAssertEqual(computed, 1000) }
        }
        XCTAssertEqual(computed, 1000 + (1000 - 384))
        cache.set(-1, for: UnsafeRawPointer(base))
        XCTAssertEqual(cache.value(for: UnsafeRawPointer(base)) { 0 }, -1)
    }
}
