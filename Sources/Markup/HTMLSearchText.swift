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
        let capacity = min(bytes.count, max(0, limit))
        guard capacity > 0 else { return "" }
        var hasReference = false
        // Written straight into the string's storage (this runs for every card a feed brings):
        // the output is a subsequence of valid UTF-8 input plus spaces, so only a sequence cut
        // by the limit needs repair, which the initializer's validation does.
        let text = String(unsafeUninitializedCapacity: capacity) { out in
            var count = 0
            var i = 0
            let n = bytes.count
            // A space after a word only: none at the start, none doubled.
            func space() { if count > 0, out[count - 1] != 0x20 { out[count] = 0x20; count += 1 } }
            while i < n && count < capacity {
                let b = bytes[i]
                if b > 0x20 && b != UInt8(ascii: "<") && b != UInt8(ascii: "&") && b != 0x7F {
                    // A run of plain text, copied in one piece.
                    var end = i + 1
                    let last = min(n, i + capacity - count)
                    while end < last {
                        let c = bytes[end]
                        if c < 0x20 || c == UInt8(ascii: "<") || c == UInt8(ascii: "&") || c == 0x7F { break }
                        end += 1
                    }
                    (out.baseAddress! + count).update(from: bytes.baseAddress! + i, count: end - i)
                    count += end - i
                    i = end
                    continue
                }
                if b != UInt8(ascii: "<") {
                    if b == UInt8(ascii: "&") { hasReference = true }
                    // Control characters and line breaks become spaces; the tokenizer splits on both.
                    if b < 0x20 || b == 0x7F { space() } else if b != 0x20 || count > 0 { out[count] = b; count += 1 }
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
                var name: UInt64 = 0  // the first 8 bytes of the name, lower-cased, packed
                while j < n, isNameByte(bytes[j]) {
                    if j - nameStart < 8 { name = name << 8 | UInt64(bytes[j] | 0x20) }
                    j += 1
                }
                if j == nameStart {
                    // "<" not followed by a name ("a < b"): text.
                    out[count] = b; count += 1
                    i += 1
                    continue
                }
                let inline = j - nameStart <= 6 && inlineNames.contains(name)
                var quote: UInt8 = 0
                while j < n {
                    let c = bytes[j]
                    if quote != 0 { if c == quote { quote = 0 } } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c } else if c == UInt8(ascii: ">") { break }
                    j += 1
                }
                i = j + 1
                if !inline { space() }
            }
            // Cut at a character boundary: drop a trailing partial UTF-8 sequence.
            if count == capacity && capacity < n {
                var k = count - 1
                while k > 0 && out[k] & 0xC0 == 0x80 { k -= 1 }
                if out[k] >= 0xC0 {
                    let need = out[k] >= 0xF0 ? 4 : out[k] >= 0xE0 ? 3 : 2
                    if count - k < need { count = k }
                }
            }
            while count > 0 && out[count - 1] == 0x20 { count -= 1 }
            return count
        }
        return hasReference ? HTMLEntities.decode(text) : text
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    /// Elements that run inside a word's line without separating words, each name's bytes packed
    /// into an integer as the scan packs a tag's name (so a lookup allocates nothing). Digits
    /// are packed with bit 5 set, which they have already.
    private static let inlineNames: Set<UInt64> = Set([
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
        "tt", "u", "var", "wbr",
    ].map { $0.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } })
}
