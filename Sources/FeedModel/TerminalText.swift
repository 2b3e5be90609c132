/// Text from outside (a feed, a search answer, an OPML file, a server's headers, a sources file)
/// made safe to write to a terminal or to standard error: the one neutraliser every text writer
/// goes through (the reader, `parse`, `sources`, the CLI's `feeds: ...` lines, error messages).
///
/// A terminal acts on control characters: ESC starts CSI (`\e[2J` clears the screen), OSC
/// (`\e]0;…\a` sets the window title, `\e]52;…` writes the clipboard, `\e]8;…` makes a hidden
/// hyperlink), and the C1 controls U+0080-U+009F are the same commands in one character (U+009B
/// is CSI). Bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder the rest of the
/// line, so a name can show other than it reads. None of them may come from outside.
///
/// What they become, visibly (so a person sees that something was there, and what):
/// - C0 controls (U+0000-U+001F), DEL and C1 controls as `\xHH` (`\x1b`, `\x07`, `\x9b`);
/// - bidi controls (the above, and U+200E, U+200F, U+061C) and the line and paragraph
///   separators U+2028, U+2029 as `\uHHHH` (`\u202e`);
/// - in a one-line field (`line`), tab, line feed and carriage return as one space each: a name
///   or an error message never spans lines or rewinds one;
/// - in laid-out text (`lines`, the reader's description whose lines the HTML-to-text step
///   made), "\n" stays and a tab becomes four spaces; carriage return is `\x0d`.
/// A backslash from outside stays as it is: `\x1b` on the screen is either an escaped ESC or
/// those four characters, never an ESC.
public enum TerminalText {
    /// `s` as one line for a terminal (a title, a name, a URL, an error message).
    public static func line(_ s: String) -> String { neutralise(s, keepLines: false) }

    /// `line(s)` appended to `sink`: the bytes of `s` as they are when nothing in them is
    /// neutralised (nearly always), with no String made for the line.
    public static func appendLine(_ s: String, to sink: inout ByteSink) {
        if isClean(s.utf8, keepLines: false) { sink.append(contentsOf: s) } else { sink.append(contentsOf: neutralise(s, keepLines: false)) }
    }

    /// `s` as lines for a terminal: "\n" kept, every other control neutralised.
    public static func lines(_ s: String) -> String { neutralise(s, keepLines: true) }

    /// Whether `scalar` is one that `line` and `lines` never let through.
    public static func isNeutralised(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || isFormatControl(v)
    }

    static func isFormatControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C || v == 0x2028 || v == 0x2029
    }

    static func neutralise(_ s: String, keepLines: Bool) -> String {
        // Most text has nothing to change: one pass over the bytes says so.
        if isClean(s.utf8, keepLines: keepLines) { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            let v = scalar.value
            guard isNeutralised(scalar) else { out.append(scalar); continue }
            switch v {
            case 0x0A where keepLines:
                out.append(scalar)
            case 0x09 where keepLines:
                out.append(contentsOf: "    ".unicodeScalars)
            case 0x09, 0x0A:  // one-line (the cases above took laid-out text's)
                out.append(" ")
            case 0x0D where !keepLines:
                out.append(" ")
            default:
                out.append(contentsOf: visible(v).unicodeScalars)
            }
        }
        return String(out)
    }

    /// Whether `bytes` (valid UTF-8) hold nothing `neutralise` changes: tested on the bytes,
    /// each neutralised character by its whole encoding, so that text of the usual kind with
    /// a "·", "—" or "é" (lead bytes 0xC2, 0xE2 like C1 and bidi controls) is no slower than ASCII
    /// (`feeds sources` sent each of its 5,000 state lines, "cards 200 (30 unread) · last
    /// fetch ...", through the scalar-by-scalar pass). Encodings: C0 and DEL are one byte; C1
    /// (U+0080-U+009F) C2 80-9F; U+061C D8 9C; U+200E, U+200F E2 80 8E-8F; U+2028-U+202E
    /// E2 80 A8-AE; U+2066-U+2069 E2 81 A6-A9.
    static func isClean(_ bytes: String.UTF8View, keepLines: Bool) -> Bool {
        // In the string's contiguous bytes when it has them (every native string): walking the
        // UTF8View's indices was 5 % of `feeds sources`.
        if let clean = bytes.withContiguousStorageIfAvailable({ isClean(bytes: $0, keepLines: keepLines) }) { return clean }
        return isClean(bytes: bytes, keepLines: keepLines)
    }

    static func isClean<Bytes: Collection<UInt8>>(bytes: Bytes, keepLines: Bool) -> Bool {
        var i = bytes.startIndex
        let end = bytes.endIndex
        func at(_ k: Int) -> UInt8? {
            guard let j = bytes.index(i, offsetBy: k, limitedBy: end), j < end else { return nil }
            return bytes[j]
        }
        while i < end {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F {
                if !(keepLines && b == 0x0A) { return false }
            } else if b == 0xC2 {
                if let c = at(1), c < 0xA0 { return false }
            } else if b == 0xD8 {
                if at(1) == 0x9C { return false }
            } else if b == 0xE2 {
                switch (at(1), at(2)) {
                case (0x80, .some(0x8E...0x8F)), (0x80, .some(0xA8...0xAE)), (0x81, .some(0xA6...0xA9)): return false
                default: break
                }
            }
            i = bytes.index(after: i)
        }
        return true
    }

    static func visible(_ v: UInt32) -> String {
        let hex = String(v, radix: 16)
        if v <= 0xFF { return "\\x" + (hex.count < 2 ? "0" + hex : hex) }
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
