import FeedModel

/// Escaping for the HTML this module writes, and for anyone else who writes HTML (the feed
/// parser escapes plain-text bodies and re-serializes inline markup with it). Also the one
/// XML text escaping: `feeds export`, `sources.opml` and `digest.atom` write through it, so it
/// drops every character XML 1.0 forbids (the C0 controls but tab, line feed and carriage
/// return; U+FFFE and U+FFFF; surrogates cannot occur in a Swift string), and its output is
/// always well-formed XML text.
public enum HTMLEscaping {
    /// `text` as element content (see `appendText`).
    public static func text(_ text: String) -> String {
        var out = ""
        appendText(text, to: &out)
        return out
    }

    /// `value` for a double-quoted attribute (see `appendAttribute`).
    public static func attribute(_ value: String) -> String {
        var out = ""
        appendAttribute(value, to: &out)
        return out
    }

    /// Appends `text` as element content: `&`, `<`, `>` escaped; NUL and the C0 controls other
    /// than tab and line feed dropped (form feed too: the sanitizer drops it, and a description
    /// must come out of sanitizing unchanged; found by fuzzing); a carriage return becomes a line
    /// feed (or disappears before one), so that reading the output back gives the same text;
    /// U+FFFE and U+FFFF dropped (not XML characters).
    static func appendText(_ text: String, to out: inout String) {
        append(text, to: &out, attribute: false)
    }

    /// Appends `value` for a double-quoted attribute: as `appendText`, and `"` escaped.
    static func appendAttribute(_ value: String, to out: inout String) {
        append(value, to: &out, attribute: true)
    }

    private static func append(_ text: String, to out: inout String, attribute: Bool) {
        let utf8 = text.utf8
        // Fast path: nothing to escape.
        if !utf8.contains(where: { needsWork($0) }) {
            out += text
            return
        }
        var buffer = ByteSink(capacity: utf8.count + utf8.count / 8 + 16)
        append(text, to: &buffer, attribute: attribute)
        out += buffer.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes that `append` does not copy as they are.
    @inline(__always) static func needsWork(_ b: UInt8) -> Bool {
        b < 0x20 && b != 0x09 && b != 0x0A || b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x7F || b == 0xC2
            || b == 0xEF
    }

    /// `appendText` / `appendAttribute` into UTF-8 bytes.
    static func append(_ text: String, to out: inout [UInt8], attribute: Bool) {
        var text = text
        text.withUTF8 { append(UnsafeBufferPointer(start: $0.baseAddress, count: $0.count), to: &out, attribute: attribute) }
    }

    static func append(_ text: String, to out: inout ByteSink, attribute: Bool) {
        var text = text
        text.withUTF8 { append(UnsafeBufferPointer(start: $0.baseAddress, count: $0.count), to: &out, attribute: attribute) }
    }

    /// `appendText` / `appendAttribute` of UTF-8 bytes into an array (through a `ByteSink`).
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], attribute: Bool) {
        var sink = ByteSink(capacity: bytes.count + bytes.count / 8 + 16)
        append(bytes, to: &sink, attribute: attribute)
        sink.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// `appendText` / `appendAttribute` of UTF-8 bytes into UTF-8 bytes.
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteSink, attribute: Bool) {
        let n = bytes.count
        guard n > 0, let p = bytes.baseAddress else { return }
        var i = 0
        var afterC2 = false
        let work = workTable
        while i < n {
            // Copy the run that needs no work in one go.
            var j = i
            if !afterC2 {
                while j < n {
                    if j + 8 <= n {
                        let m = workMask(ByteScan.word(p, j))
                        if m == 0 { j += 8; continue }
                        j += ByteScan.firstFlagged(m)
                    }
                    if work[Int(p[j])] { break }
                    j += 1
                }
                if j > i {
                    out.append(p + i, count: j - i)
                    i = j
                    if i == n { break }
                }
            }
            let b = p[i]
            i += 1
            if afterC2 {
                afterC2 = false
                if b < 0xA0 {
                    // U+0080...U+009F (from `&#146;` and the like) are the windows-1252
                    // characters the author meant, as HTML5 reads such references.
                    out.append(contentsOf: c1Replacements[Int(b & 0x1F)])
                    continue
                }
                out.append(0xC2)
            }
            switch b {
            case 0xC2: afterC2 = true
            case 0xEF where i + 1 < n && p[i] == 0xBF && (p[i + 1] == 0xBE || p[i + 1] == 0xBF):
                i += 2  // U+FFFE, U+FFFF: forbidden in XML
            case 0xEF:
                // Another U+Fxxx: copied whole, so the scan does not stop inside it.
                out.append(b)
            case 0x26: out.append(contentsOf: "&amp;" as StaticString)
            case 0x3C: out.append(contentsOf: "&lt;" as StaticString)
            case 0x3E: out.append(contentsOf: "&gt;" as StaticString)
            case 0x22 where attribute: out.append(contentsOf: "&quot;" as StaticString)
            case 0x0D:
                // A line feed right after it is the same line break.
                out.append(0x0A)
                if i < n && p[i] == 0x0A { i += 1 }
            case 0x09, 0x0A: out.append(b)
            case 0x00..<0x20, 0x7F: continue
            default: out.append(b)
            }
        }
    }

    /// Flags the bytes of a word that may need work (`needsWork`; see `ByteScan` masks).
    @inline(__always) static func workMask(_ w: UInt64) -> UInt64 {
        ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x3C) | ByteScan.equalMask(w, 0x3E)
            | ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0x7F) | ByteScan.equalMask(w, 0xC2) | ByteScan.equalMask(w, 0xEF)
    }

    /// `needsWork` for every byte value.
    private static let workTable: [Bool] = (0...255).map { needsWork(UInt8($0)) }

    /// The UTF-8 of the character each of U+0080...U+009F stands for.
    private static let c1Replacements: [[UInt8]] = (0x80...0x9F).map { Array(String(HTMLEntities.character(forCodePoint: UInt32($0))).utf8) }
}
