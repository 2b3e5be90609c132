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

    func testWordIsTheBytesInMemoryOrder() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let w = bytes.withUnsafeBufferPointer { ByteScan.word($0.baseAddress!, 1) }
        XCTAssertEqual(w, 0x0908_0706_0504_0302)
    }
}
