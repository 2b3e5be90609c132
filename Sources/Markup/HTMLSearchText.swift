extension HTMLText {
    /// The words of a sanitized HTML fragment, for a search index: the text outside tags with
    /// entities decoded, every tag that is not inline read as a space (so `</p><p>` separates
    /// words and `<b>w</b>ord` does not), comments skipped. At most `limit` UTF-8 bytes of it,
    /// cut at a character boundary: reading stops there.
    ///
    /// One pass over the bytes and no parser, several times cheaper than `plainText`, which a
    /// search index does not need: no layout, only words. Meant for descriptions that went
    /// through `HTMLSanitizer` (well-formed tags, no script or style); on other HTML it still
    /// gives the text, with whatever script or style holds read as words.
    public static func searchText(_ html: String, limit: Int = .max) -> String {
        var html = html
        return html.withUTF8 { bytes in searchText(bytes, limit: limit) }
    }

    private static func searchText(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, limit))
        var hasReference = false
        var i = 0
        let n = bytes.count
        func space() { if let last = out.last, last != 0x20 { out.append(0x20) } }
        while i < n && out.count < limit {
            let b = bytes[i]
            if b != UInt8(ascii: "<") {
                if b == UInt8(ascii: "&") { hasReference = true }
                // Control characters and line breaks become spaces; the tokenizer splits on both.
                if b < 0x20 || b == 0x7F { space() } else { out.append(b) }
                i += 1
                continue
            }
            // A comment: skip to "-->".
            if i + 3 < n, bytes[i + 1] == UInt8(ascii: "!"), bytes[i + 2] == UInt8(ascii: "-"), bytes[i + 3] == UInt8(ascii: "-") {
                i += 4
                while i + 2 < n, !(bytes[i] == UInt8(ascii: "-") && bytes[i + 1] == UInt8(ascii: "-") && bytes[i + 2] == UInt8(ascii: ">")) { i += 1 }
                i = min(n, i + 3)
                space()
                continue
            }
            // A tag: its name decides space or not; attribute values may hold ">" inside quotes.
            var j = i + 1
            if j < n, bytes[j] == UInt8(ascii: "/") { j += 1 }
            let nameStart = j
            while j < n, isNameByte(bytes[j]) { j += 1 }
            if j == nameStart {
                // "<" not followed by a name ("a < b"): text.
                out.append(b)
                i += 1
                continue
            }
            let inline = isInline(UnsafeBufferPointer(rebasing: bytes[nameStart..<j]))
            var quote: UInt8 = 0
            while j < n {
                let c = bytes[j]
                if quote != 0 { if c == quote { quote = 0 } } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c } else if c == UInt8(ascii: ">") { break }
                j += 1
            }
            i = j + 1
            if !inline { space() }
        }
        if out.count > limit {
            out.removeLast(out.count - limit)
        }
        // Cut at a character boundary: drop a trailing partial UTF-8 sequence.
        if out.count >= limit {
            var k = out.count - 1
            while k > 0 && out[k] & 0xC0 == 0x80 { k -= 1 }
            if k >= 0 && out[k] >= 0xC0 {
                let need = out[k] >= 0xF0 ? 4 : out[k] >= 0xE0 ? 3 : 2
                if out.count - k < need { out.removeLast(out.count - k) }
            }
        }
        while out.last == 0x20 { out.removeLast() }
        var start = 0
        while start < out.count && out[start] == 0x20 { start += 1 }
        let text = String(decoding: out[start...], as: UTF8.self)
        return hasReference ? HTMLEntities.decode(text) : text
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    /// Elements that run inside a word's line without separating words, as lower-case bytes.
    private static let inlineNames: Set<[UInt8]> = Set([
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
        "tt", "u", "var", "wbr",
    ].map { Array($0.utf8) })

    /// Compared as bytes: this runs for every tag of every description indexed.
    private static func isInline(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count <= 6 else { return false }
        return inlineNames.contains(name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
    }
}
