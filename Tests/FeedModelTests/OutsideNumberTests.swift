import FeedModel
import TestSupport
import XCTest

/// The one reader of numbers from outside, and the saturating arithmetic on them: every class
/// of hostile number in every range a caller uses, no trap, nil or a value within the range.
final class OutsideNumberTests: XCTestCase {
    static let ranges: [ClosedRange<Int64>] = [
        Int64.min...Int64.max, 0...Int64.max, 1...(1 << 50), 0...(10 * 365 * 24 * 60), 1...1_000_000,
        Timestamp.plausibleRange, -1_000_000_000...1_000_000_000, 0...0,
    ]

    func testEveryHostileTextInEveryRangeIsItsValueOrNothing() {
        for (name, text) in HostileNumbers.all() {
            for range in Self.ranges {
                let got = OutsideNumber.integer(text, in: range)
                XCTAssertEqual(got, HostileNumbers.expected(text, in: range), "\(name) '\(text)' in \(range)")
                if let got { XCTAssertTrue(range.contains(got)) }
            }
        }
    }

    func testTheEdgesOfInt64ReadExactly() {
        XCTAssertEqual(OutsideNumber.integer("9223372036854775807", in: Int64.min...Int64.max), Int64.max)
        XCTAssertEqual(OutsideNumber.integer("-9223372036854775808", in: Int64.min...Int64.max), Int64.min)
        XCTAssertNil(OutsideNumber.integer("9223372036854775808", in: Int64.min...Int64.max))
        XCTAssertNil(OutsideNumber.integer("-9223372036854775809", in: Int64.min...Int64.max))
        XCTAssertEqual(OutsideNumber.integer(" 0060 ", in: 0...100), 60)
        XCTAssertNil(OutsideNumber.integer("+60", in: 0...100), "no leading plus: protocols write digits")
    }

    func testDoublesOutsideTheRangeOrNotIntegersAreNothing() {
        let doubles: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 9.223372036854775807e18, -9.3e18,
                                 1.5, -0.5, .ulpOfOne, .greatestFiniteMagnitude, -9.223372036854775808e18, 0, -0.0, 60]
        for d in doubles {
            for range in Self.ranges {
                let got = OutsideNumber.integer(d, in: range)
                if let got { XCTAssertTrue(range.contains(got) && Double(got) == d, "\(d) in \(range)") }
            }
        }
        XCTAssertEqual(OutsideNumber.integer(-9.223372036854775808e18, in: Int64.min...Int64.max), Int64.min)
        XCTAssertNil(OutsideNumber.integer(9.223372036854775808e18, in: Int64.min...Int64.max), "2^63 does not fit")
        XCTAssertEqual(OutsideNumber.integer(60.0, in: 0...100), 60)
    }

    func testArithmeticSaturatesAtTheEnds() {
        let edges: [Int64] = [.min, .min + 1, -86_400, -1, 0, 1, 60, 86_400, .max - 1, .max]
        for a in edges {
            for b in edges {
                let (sum, o1) = a.addingReportingOverflow(b)
                XCTAssertEqual(a.saturatingAdd(b), o1 ? (b > 0 ? .max : .min) : sum)
                let (difference, o2) = a.subtractingReportingOverflow(b)
                XCTAssertEqual(a.saturatingSubtract(b), o2 ? (b < 0 ? .max : .min) : difference)
                let (product, o3) = a.multipliedReportingOverflow(by: b)
                XCTAssertEqual(a.saturatingMultiply(b), o3 ? ((a < 0) == (b < 0) ? .max : .min) : product, "\(a) * \(b)")
            }
        }
    }

    /// Any Int64 a store may hold (an older version saved -2^63 for a Hacker News date): the
    /// civil fields, the text form and the differences never trap.
    func testTimestampsAtTheEndsOfInt64AreSafeToShowAndCompare() {
        let now = Timestamp(secondsSince1970: 1_764_500_000)
        for seconds: Int64 in [.min, .min + 1, -1, 0, 4_133_980_799, 4_133_980_800, .max - 1, .max] {
            let t = Timestamp(secondsSince1970: seconds)
            XCTAssertFalse(t.iso8601.isEmpty)
            _ = t.components
            _ = now.seconds(since: t)
            _ = t.seconds(since: now)
            XCTAssertEqual(t.adding(.max).secondsSince1970, seconds >= 0 ? .max : seconds &+ .max)
            XCTAssertEqual(t.plausible != nil, Timestamp.plausibleRange.contains(seconds))
        }
        XCTAssertEqual(Timestamp(secondsSince1970: .min).components.year, -292_277_022_657)
    }

    /// The card contract: whoever sets a date (a parser, the store reading an old row), one
    /// outside 1970-2100 is no date; an enclosure length outside 1 B...1 PiB is none.
    func testCardsDropImplausibleDatesAndLengths() {
        for seconds: Int64 in [.min, -1, 4_133_980_800, .max] {
            var card = Card(published: Timestamp(secondsSince1970: seconds), updated: Timestamp(secondsSince1970: seconds))
            XCTAssertNil(card.published, "\(seconds)")
            XCTAssertNil(card.updated)
            XCTAssertNil(card.date)
            card.published = Timestamp(secondsSince1970: seconds)
            XCTAssertNil(card.published)
        }
        for seconds: Int64 in [0, 1_764_500_000, 4_133_980_799] {
            XCTAssertEqual(Card(published: Timestamp(secondsSince1970: seconds)).published?.secondsSince1970, seconds)
        }
        for length: Int64 in [.min, -1, 0, (1 << 50) + 1, .max] {
            XCTAssertNil(Enclosure(url: "https://example.com/a.mp3", length: length).length, "\(length)")
        }
        XCTAssertEqual(Enclosure(url: "https://example.com/a.mp3", length: 12_345).length, 12_345)
    }
}
