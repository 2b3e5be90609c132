/// Numbers a stranger may write where a feed, a header or a search answer has a number: every
/// class of breakage, each at its edges, plus seeded random digit strings of every length up
/// to forty. One generator for every numeric field, so a field cannot be tested with fewer.
public enum HostileNumbers {
    /// The fixed classes, as text (what an XML element, an attribute or a header carries).
    public static let classes: [(name: String, text: String)] = [
        ("ttl sample", "153722867280912931"),
        ("2^63-1", "9223372036854775807"),
        ("2^63", "9223372036854775808"),
        ("-2^63", "-9223372036854775808"),
        ("-2^63-1", "-9223372036854775809"),
        ("overflow by one digit", "92233720368547758070"),
        ("2^64", "18446744073709551616"),
        ("forty nines", String(repeating: "9", count: 40)),
        ("negative", "-1"),
        ("negative minutes", "-60"),
        ("minus zero", "-0"),
        ("zero", "0"),
        ("leading zeros", "000000000000000000000000060"),
        ("1e300", "1e300"),
        ("1E3", "1E3"),
        ("fraction", "1.5"),
        ("trailing dot", "60."),
        ("NaN", "NaN"),
        ("nan", "nan"),
        ("Infinity", "Infinity"),
        ("-inf", "-inf"),
        ("hex", "0x10"),
        ("hex 2^63-1", "0x7FFFFFFFFFFFFFFF"),
        ("leading plus", "+60"),
        ("double minus", "--5"),
        ("minus space", "- 5"),
        ("spaces around", "  60  "),
        ("tab and newline", "\t60\n"),
        ("space inside", "6 0"),
        ("digit separator", "1_000"),
        ("thousands comma", "1,000"),
        ("letters after", "60abc"),
        ("empty", ""),
        ("blank", "   "),
        ("arabic-indic digits", "\u{0666}\u{0660}"),
        ("fullwidth digits", "\u{FF16}\u{FF10}"),
        ("NUL inside", "6\u{0}0"),
        ("huge with spaces", " 99999999999999999999999 "),
    ]

    /// `classes` plus `count` random digit strings (lengths 1...40, sometimes signed, sometimes
    /// padded), the same on every run.
    public static func all(randomCount count: Int = 200, seed: UInt64 = 63) -> [(name: String, text: String)] {
        var generator = SplitMix64(seed: seed)
        var out = classes
        for i in 0..<count {
            let length = Int.random(in: 1...40, using: &generator)
            var text = String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: text = "-" + text
            case 1: text = " " + text + " "
            case 2: text = "+" + text
            default: break
            }
            out.append(("random \(i)", text))
        }
        return out
    }

    /// JSON number tokens (and strings holding numbers) for JSON fields: what a JSON reader
    /// may get in place of an integer.
    public static let jsonTokens: [(name: String, token: String)] = [
        ("2^63-1", "9223372036854775807"),
        ("2^63", "9223372036854775808"),
        ("-2^63", "-9223372036854775808"),
        ("-2^63-1", "-9223372036854775809"),
        ("2^64", "18446744073709551616"),
        ("1e300", "1e300"),
        ("-1e300", "-1e300"),
        ("1e19", "1e19"),
        ("fraction", "1.5"),
        ("negative", "-1"),
        ("zero", "0"),
        ("overflow by one digit", "92233720368547758070"),
        ("forty nines", String(repeating: "9", count: 40)),
        ("string 2^63-1", "\"9223372036854775807\""),
        ("string -2^63", "\"-9223372036854775808\""),
        ("string 1e300", "\"1e300\""),
        ("string NaN", "\"NaN\""),
        ("string hex", "\"0x10\""),
        ("string plus", "\"+5\""),
        ("string spaces", "\" 60 \""),
        ("string empty", "\"\""),
        ("true", "true"),
        ("null", "null"),
        ("array", "[1]"),
        ("object", "{\"n\":1}"),
    ]

    /// What a strict reader of `text` in `range` must answer: the value when `text` is ASCII
    /// white space, an optional `-` and ASCII digits, and the value fits `range`; else nil.
    /// (A reference written differently from the one under test: Swift's own parser behind a
    /// pattern check.)
    public static func expected(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        let trimmed = String(String.UnicodeScalarView(text.unicodeScalars.drop { " \t\r\n".unicodeScalars.contains($0) }
            .reversed().drop { " \t\r\n".unicodeScalars.contains($0) }.reversed()))
        let digits = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ $0.value >= 0x30 && $0.value <= 0x39 }),
              let value = Int64(trimmed) else { return nil }
        return range.contains(value) ? value : nil
    }
}
