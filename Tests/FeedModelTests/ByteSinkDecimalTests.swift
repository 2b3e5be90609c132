import FeedModel
import TestSupport
import XCTest

/// `ByteSink.appendDecimal`, the one number writer of the JSON writers and the listings: the
/// digits `String(n)` has, sign included, whatever the number.
final class ByteSinkDecimalTests: XCTestCase {
    private func written(_ fill: (inout ByteSink) -> Void) -> String {
        var sink = ByteSink(capacity: 16)
        sink.append(UInt8(ascii: "#"))
        fill(&sink)
        return sink.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    func testDigitsAsStringHasThem() {
        var random = SplitMix64(seed: 77)
        var numbers: [UInt] = [0, 1, 9, 10, 11, 99, 100, 999, 1_000, 9_999, 10_000, UInt(UInt32.max), UInt.max, UInt.max - 1,
                               10_000_000_000_000_000_000, 9_999_999_999_999_999_999]
        for _ in 0..<3_000 { numbers.append(UInt(random.next() >> (random.next() % 64))) }
        for n in numbers {
            XCTAssertEqual(written { $0.appendDecimal(n) }, "#" + String(n), "\(n)")
            let signed = Int(bitPattern: n)
            XCTAssertEqual(written { $0.appendDecimal(signed) }, "#" + String(signed), "\(signed)")
        }
        XCTAssertEqual(written { $0.appendDecimal(Int.min) }, "#" + String(Int.min))
    }
}
