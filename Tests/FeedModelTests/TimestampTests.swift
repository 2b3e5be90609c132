import XCTest
import FeedModel

final class TimestampTests: XCTestCase {
    private func ts(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, offset: Int = 0) -> Timestamp? {
        Timestamp(year: y, month: mo, day: d, hour: h, minute: mi, second: s, offsetSeconds: offset)
    }

    // MARK: - known instants (values computed independently)

    func testKnownInstants() {
        let known: [(Int, Int, Int, Int, Int, Int, Int64)] = [
            (1970, 1, 1, 0, 0, 0, 0),
            (1970, 1, 2, 0, 0, 0, 86_400),
            (1969, 12, 31, 23, 59, 59, -1),
            (2000, 2, 29, 0, 0, 0, 951_782_400),
            (2024, 2, 29, 12, 34, 56, 1_709_210_096),
            (2038, 1, 19, 3, 14, 8, 2_147_483_648),
            (2100, 3, 1, 0, 0, 0, 4_107_542_400),
            (1900, 3, 1, 0, 0, 0, -2_203_891_200),
            (1600, 2, 29, 0, 0, 0, -11_670_998_400),
            (1, 1, 1, 0, 0, 0, -62_135_596_800),
            (9999, 12, 31, 23, 59, 59, 253_402_300_799),
        ]
        for (y, mo, d, h, mi, s, expected) in known {
            let t = ts(y, mo, d, h, mi, s)
            XCTAssertEqual(t?.secondsSince1970, expected, "\(y)-\(mo)-\(d) \(h):\(mi):\(s)")
            let c = Timestamp(secondsSince1970: expected).components
            XCTAssertEqual([c.year, c.month, c.day, c.hour, c.minute, c.second], [y, mo, d, h, mi, s], "components of \(expected)")
        }
    }

    // MARK: - round trips

    func testCivilRoundTripEveryDayOverFiveCenturies() {
        // Every day from 1600 to 2401 (spans 1700/1800/1900/2100 non-leap and 1600/2000/2400 leap),
        // at a time of day that varies, must map to consecutive day numbers and back.
        var previousDays: Int64?
        for year in 1600...2401 {
            for month in 1...12 {
                for day in 1...Timestamp.daysIn(month: month, year: year) {
                    let hour = (year + month + day) % 24, minute = (year * 7 + day) % 60, second = (month * 13 + day) % 60
                    guard let t = ts(year, month, day, hour, minute, second) else {
                        XCTFail("valid date refused: \(year)-\(month)-\(day)"); return
                    }
                    let secondOfDay = Int64(hour * 3600 + minute * 60 + second)
                    let dayNumber = (t.secondsSince1970 - secondOfDay) / 86_400
                    if (t.secondsSince1970 - secondOfDay) % 86_400 != 0 {
                        XCTFail("\(year)-\(month)-\(day) does not start at a day boundary"); return
                    }
                    if let previousDays, dayNumber != previousDays + 1 {
                        XCTFail("day \(year)-\(month)-\(day) is not the day after the previous one"); return
                    }
                    previousDays = dayNumber
                    let c = t.components
                    if c.year != year || c.month != month || c.day != day || c.hour != hour || c.minute != minute || c.second != second {
                        XCTFail("round trip of \(year)-\(month)-\(day) \(hour):\(minute):\(second) gave \(c)"); return
                    }
                }
            }
        }
        XCTAssertEqual(previousDays, Int64(Timestamp.daysFromCivil(year: 2401, month: 12, day: 31)))
    }

    func testSecondsRoundTripAroundEpochAndNegative() {
        for s: Int64 in [-86_401, -86_400, -86_399, -3601, -1, 0, 1, 59, 60, 86_399, 86_400, 86_401] {
            let c = Timestamp(secondsSince1970: s).components
            let back = ts(c.year, c.month, c.day, c.hour, c.minute, c.second)
            XCTAssertEqual(back?.secondsSince1970, s, "seconds \(s) -> \(c)")
        }
        let c = Timestamp(secondsSince1970: -86_401).components
        XCTAssertEqual([c.year, c.month, c.day, c.hour, c.minute, c.second], [1969, 12, 30, 23, 59, 59])
    }

    func testLeapYearRule() {
        XCTAssertTrue(Timestamp.isLeap(2000))
        XCTAssertTrue(Timestamp.isLeap(2024))
        XCTAssertTrue(Timestamp.isLeap(1600))
        XCTAssertFalse(Timestamp.isLeap(1900))
        XCTAssertFalse(Timestamp.isLeap(2100))
        XCTAssertFalse(Timestamp.isLeap(2023))
        XCTAssertEqual(Timestamp.daysIn(month: 2, year: 2000), 29)
        XCTAssertEqual(Timestamp.daysIn(month: 2, year: 2100), 28)
        XCTAssertEqual(Timestamp.daysIn(month: 4, year: 2021), 30)
        XCTAssertEqual(Timestamp.daysIn(month: 12, year: 2021), 31)
        XCTAssertNotNil(ts(2000, 2, 29))
        XCTAssertNotNil(ts(2024, 2, 29))
        XCTAssertNil(ts(2100, 2, 29), "2100 is not a leap year")
        XCTAssertNil(ts(1900, 2, 29), "1900 is not a leap year")
        XCTAssertNil(ts(2023, 2, 29))
        // 2100-02-28 is followed directly by 2100-03-01.
        XCTAssertEqual(ts(2100, 3, 1)!.secondsSince1970 - ts(2100, 2, 28)!.secondsSince1970, 86_400)
        XCTAssertEqual(ts(2000, 3, 1)!.secondsSince1970 - ts(2000, 2, 28)!.secondsSince1970, 2 * 86_400)
    }

    // MARK: - offsets

    func testOffsetsAreSecondsEastOfUTC() {
        let utc = ts(2024, 5, 6, 12, 0, 0)!
        XCTAssertEqual(ts(2024, 5, 6, 14, 0, 0, offset: 2 * 3600), utc, "+02:00")
        XCTAssertEqual(ts(2024, 5, 6, 7, 0, 0, offset: -5 * 3600), utc, "-05:00")
        XCTAssertEqual(ts(2024, 5, 6, 17, 45, 0, offset: 5 * 3600 + 45 * 60), utc, "+05:45")
        XCTAssertEqual(ts(2024, 5, 6, 8, 30, 0, offset: -(3 * 3600 + 30 * 60)), utc, "-03:30")
    }

    func testOffsetCrossesDateAndYearBoundaries() {
        let t = ts(2024, 1, 1, 1, 0, 0, offset: 9 * 3600)!
        XCTAssertEqual(t.iso8601, "2023-12-31T16:00:00Z")
        let u = ts(1969, 12, 31, 20, 0, 0, offset: -5 * 3600)!
        XCTAssertEqual(u.secondsSince1970, 3600)
        XCTAssertEqual(u.iso8601, "1970-01-01T01:00:00Z")
        XCTAssertEqual(ts(2000, 3, 1, 0, 30, 0, offset: 3600)!.iso8601, "2000-02-29T23:30:00Z")
    }

    func testOffsetLimits() {
        XCTAssertNotNil(ts(2024, 1, 1, offset: 18 * 3600))
        XCTAssertNotNil(ts(2024, 1, 1, offset: -18 * 3600))
        XCTAssertNil(ts(2024, 1, 1, offset: 18 * 3600 + 1))
        XCTAssertNil(ts(2024, 1, 1, offset: -18 * 3600 - 1))
    }

    // MARK: - special times

    func testLeapSecondFoldsIntoNextSecond() {
        let leap = ts(2016, 12, 31, 23, 59, 60)
        XCTAssertEqual(leap, ts(2017, 1, 1, 0, 0, 0))
        XCTAssertEqual(leap?.iso8601, "2017-01-01T00:00:00Z")
    }

    func testHour24MeansNextMidnight() {
        XCTAssertEqual(ts(2024, 2, 28, 24, 0, 0), ts(2024, 2, 29))
        XCTAssertEqual(ts(2023, 12, 31, 24, 0, 0)?.iso8601, "2024-01-01T00:00:00Z")
        XCTAssertNil(ts(2024, 2, 28, 24, 0, 1))
        XCTAssertNil(ts(2024, 2, 28, 24, 1, 0))
    }

    // MARK: - invalid fields

    func testInvalidFieldsReturnNil() {
        XCTAssertNil(ts(0, 1, 1), "year 0")
        XCTAssertNil(ts(-1, 1, 1), "negative year")
        XCTAssertNil(ts(10_000, 1, 1), "year 10000")
        XCTAssertNil(ts(2024, 0, 1), "month 0")
        XCTAssertNil(ts(2024, 13, 1), "month 13")
        XCTAssertNil(ts(2024, -1, 1), "negative month")
        XCTAssertNil(ts(2024, 1, 0), "day 0")
        XCTAssertNil(ts(2024, 1, 32), "January 32")
        XCTAssertNil(ts(2024, 4, 31), "April 31")
        XCTAssertNil(ts(2024, 6, 31), "June 31")
        XCTAssertNil(ts(2024, 9, 31), "September 31")
        XCTAssertNil(ts(2024, 11, 31), "November 31")
        XCTAssertNil(ts(2024, 2, 30), "February 30")
        XCTAssertNil(ts(2024, 1, 1, 25), "hour 25")
        XCTAssertNil(ts(2024, 1, 1, -1), "hour -1")
        XCTAssertNil(ts(2024, 1, 1, 0, 60), "minute 60")
        XCTAssertNil(ts(2024, 1, 1, 0, -1), "minute -1")
        XCTAssertNil(ts(2024, 1, 1, 0, 0, 61), "second 61")
        XCTAssertNil(ts(2024, 1, 1, 0, 0, -1), "second -1")
    }

    func testBoundaryFieldsAreAccepted() {
        XCTAssertNotNil(ts(1, 1, 1))
        XCTAssertNotNil(ts(9999, 12, 31, 23, 59, 59))
        XCTAssertNotNil(ts(2024, 1, 31))
        XCTAssertNotNil(ts(2024, 4, 30))
        XCTAssertNotNil(ts(2024, 12, 31, 23, 59, 59))
    }

    // MARK: - ISO 8601 text and ordering

    func testISO8601Format() {
        XCTAssertEqual(Timestamp(secondsSince1970: 0).iso8601, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(secondsSince1970: -1).iso8601, "1969-12-31T23:59:59Z")
        XCTAssertEqual(ts(2024, 2, 29, 12, 34, 56)?.iso8601, "2024-02-29T12:34:56Z")
        XCTAssertEqual(ts(2005, 7, 8, 9, 5, 3)?.iso8601, "2005-07-08T09:05:03Z", "every field zero-padded")
        XCTAssertEqual(ts(1, 1, 1)?.iso8601, "0001-01-01T00:00:00Z", "year padded to four digits")
        XCTAssertEqual(ts(999, 12, 31, 23, 59, 59)?.iso8601, "0999-12-31T23:59:59Z")
        XCTAssertEqual(ts(2100, 3, 1)?.iso8601, "2100-03-01T00:00:00Z")
        XCTAssertEqual(ts(9999, 12, 31, 23, 59, 59)?.iso8601, "9999-12-31T23:59:59Z")
        let t = ts(2024, 2, 29, 12, 34, 56)!
        XCTAssertEqual(t.description, t.iso8601)
        XCTAssertEqual("\(t)", "2024-02-29T12:34:56Z")
    }

    func testISO8601MatchesPatternOverManyInstants() {
        var s: Int64 = -5_000_000_000
        while s < 10_000_000_000 {
            let text = Timestamp(secondsSince1970: s).iso8601
            let chars = Array(text)
            XCTAssertEqual(chars.count, 20, text)
            if chars.count == 20 {
                for (i, ch) in chars.enumerated() {
                    switch i {
                    case 4, 7: XCTAssertEqual(ch, "-", text)
                    case 10: XCTAssertEqual(ch, "T", text)
                    case 13, 16: XCTAssertEqual(ch, ":", text)
                    case 19: XCTAssertEqual(ch, "Z", text)
                    default: XCTAssertTrue(ch.isASCII && ch.isNumber, text)
                    }
                }
            }
            s += 123_456_789
        }
    }

    /// The byte-written texts (four-digit years) against the fields they are written from,
    /// over instants from year 1811 to 2286 and a few seconds either side of each.
    func testFastTextsMatchTheirFields() {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var s: Int64 = -5_000_000_000
        while s < 10_000_000_000 {
            for t in [s, s + 1, s + 59, s + 86_399] {
                let time = Timestamp(secondsSince1970: t)
                let c = time.components
                let date = "\(c.year)-\(two(c.month))-\(two(c.day))"
                XCTAssertEqual(time.iso8601, "\(date)T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z")
                XCTAssertEqual(time.minuteText, "\(date) \(two(c.hour)):\(two(c.minute))")
                // Appended to a byte sink (the JSON writers' dates): `iso8601` byte for byte.
                var sink = ByteSink(capacity: 16)
                sink.append(UInt8(ascii: "\""))
                time.appendISO8601(to: &sink)
                XCTAssertEqual(sink.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }, "\"" + time.iso8601, "\(t)")
            }
            s += 12_345_679
        }
        // Years of one to five digits and before year 0: the appended text is `iso8601`'s,
        // which pads the year to four digits where it is shorter (`0999-…`).
        var wide: Int64 = -70_000_000_000
        while wide < 300_000_000_000 {
            let time = Timestamp(secondsSince1970: wide)
            var sink = ByteSink(capacity: 16)
            time.appendISO8601(to: &sink)
            XCTAssertEqual(sink.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }, time.iso8601, "\(wide)")
            if (0...999).contains(time.components.year) { XCTAssertTrue(time.iso8601.hasPrefix("0"), time.iso8601) }
            wide += 86_400 * 3_001 + 7_919
        }
        XCTAssertEqual(Timestamp(secondsSince1970: -30_610_224_001).iso8601, "0999-12-31T23:59:59Z")
    }

    func testOrdering() {
        let a = Timestamp(secondsSince1970: -10), b = Timestamp(secondsSince1970: 0), c = Timestamp(secondsSince1970: 10)
        XCTAssertLessThan(a, b)
        XCTAssertLessThan(b, c)
        XCTAssertFalse(c < a)
        XCTAssertEqual([c, a, b].sorted(), [a, b, c])
        XCTAssertEqual(Timestamp(secondsSince1970: 5), Timestamp(secondsSince1970: 5))
    }
}
