import FeedModel

/// Dates as feeds write them, to UTC.
///
/// `parse` accepts, with surrounding white space ignored and names in any letter case:
///
/// **RFC 822 / RFC 2822 and their real-world variants** (RSS `pubDate`, Atom 0.3 `issued`):
/// - `Thu, 01 Jan 2004 19:48:21 GMT`; without the weekday; `Fri,24 Nov 2023 …` (no space after
///   the comma); `Thu 01 Jan …` (no comma); `Mon, 13 Feb, 2012 …` (comma after the month);
///   `Thu Aug 30 2012 17:26:16 +0200` (month before day); `01-Jan-2004 …`
/// - full or abbreviated weekday and month names (`Mon, 26 January 2004`, `Sept`, `Thurs`);
///   Greek abbreviations (`Κυρ, 11 Ιούλ 2004 12:00:00 EST`)
/// - one- or two-digit day and hour; time without seconds (`00:00`) or absent (midnight);
///   fractions of a second (dropped); `AM`/`PM` after the time
/// - two- or four-digit years; two digits below 50 mean 20xx, the others 19xx
/// - zones: `UT`, `UTC`, `GMT`, `Z`, the North American ones (`EST` … `PDT`, `AT`, `ET`, `CT`,
///   `MT`, `PT`, `AST`, `ADT`, `NST`, `AKST`, `HST` …), common others (`CET`, `CEST`, `MET`,
///   `MEST`, `BST`, `EET`, `MSK`, `IST` = India, `JST`, `KST`, `AEST`, `NZDT` …; see
///   `zoneNames`), military letters (RFC 822 signs), `+0200`, `+02:00`, `-0530`, `+02`,
///   `GMT-01:01`, `UTC+2`, `Etc/GMT`; a trailing comment such as `(CET)` is skipped;
///   no zone means UTC; after a time, an unknown 2–5 letter abbreviation is read as UTC
/// - asctime: `Sun Nov  6 08:49:37 1994`, also with a zone before the year
///   (`Sun Jul 15 01:16:00 +0000 2012`, as Twitter writes it)
/// - Perforce: `Fri, 2006/09/15 08:19:53 EDT`
///
/// **ISO 8601 / RFC 3339 / W3C-DTF** (Atom, Dublin Core, JSON Feed):
/// - `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYYMMDD`, ordinal `YYYY-DDD`/`YYYYDDD`, and
///   feedparser's `YYYY-0MM-DD`
/// - then `T` (or `t`, or spaces) and `hh:mm`, `hh:mm:ss`, `hhmm`, `hhmmss`, `hh`, each with
///   an optional fraction of any length (dropped)
/// - then optionally (spaces allowed before it) `Z`/`z`, `±hh:mm`, `±hhmm`, `±hh`, or a zone name
///   as above; no zone means UTC. `2004-07-08 23:56:58 -00:20` and SearXNG's
///   `2024-01-02 10:00:00+0000` are this form with spaces.
/// - a month name instead of the number, Hungarian or English (`2004-július-13T9:15-05:00`)
/// - Korean OnBlog (`2004년 05월 28일  01:31:15`) and Nate (`2004-05-25 오후 11:23:17`) dates,
///   both in Korea's zone (+09:00) unless a zone follows.
///
/// Everything else is nil, never "now": unknown words, a field out of range (month 13,
/// 30 February, hour 25, minute 60; second 60 is a leap second and folds into the next minute,
/// 24:00:00 is the next midnight), text after the date, and moments before 1970-01-01 or after
/// 2100-12-31 UTC, which no feed item plausibly has (they come from broken generators and would
/// sort a card to the very top or bottom forever). The weekday is never checked against the
/// date: a wrong weekday is a common slip, and the date is what counts.
///
/// Cost: one pass over at most 200 bytes (longer text is not a date and is refused before it
/// is scanned), no allocation for native strings, no Foundation.
public enum FeedDate {
    /// The moment `text` names, or nil when it names none (never "now").
    public static func parse(_ text: String) -> Timestamp? {
        // `utf8.count` is O(1) for native strings: refuse huge input before touching it, so the
        // cost is bounded even for an element holding megabytes of white space.
        guard text.utf8.count <= 1024 else { return nil }
        if let result = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) {
            return result
        }
        // Bridged or otherwise non-contiguous strings: copy once.
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// Longest trimmed input considered; the longest real date form is about 40 bytes.
    static let maximumLength = 200

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var cursor = DateCursor(trimming: bytes)
        guard !cursor.atEnd, cursor.remaining <= maximumLength else { return nil }
        if let fields = canonicalRFC822(cursor) { return fields.timestamp }
        return startsWithISOYear(cursor) ? parseISO(&cursor) : parseRFC822(&cursor)
    }

    /// The plausible range of a feed date: the card contract's (1970 through 2100).
    static let plausible: ClosedRange<Int64> = Timestamp.plausibleRange
}

/// The fields a parser collects; `timestamp` validates them all at once.
struct DateFields {
    var year = 0
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    /// Seconds east of UTC.
    var offset = 0

    /// The moment, or nil when a field is out of range or the moment is implausible for a feed.
    var timestamp: Timestamp? {
        guard let t = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute,
                                second: second, offsetSeconds: offset),
              FeedDate.plausible.contains(t.secondsSince1970)
        else { return nil }
        return t
    }

    /// Applies an AM/PM marker to a 12-hour clock time; false when the hour is not 1–12.
    mutating func applyMeridiem(pm: Bool) -> Bool {
        guard (1...12).contains(hour) else { return false }
        hour = hour % 12 + (pm ? 12 : 0)
        return true
    }

    /// Sets month and day from a day of the year (ISO 8601 ordinal date).
    mutating func setOrdinal(_ dayOfYear: Int) -> Bool {
        guard dayOfYear >= 1, dayOfYear <= (Timestamp.isLeap(year) ? 366 : 365) else { return false }
        var rest = dayOfYear
        var m = 1
        while rest > Timestamp.daysIn(month: m, year: year) {
            rest -= Timestamp.daysIn(month: m, year: year)
            m += 1
        }
        month = m
        day = rest
        return true
    }
}
