import FeedModel

/// The RFC 822 family: RFC 822/2822 dates and the ways feeds bend them, asctime, Perforce.
///
/// Rather than one template per variant, fields are assigned by shape as they come, which
/// covers every ordering seen in feeds with one loop:
/// - a weekday is skipped, only as the first word: a name, or any word a comma follows;
/// - a month name is the month; `n:nn` starts the time; `nnnn/nn/nn` is a Perforce date;
/// - four digits are the year; one or two digits are the day, or the two-digit year once
///   the day is known;
/// - after the time: `AM`/`PM`, then one zone (name or offset), then an optional `(comment)`.
/// Anything else (an unknown word, a second month, a third number, stray punctuation) makes
/// the whole text unparseable: a guess would put the card at a wrong place in time.
extension FeedDate {
    static func parseRFC822(_ c: inout DateCursor) -> Timestamp? {
        var f = DateFields()
        var day: Int?
        var month: Int?
        var year: Int?
        var hasWeekday = false
        var hasTime = false
        var hasMeridiem = false
        var hasZone = false

        while true {
            skipSeparators(&c)
            if c.atEnd { break }
            let b = c.peek

            if DateCursor.isDigit(b) {
                let (value, count) = c.digits()
                if c.peek == UInt8(ascii: ":") {
                    guard !hasTime, (1...2).contains(count), clock(&c, &f, hour: value) else { return nil }
                    hasTime = true
                } else if c.peek == UInt8(ascii: "/") {
                    // Perforce: 2006/09/15
                    guard count == 4, day == nil, month == nil, year == nil, !hasTime else { return nil }
                    c.i += 1
                    let (m, mCount) = c.digits()
                    guard (1...2).contains(mCount), c.consume(UInt8(ascii: "/")) else { return nil }
                    let (d, dCount) = c.digits()
                    guard (1...2).contains(dCount) else { return nil }
                    (year, month, day) = (value, m, d)
                } else if count == 4 {
                    guard year == nil else { return nil }
                    year = value
                } else if count <= 2, day == nil {
                    day = value
                } else if count == 2, year == nil {
                    // Two-digit year (RFC 822 allows it): a window around the present.
                    year = value < 50 ? 2000 + value : 1900 + value
                } else {
                    return nil
                }
            } else if b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
                if hasTime, !hasZone, DateCursor.isDigit(c.byte(at: c.i + 1)) {
                    guard let offset = numericOffset(&c) else { return nil }
                    f.offset = offset
                    hasZone = true
                } else if b == UInt8(ascii: "-"), !hasTime, isAlphanumeric(c.byte(at: c.i - 1)),
                          isAlphanumeric(c.byte(at: c.i + 1)) {
                    c.i += 1  // 01-Jan-2004
                } else {
                    return nil
                }
            } else if b == UInt8(ascii: "(") {
                // RFC 2822 comment after the zone, "+0100 (CET)": skipped, must end the text.
                guard hasTime || year != nil else { return nil }
                while !c.atEnd, c.peek != UInt8(ascii: ")") { c.i += 1 }
                guard c.consume(UInt8(ascii: ")")) else { return nil }
                skipSeparators(&c)
                guard c.atEnd else { return nil }
            } else if DateCursor.isWordByte(b) {
                let w = c.word()
                _ = c.consume(UInt8(ascii: "."))  // "Jan.", "Thu."
                // The first word is a weekday when it names one or a comma follows it, in any
                // language ("mer, 16 nov 2022"): the date says which day it is.
                if !hasWeekday, day == nil, month == nil, year == nil, !hasTime,
                   isWeekday(c, w) || (c.peek == UInt8(ascii: ",") && w.count <= 12) {
                    hasWeekday = true
                } else if month == nil, let m = FeedDate.month(c, w) {
                    month = m
                } else if hasTime, !hasMeridiem, !hasZone, c.word(w, is: "am") || c.word(w, is: "pm") {
                    guard f.applyMeridiem(pm: c.word(w, is: "pm")) else { return nil }
                    hasMeridiem = true
                } else if hasTime, !hasZone {
                    // Re-read the word as a zone; zone names are ASCII, so a word with other
                    // bytes fails there.
                    c.i = w.lowerBound
                    guard let offset = zone(&c, lenient: true) else { return nil }
                    f.offset = offset
                    hasZone = true
                } else {
                    return nil
                }
            } else {
                return nil
            }
        }

        guard let day, let month, let year else { return nil }
        f.year = year
        f.month = month
        f.day = day
        return f.timestamp
    }

    /// The fields of the most common date of all, RSS 2.0's `Sat, 01 Jun 2024 13:48:00 +0200`
    /// (or `GMT` for the zone) exactly in that shape, read at fixed offsets; nil for any other
    /// text, which goes to `parseRFC822`. For the texts it accepts, `parseRFC822` reads the same
    /// fields (a test checks both on generated dates): this only skips the name tables.
    static func canonicalRFC822(_ c: DateCursor) -> DateFields? {
        let n = c.remaining
        guard n == 31 || n == 29, let base = c.bytes.baseAddress else { return nil }
        let p = base + c.i
        @inline(__always) func digit(_ k: Int) -> Int? {
            let d = p[k] &- 0x30
            return d < 10 ? Int(d) : nil
        }
        @inline(__always) func letters(_ k: Int) -> UInt32 {
            UInt32(p[k] | 0x20) << 16 | UInt32(p[k + 1] | 0x20) << 8 | UInt32(p[k + 2] | 0x20)
        }
        guard p[3] == 0x2C, p[4] == 0x20, p[7] == 0x20, p[11] == 0x20, p[16] == 0x20, p[19] == 0x3A,
              p[22] == 0x3A, p[25] == 0x20,
              DateCursor.isASCIILetter(p[0]), DateCursor.isASCIILetter(p[1]), DateCursor.isASCIILetter(p[2]),
              DateCursor.isASCIILetter(p[8]), DateCursor.isASCIILetter(p[9]), DateCursor.isASCIILetter(p[10]),
              let d0 = digit(5), let d1 = digit(6), let y0 = digit(12), let y1 = digit(13), let y2 = digit(14),
              let y3 = digit(15), let h0 = digit(17), let h1 = digit(18), let m0 = digit(20), let m1 = digit(21),
              let s0 = digit(23), let s1 = digit(24)
        else { return nil }
        switch letters(0) {
        case 0x6D6F6E, 0x747565, 0x776564, 0x746875, 0x667269, 0x736174, 0x73756E: break   // mon ... sun
        default: return nil
        }
        let month: Int
        switch letters(8) {
        case 0x6A616E: month = 1; case 0x666562: month = 2; case 0x6D6172: month = 3; case 0x617072: month = 4
        case 0x6D6179: month = 5; case 0x6A756E: month = 6; case 0x6A756C: month = 7; case 0x617567: month = 8
        case 0x736570: month = 9; case 0x6F6374: month = 10; case 0x6E6F76: month = 11; case 0x646563: month = 12
        default: return nil
        }
        var f = DateFields()
        if n == 29 {
            guard letters(26) == 0x676D74 else { return nil }   // gmt
        } else {
            guard p[26] == 0x2B || p[26] == 0x2D, let a = digit(27), let b = digit(28), let c = digit(29),
                  let d = digit(30) else { return nil }
            let hours = a * 10 + b, minutes = c * 10 + d
            guard hours <= 18, minutes <= 59 else { return nil }
            f.offset = (p[26] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        f.year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
        f.month = month
        f.day = d0 * 10 + d1
        f.hour = h0 * 10 + h1
        f.minute = m0 * 10 + m1
        f.second = s0 * 10 + s1
        return f
    }

    /// `h:mm` or `hh:mm`, optional `:ss`, optional fraction; the hour is already read.
    private static func clock(_ c: inout DateCursor, _ f: inout DateFields, hour: Int) -> Bool {
        c.i += 1  // ":"
        let (minute, minuteCount) = c.digits()
        guard minuteCount == 2 else { return false }
        f.hour = hour
        f.minute = minute
        if c.consume(UInt8(ascii: ":")) {
            let (second, secondCount) = c.digits()
            guard secondCount == 2 else { return false }
            f.second = second
        }
        skipFraction(&c)
        return true
    }

    /// White space and commas: "Fri,24 Nov", "Mon, 13 Feb, 2012", "Thu,  5 Apr".
    private static func skipSeparators(_ c: inout DateCursor) {
        while true {
            if c.skipSpaces() > 0 { continue }
            if c.consume(UInt8(ascii: ",")) { continue }
            return
        }
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        DateCursor.isDigit(b) || DateCursor.isASCIILetter(b)
    }
}
