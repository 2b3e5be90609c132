import FeedModel
import TestSupport
import XCTest

/// `ByteSink.appendDecimal`, the one digit writer of the JSON writers and the listings: the
/// digits `String(n)` has, zeros in front up to the width asked for, whatever the number.
final class ByteSinkDecimalTests: XCTestCase {
    private func written(_ n: UInt, _ width: Int) -> String {
        var sink = ByteSink(capacity: 16)
        sink.append(UInt8(ascii: "#"))
        sink.appendDecimal(n, minimumWidth: width)
        return sink.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    func testDigitsAsStringHasThem() {
        var random = SplitMix64(seed: 77)
        var numbers: [UInt] = [0, 1, 9, 10, 11, 99, 100, 999, 1_000, 9_999, 10_000, UInt(UInt32.max), UInt.max, UInt.max - 1,
                               10_000_000_000_000_000_000, 9_999_999_999_999_999_999]
        for _ in 0..<3_000 { numbers.append(UInt(random.next() >> (random.next() % 64))) }
        for n in numbers {
            for width in [0, 1, 2, 4, 7, 21] {
                let digits = String(n)
                XCTAssertEqual(written(n, width), "#" + String(repeating: "0", count: max(0, width - digits.count)) + digits, "\(n) width \(width)")
            }
        }
    }
}
