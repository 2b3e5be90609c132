/// How many terminal columns text takes, as terminals draw it (wcwidth's rules, from Unicode
/// properties rather than a copied table):
/// - 0 for combining marks (Mn, Me), format characters (ZWJ, ZWSP, soft hyphen…), variation
///   selectors, and control characters;
/// - 2 for East Asian Wide and Fullwidth characters (CJK, Hangul, kana, fullwidth forms) and for
///   emoji shown as emoji (Emoji_Presentation, or any emoji followed by VS16);
/// - 1 for everything else.
/// A grapheme cluster (a `Character`) that is an emoji sequence (a flag, a ZWJ family, VS16)
/// takes two cells; any other takes the sum of its scalars ("e" + U+0301 is one cell).
/// ANSI escape sequences (ESC [ … letter) take no columns: styled text is measured as plain.
public enum DisplayWidth {
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        // Printable ASCII, most of most feeds: one column a byte, no grapheme breaking needed.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { inEscape = false }
                continue
            }
            if character == "\u{1B}" { inEscape = true; continue }
            width += of(character: character)
        }
        return width
    }

    public static func of(character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let first = scalars.first, scalars.count == 1 { return of(scalar: first) }
        // Emoji sequences (VS16, ZWJ families, flags, skin tones) are drawn as one picture.
        if scalars.contains("\u{FE0F}") || scalars.contains("\u{200D}") { return 2 }
        if let first = scalars.first, first.properties.isEmojiPresentation { return 2 }
        // Otherwise terminals draw each scalar: a letter and its marks take the letter's width,
        // a Devanagari conjunct its two letters.
        return scalars.reduce(0) { $0 + of(scalar: $1) }
    }

    public static func of(scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0xA0 { return 0 }
        if v < 0x300 { return v == 0xAD ? 0 : 1 }   // Latin-1 and Latin Extended: fast path
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) { return 0 }
        if (0x1160...0x11FF).contains(v) { return 0 }   // Hangul medial vowels, final consonants
        if isWide(v) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks.
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
