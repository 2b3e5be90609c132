/// The one grammar of durations and times, wherever a person writes one (`every=`,
/// `keep-days=`, `--since`, `--before`, `--every`):
/// - a duration: a whole number and a unit, `90s`, `30m`, `2h`, `1d`, `2w` (seconds, minutes,
///   hours, days, weeks; the unit in either case);
/// - a date, `2026-11-01` (its midnight, UTC);
/// - an RFC 3339 time, `2026-11-01T08:30:00Z`, `2026-11-01 08:30:00+01:00`, fractions of a
///   second ignored.
/// An option that takes only durations (`every=`, `keep-days=`) refuses a time with the same
/// message; where the option has a unit of its own, a bare number is in that unit (`every=30` is
/// minutes, `keep-days=30` days: what those options always took).
public enum TimeSpec: Equatable, Sendable {
    case duration(seconds: Int64)
    case moment(Timestamp)


    /// The largest number before a unit: 10^9 weeks is far beyond any use and far from overflow.
    static let largestNumber: Int64 = 1_000_000_000

    public static func parse(_ text: String) -> TimeSpec? {
        if let seconds = durationSeconds(text) { return .duration(seconds: seconds) }
        return moment(text).map(TimeSpec.moment)
    }

    /// The one message for a text an option refuses: `every=soon is not a duration: write 90s,
    /// 30m, 2h, 1d or 2w`, `--since soon is not a duration or a time: write ...`.
    public static func problem(_ option: String, _ text: String, durationsOnly: Bool = false) -> String {
        let durations = "90s, 30m, 2h, 1d or 2w"
        return option + (option.hasSuffix("=") ? "" : " ") + text + (durationsOnly
            ? " is not a duration: write \(durations)"
            : " is not a duration or a time: write \(durations) (back from now), a date (2026-11-01) or an RFC 3339 time (2026-11-01T08:00:00Z)")
    }

    /// The moment this names: a duration back from `now`, or the time itself.
    public func moment(before now: Timestamp) -> Timestamp {
        switch self {
        case let .duration(seconds): return Timestamp(secondsSince1970: now.secondsSince1970.saturatingSubtract(seconds))
        case let .moment(t): return t
        }
    }

    /// `NUMBER UNIT`, or with `bareUnit` a bare number in that unit; nil otherwise.
    public static func durationSeconds(_ text: String, bareUnit: Int64? = nil) -> Int64? {
        let units: [Unicode.Scalar: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800,
                                              "S": 1, "M": 60, "H": 3_600, "D": 86_400, "W": 604_800]
        var scalars = Array(text.unicodeScalars)
        guard let last = scalars.last else { return nil }
        let factor: Int64
        if let unit = units[last] { factor = unit; scalars.removeLast() } else if let bareUnit { factor = bareUnit } else { return nil }
        guard let n = number(scalars[...]), n <= largestNumber else { return nil }
        return n * factor
    }

    /// A date or an RFC 3339 time.
    static func moment(_ text: String) -> Timestamp? {
        let s = Array(text.unicodeScalars)[...]
        guard s.count >= 10, s[s.startIndex + 4] == "-", s[s.startIndex + 7] == "-",
              let year = number(s.prefix(4)), let month = number(s.dropFirst(5).prefix(2)),
              let day = number(s.dropFirst(8).prefix(2)) else { return nil }
        var rest = s.dropFirst(10)
        if rest.isEmpty { return Timestamp(year: Int(year), month: Int(month), day: Int(day)) }
        guard let t = rest.first, t == "T" || t == "t" || t == " " else { return nil }
        rest = rest.dropFirst()
        guard rest.count >= 8, rest[rest.startIndex + 2] == ":", rest[rest.startIndex + 5] == ":",
              let hour = number(rest.prefix(2)), let minute = number(rest.dropFirst(3).prefix(2)),
              let second = number(rest.dropFirst(6).prefix(2)) else { return nil }
        rest = rest.dropFirst(8)
        if rest.first == "." {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.properties.numericType != nil && $0.isASCII }
            guard !digits.isEmpty else { return nil }
            rest = rest.dropFirst(digits.count)
        }
        var offset = 0
        switch rest.first {
        case "Z", "z":
            guard rest.count == 1 else { return nil }
        case "+", "-":
            let sign = rest.first == "-" ? -1 : 1
            let zone = rest.dropFirst()
            guard zone.count == 5, zone[zone.startIndex + 2] == ":", let h = number(zone.prefix(2)),
                  let m = number(zone.suffix(2)), h <= 18, m <= 59 else { return nil }
            offset = sign * Int(h * 3_600 + m * 60)
        default:
            return nil
        }
        return Timestamp(year: Int(year), month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute),
                         second: Int(second), offsetSeconds: offset)
    }

    /// ASCII digits only (no sign, no blank), at most 12 of them.
    static func number(_ s: ArraySlice<Unicode.Scalar>) -> Int64? {
        guard !s.isEmpty, s.count <= 12 else { return nil }
        var n: Int64 = 0
        for c in s {
            guard c.value >= 48 && c.value <= 57 else { return nil }
            n = n * 10 + Int64(c.value - 48)
        }
        return n
    }
}
