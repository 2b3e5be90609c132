#if canImport(Glibc)
import Glibc
#endif
import FeedModel

/// The zone dates are shown in: UTC, or the local zone (`TZ`, else /etc/localtime) through the
/// C library, whose rules give each moment its own offset (summer time included).
public struct TimeZoneOffset: Sendable {
    private let offsetAt: @Sendable (Timestamp) -> Int

    public init(_ offsetAt: @escaping @Sendable (Timestamp) -> Int) { self.offsetAt = offsetAt }

    public static let utc = TimeZoneOffset { _ in 0 }

    /// The local zone as `TZ` says when this is called.
    public static var local: TimeZoneOffset {
        tzset()
        return TimeZoneOffset { t in
            var seconds = time_t(clamping: t.secondsSince1970)
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
    }

    /// Seconds east of UTC at `t`.
    public func offset(at t: Timestamp) -> Int { offsetAt(t) }

    /// `t`'s civil date and time in this zone.
    public func components(_ t: Timestamp) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let (shifted, overflow) = t.secondsSince1970.addingReportingOverflow(Int64(offset(at: t)))
        return Timestamp(secondsSince1970: overflow ? t.secondsSince1970 : shifted).components
    }
}
