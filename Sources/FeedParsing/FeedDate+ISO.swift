import FeedModel

/// ISO 8601 / RFC 3339 / W3C-DTF, the forms that start with a four-digit year.
extension FeedDate {
    /// Four digits followed by the end, `-`, more digits or Korean "년" (year). A year
    /// followed by a space or `/` ("2004 Jan 01", Perforce "2006/09/15") is left to the RFC 822
    /// family, which assigns fields by shape.
    static func startsWithISOYear(_ c: DateCursor) -> Bool {
        for k in 0..<4 where !DateCursor.isDigit(c.byte(at: c.i + k)) { return false }
        let next = c.byte(at: c.i + 4)
        return c.remaining == 4 || next == UInt8(ascii: "-") || DateCursor.isDigit(next) || next == 0xEB
    }

    static func parseISO(_ c: inout DateCursor) -> Timestamp? {
        var f = DateFields()
        // Korean forms carry no zone; their sites mean Korea's (+09:00).
        var korean = false
        guard datePart(&c, &f, korean: &korean) else { return nil }
        if c.atEnd {
            if korean { f.offset = 9 * 3600 }
            return f.timestamp
        }

        // Date/time separator: T, or spaces (SQL style, SearXNG), possibly with a Korean
        // AM/PM marker ("오전" / "오후") between the date and the time.
        var meridiem: Bool?  // true = PM
        if c.peek | 0x20 == UInt8(ascii: "t") {
            c.i += 1
        } else {
            guard c.skipSpaces() > 0 else { return nil }
            if c.consume("오전") { meridiem = false } else if c.consume("오후") { meridiem = true }
            if meridiem != nil {
                korean = true
                guard c.skipSpaces() > 0 else { return nil }
            }
        }
        guard timePart(&c, &f) else { return nil }
        if let pm = meridiem, !f.applyMeridiem(pm: pm) { return nil }

        c.skipSpaces()
        if c.atEnd {
            if korean { f.offset = 9 * 3600 }
        } else {
            guard let offset = zone(&c, lenient: false) else { return nil }
            f.offset = offset
            c.skipSpaces()
            guard c.atEnd else { return nil }
        }
        return f.timestamp
    }

    /// The date: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-0MM-DD`, `YYYY-DDD`, `YYYYMMDD`, `YYYYDDD`,
    /// `YYYY-<month name>-D` (Hungarian feeds; English names work too), `YYYY년 MM월 DD일`.
    /// `YYYY` and `YYYY-MM` must end the text.
    private static func datePart(_ c: inout DateCursor, _ f: inout DateFields, korean: inout Bool) -> Bool {
        let (lead, count) = c.digits()
        switch count {
        case 8:
            f.year = lead / 10_000
            f.month = lead / 100 % 100
            f.day = lead % 100
            return true
        case 7:
            f.year = lead / 1000
            return f.setOrdinal(lead % 1000)
        case 4:
            f.year = lead
        default:
            return false
        }
        if c.atEnd { return true }
        if c.consume("년") {
            korean = true
            return koreanDate(&c, &f)
        }
        guard c.consume(UInt8(ascii: "-")) else { return false }

        if !DateCursor.isDigit(c.peek) {
            // A month name, as Hungarian feeds write it: 2004-július-13
            let name = c.word()
            guard let month = month(c, name), c.consume(UInt8(ascii: "-")) else { return false }
            let (day, dayCount) = c.digits()
            guard (1...2).contains(dayCount) else { return false }
            f.month = month
            f.day = day
            return true
        }
        let monthStart = c.i
        let (value, valueCount) = c.digits()
        switch valueCount {
        case 2:
            f.month = value
            if c.atEnd { return true }  // YYYY-MM
        case 3 where c.peek == UInt8(ascii: "-"):
            // feedparser's "YYYY-0MM-DD" template: a zero-padded three-digit month.
            guard c.byte(at: monthStart) == UInt8(ascii: "0") else { return false }
            f.month = value
        case 3:
            return f.setOrdinal(value)
        default:
            return false
        }
        guard c.consume(UInt8(ascii: "-")) else { return false }
        let (day, dayCount) = c.digits()
        guard dayCount == 2 else { return false }
        f.day = day
        return true
    }

    /// OnBlog's `YYYY년 MM월 DD일`, after the "년".
    private static func koreanDate(_ c: inout DateCursor, _ f: inout DateFields) -> Bool {
        c.skipSpaces()
        let (month, monthCount) = c.digits()
        guard (1...2).contains(monthCount), c.consume("월") else { return false }
        c.skipSpaces()
        let (day, dayCount) = c.digits()
        guard (1...2).contains(dayCount), c.consume("일") else { return false }
        f.month = month
        f.day = day
        return true
    }

    /// `h:mm`, `hh:mm`, `hh:mm:ss`, `hh`, `hhmm`, `hhmmss`, then an optional fraction of any
    /// length, which is dropped (cards keep whole seconds).
    private static func timePart(_ c: inout DateCursor, _ f: inout DateFields) -> Bool {
        let (value, count) = c.digits()
        if c.peek == UInt8(ascii: ":") {
            // Extended form. One-digit hours occur in the Hungarian form ("T9:15").
            guard (1...2).contains(count) else { return false }
            c.i += 1
            let (minute, minuteCount) = c.digits()
            guard minuteCount == 2 else { return false }
            f.hour = value
            f.minute = minute
            if c.consume(UInt8(ascii: ":")) {
                let (second, secondCount) = c.digits()
                guard secondCount == 2 else { return false }
                f.second = second
            }
        } else {
            switch count {
            case 2: f.hour = value
            case 4: f.hour = value / 100; f.minute = value % 100
            case 6: f.hour = value / 10_000; f.minute = value / 100 % 100; f.second = value % 100
            default: return false
            }
        }
        skipFraction(&c)
        return true
    }

    /// Skips `.digits` or `,digits` (ISO 8601 allows either decimal sign).
    static func skipFraction(_ c: inout DateCursor) {
        let mark = c.peek
        guard mark == UInt8(ascii: ".") || mark == UInt8(ascii: ","),
              DateCursor.isDigit(c.byte(at: c.i + 1)) else { return }
        c.i += 1
        _ = c.digits()
    }
}
