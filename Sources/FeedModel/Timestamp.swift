/// A moment in UTC, to the second. The model keeps its own type so it can import nothing.
///
/// Cards carry dates as `Timestamp`; the JSON and text forms are `YYYY-MM-DDTHH:MM:SSZ`.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// A civil date and time with the offset of its zone (seconds east of UTC), or nil when a
    /// field is out of range. Leap second 60 is accepted and folded into the next second.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                 offsetSeconds: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Timestamp.daysIn(month: month, year: year)).contains(day),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              hour < 24 || (minute == 0 && second == 0),
              abs(offsetSeconds) <= 18 * 3600
        else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let secs = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        self.secondsSince1970 = secs
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// The dates a card may carry: 1970-01-01T00:00:00Z through 2100-12-31T23:59:59Z. Outside
    /// it a feed's or a search engine's date is a mistake or an attack (-2^63 seconds is the
    /// year -292277022657), and is no date at all.
    public static let plausibleRange: ClosedRange<Int64> = 0...4_133_980_799

    /// This moment, or nil when it lies outside `plausibleRange`.
    public var plausible: Timestamp? { Timestamp.plausibleRange.contains(secondsSince1970) ? self : nil }

    /// A moment from outside (a search answer's seconds since 1970): nil outside `plausibleRange`.
    public init?(plausibleSeconds seconds: Int64) {
        guard Timestamp.plausibleRange.contains(seconds) else { return nil }
        self.secondsSince1970 = seconds
    }

    /// `seconds` later (earlier when negative), held at the ends of the range instead of
    /// overflowing: a stored moment may be anything an older version wrote.
    public func adding(_ seconds: Int64) -> Timestamp {
        Timestamp(secondsSince1970: secondsSince1970.saturatingAdd(seconds))
    }

    /// Seconds from `earlier` to this moment (negative when `earlier` is later), saturating.
    public func seconds(since earlier: Timestamp) -> Int64 {
        secondsSince1970.saturatingSubtract(earlier.secondsSince1970)
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil UTC fields of this moment.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let secs = secondsSince1970
        var days = Int(secs / 86_400)
        var rem = Int(secs % 86_400)
        if rem < 0 { rem += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d, rem / 3600, rem % 3600 / 60, rem % 60)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    /// A year outside 1000...9999 is padded to four digits where it is shorter (`0999-…`).
    public var iso8601: String {
        let c = components
        guard (0...9999).contains(c.year) else {
            return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
        }
        // As its 20 bytes, like `minuteText` (`feeds sources --json` writes three a source:
        // with 5,000 sources the interpolation was a sixth of the command's time).
        return String(unsafeUninitializedCapacity: 20) { Self.writeFourDigitYearText(c, count: 20, to: $0.baseAddress!) }
    }

    /// `iso8601` appended to `sink` (the JSON writers' dates): a year of four digits or fewer as
    /// its 20 bytes in place.
    public func appendISO8601(to sink: inout ByteSink) {
        let c = components
        guard (0...9999).contains(c.year) else { return sink.append(contentsOf: iso8601) }
        sink.appendInPlace(maxCount: 20) { Self.writeFourDigitYearText(c, count: 20, to: $0) }
    }

    public var description: String { iso8601 }

    /// `2026-11-29 17:42`, UTC, to the minute: the listings' time (`feeds sources` writes two a
    /// source). A year outside 1000...9999 is written as it is (`999-01-01 00:00`, `-1-…`).
    public var minuteText: String {
        let c = components
        guard (1000...9999).contains(c.year) else {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
        }
        // A four-digit year (every real date) as its 16 bytes: the same text as the
        // interpolation above, without its seven small strings (5,000 sources, 10,000 times).
        return String(unsafeUninitializedCapacity: 16) { Self.writeFourDigitYearText(c, count: 16, to: $0.baseAddress!) }
    }

    /// `minuteText` appended to `sink` (the listing of `feeds sources` writes two a source):
    /// a four-digit year as its 16 bytes in place, any other year as `minuteText` has it.
    public func appendMinuteText(to sink: inout ByteSink) {
        let c = components
        guard (1000...9999).contains(c.year) else { return sink.append(contentsOf: minuteText) }
        sink.appendInPlace(maxCount: 16) { Self.writeFourDigitYearText(c, count: 16, to: $0) }
    }

    /// Writes the first `count` bytes of `YYYY-MM-DDTHH:MM:SSZ` (20: `iso8601`) or, 16, of
    /// `YYYY-MM-DD HH:MM` (`minuteText`) at `out`, the year zero-padded to four digits (fields
    /// whose year is within 0...9999); returns `count`. The one writer of both texts, as
    /// Strings and appended to byte sinks.
    private static func writeFourDigitYearText(_ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int),
                                               count: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        func digits(_ n: Int, _ at: Int, _ width: Int) {
            var n = n
            for i in stride(from: at + width - 1, through: at, by: -1) { out[i] = UInt8(ascii: "0") + UInt8(n % 10); n /= 10 }
        }
        digits(c.year, 0, 4); out[4] = UInt8(ascii: "-"); digits(c.month, 5, 2); out[7] = UInt8(ascii: "-")
        digits(c.day, 8, 2); out[10] = UInt8(ascii: count == 16 ? " " : "T"); digits(c.hour, 11, 2); out[13] = UInt8(ascii: ":")
        digits(c.minute, 14, 2)
        if count == 20 { out[16] = UInt8(ascii: ":"); digits(c.second, 17, 2); out[19] = UInt8(ascii: "Z") }
        return count
    }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
