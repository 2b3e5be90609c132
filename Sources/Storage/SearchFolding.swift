import Foundation

/// The one folding of search text, applied to what is indexed and to every query word (then
/// SQLite's `unicode61 remove_diacritics 2` folds diacritics and the case it knows): the
/// compatibility forms as their letters (`ﬁ` as `fi`, full-width `Ｆｅｅｄ` as `Feed`, `²` as
/// `2`), full case mappings (`ß` and `ẞ` as `ss`, `ŉ` as `ʼn`), the case of scripts unicode61
/// does not know (those beyond the BMP: Deseret, Osage, Adlam...). Turkish dotted and dotless i
/// both fold to `i` (a search cannot know the language; before, `ı` matched only itself).
/// Changing this changes what the index holds: bump `SearchIndexer.schemaVersion`.
///
/// Fast where text is: ASCII costs one scan; the blocks of most alphabetic text (Latin letters,
/// Greek, Cyrillic, Armenian, Hebrew to Devanagari and on, kana, CJK, Hangul) pass through
/// unchanged, as unicode61 folds their case itself; any other character is folded in full
/// (`full`), once per distinct character a text. Folding whole texts that way cost 270-300 µs
/// for 2 KB of German or Russian (a cold update of 100,000 such cards: 30 s more); this costs
/// about what a copy does.
public enum SearchFolding {
    public static func fold(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var text = text
        return text.withUTF8 { fold(utf8: $0) } ?? text
    }

    /// The folding on the text's UTF-8 bytes (valid, as a String's are), the scalars decoded
    /// from them in place: walking the text's `unicodeScalars` by index, as this did before,
    /// was 6% of a cold update's CPU (its index checks per scalar). Nil: nothing to fold.
    private static func fold(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // The first character to fold; none (most text): the text as it is, no copy.
        guard var next = firstToFold(bytes, from: 0) else { return nil }
        // Runs that pass through are copied whole.
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        out.append(contentsOf: bytes[..<next.start])
        var folded: [UInt32: [UInt8]] = [:]
        while true {
            // `next` is a character to fold; then the run after it that passes, copied whole.
            let v = next.value
            if v >= 0xFF01, v <= 0xFF5E {
                out.append(UInt8(v - 0xFEE0))  // full-width ASCII is ASCII 0xFEE0 below
            } else if let known = folded[v] {
                out.append(contentsOf: known)
            } else if let scalar = Unicode.Scalar(v) {
                let folding = Array(full(scalar).utf8)
                folded[v] = folding
                out.append(contentsOf: folding)
            }
            let run = next.start + next.length
            guard let after = firstToFold(bytes, from: run) else {
                out.append(contentsOf: bytes[run...])
                break
            }
            out.append(contentsOf: bytes[run..<after.start])
            next = after
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where the first scalar at or after `from` that does not pass through starts, its length
    /// in bytes and its value.
    private static func firstToFold(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> (start: Int, length: Int, value: UInt32)? {
        var i = from
        let n = b.count
        while i < n {
            let lead = UInt32(b[i])
            if lead < 0x80 { i += 1; continue }
            // A String's bytes are valid UTF-8: the lead byte says the length.
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard i + length <= n else { return nil }
            var v = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { v = v << 6 | UInt32(b[i + k] & 0x3F) }
            if !passesThrough(v) { return (i, length, v) }
            i += length
        }
        return nil
    }

    /// One character folded in full: NFKD, then upper and lower case, twice (`ẞ` lowercases to
    /// `ß`, which upper-cases to `SS`); dotless ı as i (its upper case is I; İ is i and a dot,
    /// which unicode61 drops).
    static func full(_ c: Unicode.Scalar) -> String {
        if c.value == 0x131 { return "i" }
        var s = String(c).decomposedStringWithCompatibilityMapping
        for _ in 0..<2 { s = s.uppercased().lowercased() }
        return s
    }

    public static func fold(_ text: String?) -> String? { text.map { fold($0) } }

    /// Characters whose full folding is what unicode61 does anyway (or that have none): the
    /// letters of the common blocks, less the few there with compatibility or full mappings.
    static func passesThrough(_ v: UInt32) -> Bool {
        switch v {
        case 0..<0xA0: return true  // ASCII and C1 controls
        case 0xC0...0xFF: return v != 0xDF  // Latin-1 letters, less ß
        case 0x100...0x24F:  // Latin Extended-A and -B, less İ ı Ĳ ĳ Ŀ ŀ ŉ ſ, the Ǆ...ǌ and Ǳ...ǳ digraphs, ǰ
            return !(0x130...0x133 ~= v || v == 0x13F || v == 0x140 || v == 0x149 || v == 0x17F
                     || 0x1C4...0x1CC ~= v || 0x1F0...0x1F3 ~= v)
        case 0x250...0x2AF, 0x300...0x344, 0x346...0x36F: return true  // IPA, combining diacritics (less ͅ)
        case 0x386, 0x388...0x38F, 0x391...0x3AF, 0x3B1...0x3C1, 0x3C3...0x3CE: return true  // Greek, less ΐ ΰ ς
        // Cyrillic to Georgian, Hangul Jamo...; not Cherokee nor Georgian Mtavruli and the newer
        // Cyrillic forms (their case came after the Unicode 6.1 of unicode61).
        case 0x400...0x52F, 0x531...0x586, 0x591...0x10FF, 0x1100...0x139F, 0x1400...0x1C7F, 0x1CC0...0x1CFF:
            return !exceptions.contains(v)
        case 0x1E00...0x1E95, 0x1E9F...0x1EFF: return true  // Latin Extended Additional, less ẖ...ẞ
        case 0x2010, 0x2012...0x2016, 0x2018...0x2023, 0x2027...0x202E, 0x2030...0x2032:
            return true  // dashes, quotes, bullets, ‰, ′ (not ‥ …, which are dots, nor the narrow no-break space)
        case 0x2C00...0x2DFF:
            return !exceptions.contains(v)  // Glagolitic, Latin Extended-C, Coptic, Georgian, Tifinagh
        case 0x3001...0x3035, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA640...0xA69B, 0xAC00...0xD7A3:
            return true  // CJK punctuation, kana, CJK, Yi, Cyrillic Extended-B, Hangul
        default: return false
        }
    }

    /// The characters of those blocks that have a compatibility mapping (Arabic high hamza
    /// forms, Thai and Lao am, Lao ligatures, Tibetan, Georgian ჼ, ⱼ ⱽ, Tifinagh ⵯ); found by
    /// SearchFoldingPassThroughTests, which checks every character that passes.
    static let exceptions: Set<UInt32> = [0x675, 0x676, 0x677, 0x678, 0xE33, 0xEB3, 0xEDC, 0xEDD, 0xF0C, 0xF77, 0xF79,
                                          0x10FC, 0x2C7C, 0x2C7D, 0x2D6F]
}
