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

    /// Month names in French, German, Spanish, Italian, Portuguese and Dutch, lower case as
    /// written inside dates; like the English ones, any prefix of three letters or more matches
    /// ("févr", "Okt", "dic"); no prefix of one names another month, but "jui" (see `month`).
    static let otherMonths: [(StaticString, Int)] = [
        ("janvier", 1), ("januar", 1), ("januari", 1), ("enero", 1), ("gennaio", 1), ("janeiro", 1),
        ("février", 2), ("fevrier", 2), ("februar", 2), ("februari", 2), ("febrero", 2), ("febbraio", 2), ("fevereiro", 2),
        ("mars", 3), ("märz", 3), ("maerz", 3), ("marzo", 3), ("março", 3), ("marco", 3), ("maart", 3),
        ("avril", 4), ("abril", 4), ("aprile", 4),
        ("mai", 5), ("mayo", 5), ("maggio", 5), ("maio", 5), ("mei", 5),
        ("juin", 6), ("juni", 6), ("junio", 6), ("giugno", 6), ("junho", 6),
        ("juillet", 7), ("juli", 7), ("julio", 7), ("luglio", 7), ("julho", 7),
        ("août", 8), ("aout", 8), ("agosto", 8), ("augustus", 8),
        ("septembre", 9), ("septiembre", 9), ("settembre", 9), ("setembro", 9),
        ("octobre", 10), ("oktober", 10), ("octubre", 10), ("ottobre", 10), ("outubro", 10),
        ("novembre", 11), ("noviembre", 11), ("novembro", 11),
        ("décembre", 12), ("decembre", 12), ("dezember", 12), ("diciembre", 12), ("dicembre", 12), ("dezembro", 12),
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
        // "jui" could be juin or juillet: four letters of those two.
        for (name, number) in otherMonths
        where c.word(w, abbreviates: name, minimum: name.utf8Start[0] == 0x6A && name.utf8Start[2] == 0x69 ? 4 : 3) {
            return number
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
