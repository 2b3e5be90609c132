import FeedModel
import Foundation
import TestSupport
import XCTest

/// Issue 21: the listings' time (`Timestamp.minuteText`, written byte by byte for four-digit
/// years) is the text the interpolation gives, for every kind of instant: the epoch, leap days,
/// the ends of a minute, an hour, a day, a year, and years of one to twelve digits either side
/// of zero.
final class MinuteTextTests: XCTestCase {
    private func interpolated(_ t: Timestamp) -> String {
        let c = t.components
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }

    func testKnownTimes() {
        XCTAssertEqual(Timestamp(secondsSince1970: 0).minuteText, "1970-01-01 00:00")
        XCTAssertEqual(Timestamp(secondsSince1970: 1_709_210_096).minuteText, "2024-02-29 12:34")
        XCTAssertEqual(Timestamp(secondsSince1970: -1).minuteText, "1969-12-31 23:59")
        XCTAssertEqual(Timestamp(secondsSince1970: 253_402_300_799).minuteText, "9999-12-31 23:59")
        XCTAssertEqual(Timestamp(secondsSince1970: 253_402_300_800).minuteText, "10000-01-01 00:00")
        XCTAssertEqual(Timestamp(secondsSince1970: -30_610_224_001).minuteText, "999-12-31 23:59")
        XCTAssertEqual(Timestamp(secondsSince1970: -30_610_224_000).minuteText, "1000-01-01 00:00")
    }

    func testEveryKindOfInstantAsInterpolated() {
        var random = SplitMix64(seed: 2121)
        var instants: [Int64] = [0, -1, 59, 60, 3_599, 3_600, 86_399, 86_400, 951_782_400, 4_107_542_400,
                                 -30_610_224_001, -30_610_224_000, 253_402_300_799, 253_402_300_800,
                                 -62_167_219_200, -62_167_219_201]
        for digits in 1...11 {  // 10^11 years of seconds: near Int64's end
            let span = Int64(pow(10.0, Double(digits))) * 31_556_952
            for _ in 0..<200 { instants.append(Int64.random(in: -span...span, using: &random)) }
        }
        for seconds in instants {
            let t = Timestamp(secondsSince1970: seconds)
            XCTAssertEqual(t.minuteText, interpolated(t), "\(seconds)")
            // Appended to a byte sink (`feeds sources`): the same text, after what was there.
            var sink = ByteSink(capacity: 16)
            sink.append(contentsOf: "at " as StaticString)
            t.appendMinuteText(to: &sink)
            XCTAssertEqual(sink.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }, "at " + interpolated(t), "\(seconds)")
        }
    }
}
