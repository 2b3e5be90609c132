/// Month and weekday names. Plain tables scanned in order: a dozen short comparisons cost
/// less than hashing the word, and the tables stay readable.
extension FeedDate {
    /// English names in full and lower case; any prefix of three letters or more matches
    /// ("Jan", "Sept", "January").
    static let englishMonths: [StaticString] = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]

    static let englishWeekdays: [StaticString] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// Greek abbreviations: feedparser's spellings plus the plain unaccented ones (Greek feeds
    /// differ in accents and in ι/ϊ). Matched exactly, in the NFC form feeds use.
    static let greekMonths: [(StaticString, Int)] = [
        ("Ιαν", 1), ("Φεβ", 2), ("Μάώ", 3), ("Μαώ", 3), ("Μαρ", 3), ("Μάρ", 3), ("Απρ", 4),
        ("Μάι", 5), ("Μαϊ", 5), ("Μαι", 5), ("Μάϊ", 5), ("Ιούν", 6), ("Ιον", 6), ("Ιουν", 6),
        ("Ιούλ", 7), ("Ιολ", 7), ("Ιουλ", 7), ("Αύγ", 8), ("Αυγ", 8), ("Σεπ", 9), ("Οκτ", 10),
        ("Νοέ", 11), ("Νοε", 11), ("Δεκ", 12),
    ]

    static let greekWeekdays: [StaticString] = ["Κυρ", "Δευ", "Τρι", "Τετ", "Πεμ", "Παρ", "Σαβ"]

    /// Hungarian month names (lower case, as written inside dates), plus the two misspellings
    /// feedparser's table carries ("februári", "máujus") so the same feeds keep working.
    static let hungarianMonths: [(StaticString, Int)] = [
        ("január", 1), ("február", 2), ("februári", 2), ("március", 3), ("április", 4),
        ("május", 5), ("máujus", 5), ("június", 6), ("július", 7), ("augusztus", 8),
        ("szeptember", 9), ("október", 10), ("november", 11), ("december", 12),
    ]

    /// The month a word names (1–12), or nil.
    static func month(_ c: DateCursor, _ w: Range<Int>) -> Int? {
        guard w.count >= 3 else { return nil }
        if DateCursor.isASCIILetter(c.byte(at: w.lowerBound)) {
            for (index, name) in englishMonths.enumerated() where c.word(w, abbreviates: name) {
                return index + 1
            }
        } else {
            for (name, number) in greekMonths where c.word(w, is: name) { return number }
        }
        // Hungarian names start with an ASCII letter or with "á" (április).
        for (name, number) in hungarianMonths where c.word(w, is: name) { return number }
        return nil
    }

    /// True when a word names a day of the week (its value is ignored, as everywhere: a wrong
    /// weekday is a common slip and the date itself is what counts).
    static func isWeekday(_ c: DateCursor, _ w: Range<Int>) -> Bool {
        guard w.count >= 3 else { return false }
        if DateCursor.isASCIILetter(c.byte(at: w.lowerBound)) {
            return englishWeekdays.contains { c.word(w, abbreviates: $0) }
        }
        return greekWeekdays.contains { c.word(w, is: $0) }
    }
}
