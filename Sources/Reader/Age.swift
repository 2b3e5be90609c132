import FeedModel

/// How old a card is, for people: "just now", "5m ago", "3h ago", "2d ago", then the date.
public enum Age {
    public static func describe(_ date: Timestamp, now: Timestamp, zone: TimeZoneOffset = .utc) -> String {
        let seconds = now.seconds(since: date)  // saturating: a stored date may be anything
        if seconds < 0 { return day(date, zone: zone) }   // in the future: the date says more than "-3h"
        if seconds < 60 { return "just now" }
        if seconds < 3_600 { return "\(seconds / 60)m ago" }
        if seconds < 48 * 3_600 { return "\(seconds / 3_600)h ago" }
        if seconds < 14 * 86_400 { return "\(seconds / 86_400)d ago" }
        return day(date, zone: zone)
    }

    /// `2026-11-29`, in `zone`.
    public static func day(_ t: Timestamp, zone: TimeZoneOffset = .utc) -> String {
        let c = zone.components(t)
        return "\(c.year)-\(two(c.month))-\(two(c.day))"
    }

    /// `2026-11-29 17:42`, in `zone`.
    public static func minute(_ t: Timestamp, zone: TimeZoneOffset = .utc) -> String {
        let c = zone.components(t)
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
