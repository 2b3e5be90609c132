/// Decides a document's encoding from its first bytes, in this order: a byte order mark; the
/// zero-byte pattern of UTF-16/32 without a mark; the XML declaration's `encoding`; the caller's
/// hint (an HTTP charset); UTF-8. A declaration or hint naming a 16/32-bit encoding over bytes
/// that are plainly 8-bit is ignored (servers and feeds say "UTF-16" and mean nothing by it).
struct EncodingSniffer {
    struct Result: Equatable {
        var encoding: TextEncoding
        /// Bytes of byte order mark to skip.
        var bomLength: Int
    }

    /// How many leading bytes `sniff` wants to see (fewer is fine at end of input).
    static let wanted = 1024

    static func sniff(_ head: ArraySlice<UInt8>, hint: String?) -> Result {
        let b = Array(head.prefix(wanted))
        func at(_ i: Int) -> UInt8? { i < b.count ? b[i] : nil }
        // Byte order marks.
        if at(0) == 0xEF, at(1) == 0xBB, at(2) == 0xBF { return Result(encoding: .utf8, bomLength: 3) }
        if at(0) == 0xFF, at(1) == 0xFE, at(2) == 0, at(3) == 0 { return Result(encoding: .utf32(bigEndian: false), bomLength: 4) }
        if at(0) == 0, at(1) == 0, at(2) == 0xFE, at(3) == 0xFF { return Result(encoding: .utf32(bigEndian: true), bomLength: 4) }
        if at(0) == 0xFF, at(1) == 0xFE { return Result(encoding: .utf16(bigEndian: false), bomLength: 2) }
        if at(0) == 0xFE, at(1) == 0xFF { return Result(encoding: .utf16(bigEndian: true), bomLength: 2) }
        // Zero-byte patterns of '<' or white space in 16/32-bit encodings.
        if b.count >= 4 {
            if b[0] == 0, b[1] == 0, b[2] == 0, b[3] != 0 { return Result(encoding: .utf32(bigEndian: true), bomLength: 0) }
            if b[0] != 0, b[1] == 0, b[2] == 0, b[3] == 0 { return Result(encoding: .utf32(bigEndian: false), bomLength: 0) }
            if b[0] == 0, b[1] != 0, b[2] == 0, b[3] != 0 { return Result(encoding: .utf16(bigEndian: true), bomLength: 0) }
            if b[0] != 0, b[1] == 0, b[2] != 0, b[3] == 0 { return Result(encoding: .utf16(bigEndian: false), bomLength: 0) }
        }
        let eightBit = { (e: TextEncoding) -> Bool in
            switch e { case .utf16, .utf32: return false; default: return true }
        }
        if let label = declaredEncoding(b), let enc = resolve(label), eightBit(enc) {
            return Result(encoding: enc, bomLength: 0)
        }
        if let hint, let enc = resolve(hint), eightBit(enc) {
            // A server that says Latin-1 about bytes that are valid UTF-8 with non-ASCII in them
            // is wrong far more often than the bytes are.
            if enc == .windows1252, UTF8Check.isValidNonASCII(b) { return Result(encoding: .utf8, bomLength: 0) }
            return Result(encoding: enc, bomLength: 0)
        }
        return Result(encoding: .utf8, bomLength: 0)
    }

    static func resolve(_ label: String) -> TextEncoding? {
        let trimmed = label.trimmingASCIIWhitespace
        guard !trimmed.isEmpty, trimmed.count < 64 else { return nil }
        if let known = TextEncoding.named(trimmed) { return known }
        return IconvDecoder.isSupported(trimmed) ? .iconv(trimmed) : nil
    }

    /// The value of `encoding="..."` in an XML declaration at the start (after white space).
    static func declaredEncoding(_ b: [UInt8]) -> String? {
        var i = 0
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        guard i + 5 < b.count, b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "?"),
              b[i + 2] | 0x20 == UInt8(ascii: "x"), b[i + 3] | 0x20 == UInt8(ascii: "m"), b[i + 4] | 0x20 == UInt8(ascii: "l")
        else { return nil }
        guard let end = b[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let decl = String(decoding: b[i..<end], as: UTF8.self)
        guard let r = decl.range(of: "encoding") else { return nil }
        var rest = decl[r.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { return nil }
        return String(rest[..<close])
    }
}

enum UTF8Check {
    /// True when `b` (possibly cut mid-sequence at the end) is valid UTF-8 and not all ASCII.
    static func isValidNonASCII(_ b: [UInt8]) -> Bool {
        var sawMulti = false
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0
            guard n > 0, c < 0xF5 else { return false }
            if i + n > b.count { break }
            for k in 1..<n where b[i + k] & 0xC0 != 0x80 { return false }
            sawMulti = true
            i += n
        }
        return sawMulti
    }
}

extension String {
    /// Without the spaces, tabs, line feeds and carriage returns at either end. On UTF-8 bytes
    /// (a walk over Characters cost ~1,000 instructions for "false"; it runs on attribute
    /// values of every item); the string itself when there is nothing to trim.
    var trimmingASCIIWhitespace: String {
        let u = utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var start = u.startIndex, end = u.endIndex
        while start < end, isSpace(u[start]) { start = u.index(after: start) }
        while end > start, isSpace(u[u.index(before: end)]) { end = u.index(before: end) }
        if start == u.startIndex && end == u.endIndex { return self }
        return String(self[start..<end])
    }
}
