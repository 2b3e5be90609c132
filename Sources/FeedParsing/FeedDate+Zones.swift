/// Time zones: numeric offsets and the abbreviations feeds actually write.
extension FeedDate {
    /// Abbreviation and offset in minutes east of UTC. Ambiguous abbreviations take the reading
    /// feeds mean most often: CST is US Central (not China), IST is India (not Ireland or
    /// Israel), BST is British Summer Time.
    static let zoneNames: [(StaticString, Int)] = [
        ("ut", 0), ("utc", 0), ("gmt", 0), ("z", 0), ("wet", 0), ("west", 60), ("bst", 60),
        ("cet", 60), ("cest", 120), ("met", 60), ("mest", 120), ("mez", 60), ("mesz", 120),
        ("wat", 60), ("eet", 120), ("eest", 180), ("cat", 120), ("sast", 120), ("eat", 180),
        ("msk", 180), ("idt", 180), ("ist", 330), ("pkt", 300), ("ict", 420), ("wib", 420),
        ("hkt", 480), ("sgt", 480), ("pht", 480), ("awst", 480), ("jst", 540), ("kst", 540),
        ("acst", 570), ("acdt", 630), ("aest", 600), ("aedt", 660), ("nzst", 720), ("nzdt", 780),
        ("nst", -210), ("ndt", -150), ("brt", -180), ("art", -180),
        ("adt", -180), ("ast", -240), ("at", -240), ("edt", -240), ("est", -300), ("et", -300),
        ("cdt", -300), ("cst", -360), ("ct", -360), ("mdt", -360), ("mst", -420), ("mt", -420),
        ("pdt", -420), ("pst", -480), ("pt", -480), ("akdt", -480), ("akst", -540), ("hst", -600),
    ]

    /// Military single-letter zones. RFC 822 defines A–M (no J) as −1…−12 and N–Y as +1…+12;
    /// RFC 1123 later noted that the signs were the reverse of military use, but feeds cite
    /// RFC 822 and feedparser follows it, so this does too. Z is UTC (in `zoneNames`).
    static func militaryZone(_ letter: UInt8) -> Int? {
        let l = Int(letter | 0x20)
        switch l {
        case 0x61...0x69: return -(l - 0x60) * 60  // a…i: −1…−9
        case 0x6B...0x6D: return -(l - 0x61) * 60  // k…m: −10…−12 (j is not a zone)
        case 0x6E...0x79: return (l - 0x6D) * 60   // n…y: +1…+12
        default: return nil
        }
    }

    /// Reads a zone at the cursor and returns its offset in seconds east of UTC: `Z`,
    /// `±hh`, `±hhmm`, `±hh:mm`, a name from `zoneNames`, a military letter, `GMT±…`/`UTC±…`,
    /// or `Etc/GMT±n` (tz database names, whose sign is inverted: Etc/GMT+5 is UTC−5).
    /// With `lenient`, an unknown abbreviation of 2–5 ASCII letters reads as UTC, as in
    /// feedparser: the date is then off by at most a day instead of lost.
    /// Returns nil, with the cursor anywhere, when there is no zone there.
    static func zone(_ c: inout DateCursor, lenient: Bool) -> Int? {
        let first = c.peek
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return numericOffset(&c) }
        var name = c.asciiWord()
        guard !name.isEmpty else { return nil }
        var inverted = false
        if c.word(name, is: "etc"), c.consume(UInt8(ascii: "/")) {
            name = c.asciiWord()
            inverted = true
            guard c.word(name, is: "gmt") || c.word(name, is: "utc") || c.word(name, is: "ut") else {
                return nil
            }
        }
        var minutes: Int?
        if name.count == 1 {
            let letter = c.byte(at: name.lowerBound)
            minutes = letter | 0x20 == UInt8(ascii: "z") ? 0 : militaryZone(letter)
        } else {
            for (zoneName, offset) in zoneNames where c.word(name, is: zoneName) {
                minutes = offset
                break
            }
        }
        if minutes == 0, c.peek == UInt8(ascii: "+") || c.peek == UInt8(ascii: "-") {
            // GMT-01:01, UTC+2, Etc/GMT-3.
            guard c.word(name, is: "gmt") || c.word(name, is: "utc") || c.word(name, is: "ut"),
                  let offset = numericOffset(&c) else { return nil }
            return inverted ? -offset : offset
        }
        if let minutes { return minutes * 60 }
        if lenient, (2...5).contains(name.count), !DateCursor.isWordByte(c.peek) { return 0 }
        return nil
    }

    /// `±h`, `±hh`, `±hh:mm`, `±hmm`, `±hhmm` in seconds east of UTC; nil for anything else,
    /// minutes over 59 or hours over 18 (no zone on Earth is further out).
    static func numericOffset(_ c: inout DateCursor) -> Int? {
        let sign = c.peek == UInt8(ascii: "-") ? -1 : 1
        c.i += 1
        let (value, count) = c.digits()
        var hours: Int
        var minutes = 0
        switch count {
        case 1, 2:
            hours = value
            if c.peek == UInt8(ascii: ":") {
                c.i += 1
                let (m, mCount) = c.digits()
                guard mCount == 2 else { return nil }
                minutes = m
            }
        case 3, 4:
            hours = value / 100
            minutes = value % 100
        default:
            return nil
        }
        guard hours <= 18, minutes <= 59 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
