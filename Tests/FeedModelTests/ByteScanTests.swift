import FeedModel
import XCTest

/// The word tests and masks that the byte loops (JSON, sanitizer, prepass) skip text with: a
/// false "no" would let a byte through unescaped, a wrong first index would skip one.
final class ByteScanTests: XCTestCase {
    func testMasksFindTheFirstMatchOnRandomWords() {
        var state: UInt64 = 0xDEAD_BEEF_1234_5678
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        // Bytes drawn from a small set around the values tested, so matches, near misses and
        // borrows across bytes are all common.
        let palette: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x26, 0x3C, 0x3E, 0x5C, 0x7F, 0x80, 0xC2, 0xE2, 0xFF, 0x61]
        for _ in 0..<20000 {
            var bytes = [UInt8](repeating: 0, count: 8)
            for k in 0..<8 { bytes[k] = palette[Int(next() % UInt64(palette.count))] }
            let w = bytes.withUnsafeBufferPointer { ByteScan.word($0.baseAddress!, 0) }
            for target in [UInt8(0x22), 0x26, 0x3C, 0x5C, 0xE2, 0x00, 0xFF] {
                let expected = bytes.firstIndex(of: target)
                let m = ByteScan.equalMask(w, target)
                XCTAssertEqual(m == 0 ? nil : ByteScan.firstFlagged(m), expected, "\(bytes) == \(target)")
                XCTAssertEqual(ByteScan.has(w, target), expected != nil)
            }
            for limit in [UInt8(0x20), 0x01, 0x80] {
                let expected = bytes.firstIndex { $0 < limit }
                let m = ByteScan.lessMask(w, limit)
                XCTAssertEqual(m == 0 ? nil : ByteScan.firstFlagged(m), expected, "\(bytes) < \(limit)")
                XCTAssertEqual(ByteScan.hasLess(w, limit), expected != nil)
            }
            // Masks joined with | still give the first byte matching any of them.
            let joined = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0xE2)
            let expected = bytes.firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0xE2 }
            XCTAssertEqual(joined == 0 ? nil : ByteScan.firstFlagged(joined), expected, "\(bytes)")
        }
    }

    func testExactEqualMaskFlagsEveryMatchAndNothingElse() {
        var state: UInt64 = 0x0BAD_CAFE_F00D_1234
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let palette: [UInt8] = [0x00, 0x01, 0x2D, 0x2E, 0x2F, 0x30, 0x7F, 0x80, 0xAE, 0xAF, 0xFF]
        for _ in 0..<20000 {
            var bytes = [UInt8](repeating: 0, count: 8)
            for k in 0..<8 { bytes[k] = palette[Int(next() % UInt64(palette.count))] }
            let w = bytes.withUnsafeBufferPointer { ByteScan.word($0.baseAddress!, 0) }
            for target in [UInt8(0x2E), 0x2F, 0x00, 0xFF, 0x80] {
                var expected: UInt64 = 0
                for k in 0..<8 where bytes[k] == target { expected |= 0x80 << UInt64(8 * k) }
                XCTAssertEqual(ByteScan.exactEqualMask(w, target), expected, "\(bytes) == \(target)")
            }
        }
    }

    func testFirstTrueLaneOfSixteenBytes() {
        var state: UInt64 = 0xABCD_EF01_2345_6789
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let palette: [UInt8] = [0x00, 0x1F, 0x20, 0x22, 0x26, 0x3C, 0x61, 0x7F, 0x80, 0xE2, 0xFF]
        for _ in 0..<20000 {
            var bytes = [UInt8](repeating: 0x61, count: 16)
            for k in 0..<16 where next() % 4 == 0 { bytes[k] = palette[Int(next() % UInt64(palette.count))] }
            let v = bytes.withUnsafeBufferPointer { ByteScan.vector($0.baseAddress!, 0) }
            let hit = (v .< SIMD16(repeating: 0x20)) .| (v .== SIMD16(repeating: 0x22)) .| (v .== SIMD16(repeating: 0xE2))
            let expected = bytes.firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0xE2 }
            XCTAssertEqual(any(hit) ? ByteScan.firstTrue(hit) : nil, expected, "\(bytes)")
        }
    }

    func testFirstNonASCIIAtEveryPlace() {
        for length in [0, 1, 7, 8, 9, 31, 32, 33, 70] {
            for place in 0...length {
                var bytes = [UInt8](repeating: 0x61, count: length)
                if place < length { bytes[place] = 0xC3 }
                for start in [0, min(3, length)] {
                    let found = bytes.withUnsafeBufferPointer { ByteScan.firstNonASCII($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, to: length) }
                    let expected = place >= start ? place : length
                    XCTAssertEqual(found, expected, "length \(length), non-ASCII at \(place), from \(start)")
                }
            }
        }
    }

    func testWordIsTheBytesInMemoryOrder() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let w = bytes.withUnsafeBufferPointer { ByteScan.word($0.baseAddress!, 1) }
        XCTAssertEqual(w, 0x0908_0706_0504_0302)
    }
}

/// The byte buffer of the hot writers: what goes in comes out, across growth and truncation.
final class ByteSinkTests: XCTestCase {
    func testAppendsGrowTruncateAndReuse() {
        var sink = ByteSink(capacity: 1)
        var expected: [UInt8] = []
        var state: UInt64 = 5
        for round in 0..<2000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            switch state % 5 {
            case 0: sink.append(UInt8(truncatingIfNeeded: state)); expected.append(UInt8(truncatingIfNeeded: state))
            case 1:
                let piece = (0..<Int(state % 40)).map { UInt8(truncatingIfNeeded: $0 &+ round) }
                sink.append(contentsOf: piece); expected += piece
            case 2: sink.append(contentsOf: "é\u{1F680}"); expected += Array("é\u{1F680}".utf8)
            case 3: sink.append(contentsOf: "&amp;" as StaticString); expected += Array("&amp;".utf8)
            default:
                let cut = expected.count / 2
                sink.removeSubrange(cut...); expected.removeSubrange(cut...)
            }
            XCTAssertEqual(sink.count, expected.count)
        }
        XCTAssertEqual(sink.array, expected)
        XCTAssertEqual(sink[0], expected[0])
        sink.removeAll()
        XCTAssertTrue(sink.isEmpty)
        sink.append(contentsOf: [1, 2, 3])
        XCTAssertEqual(sink.array, [1, 2, 3])
    }

    /// Short appends are copied word-wise (two overlapping loads): every length up to 20, at
    /// every offset of the output, leaves exactly the bytes given and nothing around them.
    func testShortAppendsOfEveryLength() {
        let source = (0..<40).map { UInt8($0 + 100) }
        for prefix in 0..<9 {
            for length in 0...20 {
                var sink = ByteSink(capacity: 64)
                sink.append(contentsOf: [UInt8](repeating: 7, count: prefix))
                source.withUnsafeBufferPointer { sink.append($0.baseAddress! + 3, count: length) }
                sink.append(9)
                XCTAssertEqual(sink.array, [UInt8](repeating: 7, count: prefix) + source[3..<(3 + length)] + [9], "\(prefix) \(length)")
            }
        }
    }
}
