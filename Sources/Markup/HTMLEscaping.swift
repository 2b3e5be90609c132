/// Escaping for the HTML this module writes.
enum HTMLEscaping {
    /// Appends `text` as element content: `&`, `<`, `>` escaped; NUL and the C0 controls other
    /// than tab, line feed and form feed dropped; a carriage return becomes a line feed (or
    /// disappears before one), so that reading the output back gives the same text.
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
        if !utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0C || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x7F || $0 == 0xC2 }) {
            out += text
            return
        }
        var buffer = [UInt8]()
        buffer.reserveCapacity(utf8.count + 16)
        var previousCR = false
        var afterC2 = false
        for b in utf8 {
            defer { previousCR = b == 0x0D }
            if afterC2 {
                afterC2 = false
                if b < 0xA0 {
                    // U+0080...U+009F (from `&#146;` and the like) are the windows-1252
                    // characters the author meant, as HTML5 reads such references.
                    buffer.append(contentsOf: String(HTMLEntities.character(forCodePoint: UInt32(b))).utf8)
                    continue
                }
                buffer.append(0xC2)
            }
            switch b {
            case 0xC2: afterC2 = true
            case 0x26: buffer.append(contentsOf: "&amp;".utf8)
            case 0x3C: buffer.append(contentsOf: "&lt;".utf8)
            case 0x3E: buffer.append(contentsOf: "&gt;".utf8)
            case 0x22 where attribute: buffer.append(contentsOf: "&quot;".utf8)
            case 0x0D: buffer.append(0x0A)
            case 0x0A: if !previousCR { buffer.append(0x0A) }
            case 0x09, 0x0C: buffer.append(b)
            case 0x00..<0x20, 0x7F: continue
            default: buffer.append(b)
            }
        }
        out += String(decoding: buffer, as: UTF8.self)
    }
}
