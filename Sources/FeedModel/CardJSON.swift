/// The JSON form of cards, written by hand so the model needs no Foundation and output can be
/// streamed one card at a time. Field names and null rules are those of `feeds parse --json`
/// (the conformance model): every field present, `null` when absent, dates as
/// `YYYY-MM-DDTHH:MM:SSZ`.
public enum CardJSON {
    /// `{"title":…,"link":…,"description":…,"image":…}`
    public static func feed(_ f: FeedInfo) -> String {
        var w = JSONObjectWriter()
        w.field("title", f.title)
        w.field("link", f.link)
        w.field("description", f.description)
        w.field("image", f.image)
        return w.finish()
    }

    /// One entry; `extra` fields (source, read state, ...) are appended by callers that have them.
    public static func card(_ c: Card, extra: (inout JSONObjectWriter) -> Void = { _ in }) -> String {
        var w = JSONObjectWriter()
        fields(of: c, into: &w)
        extra(&w)
        return w.finish()
    }

    /// Appends `card(c)`'s bytes to `out`: the streaming writers (`feeds parse --json`) build
    /// their output in one buffer, with no String per card or per field.
    public static func append(_ c: Card, to out: inout ByteSink) {
        var w = JSONObjectWriter(appendingTo: &out)
        fields(of: c, into: &w)
        w.finish(into: &out)
    }

    private static func fields(of c: Card, into w: inout JSONObjectWriter) {
        w.text("id", c.id)
        // The key without its String: `CardKey(for:)`'s first rule, written in place.
        if c.kind == .article, let id = c.id, !id.isEmpty {
            w.staticKey("key")
            JSONText.appendQuoted(id, prefix: keyIDPrefix, to: &w.out)
        } else {
            w.text("key", c.key.rawValue)
        }
        w.text("title", c.title)
        w.text("link", c.link)
        w.text("description", c.descriptionText)
        w.text("image", c.image)
        w.date("published", c.published)
        w.date("updated", c.updated)
        w.text("author", c.author)
        w.staticKey("enclosures")
        w.out.append(0x5B)
        for (i, e) in c.enclosures.enumerated() {
            if i > 0 { w.out.append(0x2C) }
            var inner = JSONObjectWriter(appendingTo: &w.out)
            enclosureFields(e, into: &inner)
            inner.finish(into: &w.out)
        }
        w.out.append(0x5D)
        w.text("kind", c.kind.rawValue)
    }

    private static let keyIDPrefix: StaticString = "id:"

    static func enclosure(_ e: Enclosure) -> String {
        var w = JSONObjectWriter()
        enclosureFields(e, into: &w)
        return w.finish()
    }

    private static func enclosureFields(_ e: Enclosure, into w: inout JSONObjectWriter) {
        w.text("url", e.url)
        w.text("type", e.type)
        if let length = e.length { w.raw("length", String(length)) } else { w.raw("length", "null") }
    }
}

/// Builds one JSON object, in field order, as UTF-8 bytes (one String at the end, or appended
/// to a caller's buffer).
public struct JSONObjectWriter: ~Copyable {
    fileprivate var out: ByteSink
    private var first = true

    public init() {
        out = ByteSink(capacity: 256)
        out.append(0x7B)
    }

    /// Takes `buffer` over (no copy) and opens the object; `finish(into:)` hands it back.
    fileprivate init(appendingTo buffer: inout ByteSink) {
        out = ByteSink(capacity: 16)
        swap(&out, &buffer)
        out.append(0x7B)
    }

    /// `value` as a JSON string, or null, under a literal name (written as it is: plain ASCII
    /// without quotes or backslashes; `feeds sources --json` writes 17 a source, and quoting
    /// each name as a String was a tenth of that command).
    public mutating func text(_ name: StaticString, _ value: String?) {
        staticKey(name)
        if let value { JSONText.appendQuoted(value, to: &out) } else { JSONText.appendNull(to: &out) }
    }

    mutating func text(_ name: StaticString, _ value: UTF8Text?) {
        staticKey(name)
        if let value {
            // Not `withUTF8` with a closure: a closure cannot capture the non-copyable `out`.
            switch value.storage {
            case .string(var s): s.withUTF8 { JSONText.appendQuoted($0, prefix: nil, to: &out) }
            case .bytes(let b): b.withUnsafeBufferPointer { JSONText.appendQuoted($0, prefix: nil, to: &out) }
            }
        } else {
            JSONText.appendNull(to: &out)
        }
    }

    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { JSONText.appendQuoted(value, to: &out) } else { JSONText.appendNull(to: &out) }
    }

    /// A date as `"YYYY-MM-DDTHH:MM:SSZ"` (`Timestamp.iso8601`), or null.
    public mutating func date(_ name: StaticString, _ value: Timestamp?) {
        staticKey(name)
        guard let value else { JSONText.appendNull(to: &out); return }
        // `iso8601`'s text needs no escaping.
        out.append(0x22)
        value.appendISO8601(to: &out)
        out.append(0x22)
    }

    /// `value` as a JSON number, or null, under a literal name, its digits written in place.
    public mutating func number(_ name: StaticString, _ value: Int?) {
        staticKey(name)
        guard let value else { JSONText.appendNull(to: &out); return }
        out.appendDecimal(value)
    }

    /// `values` as a JSON array of strings under a literal name.
    public mutating func texts(_ name: StaticString, _ values: [String]) {
        staticKey(name)
        out.append(0x5B)
        for (i, value) in values.enumerated() {
            if i > 0 { out.append(0x2C) }
            JSONText.appendQuoted(value, to: &out)
        }
        out.append(0x5D)
    }

    public mutating func field(_ name: String, _ value: Int?) {
        raw(name, value.map { String($0) } ?? "null")
    }

    public mutating func field(_ name: String, _ value: Bool) {
        raw(name, value ? "true" : "false")
    }

    /// `value` must already be valid JSON.
    public mutating func raw(_ name: String, _ value: String) {
        key(name)
        out.append(contentsOf: value)
    }

    fileprivate mutating func staticKey(_ name: StaticString) {
        if !first { out.append(0x2C) }
        first = false
        // Field names are plain ASCII without quotes or backslashes: no escaping needed.
        out.append(0x22)
        out.append(contentsOf: name)
        out.append(0x22)
        out.append(0x3A)
    }

    private mutating func key(_ name: String) {
        if !first { out.append(0x2C) }
        first = false
        JSONText.appendQuoted(name, to: &out)
        out.append(0x3A)
    }

    public func finish() -> String {
        out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } + "}"
    }

    /// Closes the object and hands the buffer back to `buffer`.
    fileprivate mutating func finish(into buffer: inout ByteSink) {
        out.append(0x7D)
        swap(&out, &buffer)
    }
}

public enum JSONText {

    /// A JSON string literal. Non-ASCII is written as UTF-8; U+2028/2029 are escaped so the output
    /// is also valid JavaScript.
    public static func quoted(_ s: String) -> String {
        var out = ByteSink(capacity: s.utf8.count + 16)
        appendQuoted(s, to: &out)
        return out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    static func appendNull(to out: inout ByteSink) {
        out.append(0x6E); out.append(0x75); out.append(0x6C); out.append(0x6C)
    }

    /// Appends `s` as a JSON string literal. Works on UTF-8 bytes: this runs for every field of
    /// every card.
    public static func appendQuoted(_ s: String, to out: inout ByteSink) {
        var s = s
        s.withUTF8 { appendQuoted($0, prefix: nil, to: &out) }
    }

    /// `prefix + s` as one JSON string literal (`prefix` is plain ASCII that needs no escape).
    static func appendQuoted(_ s: String, prefix: StaticString, to out: inout ByteSink) {
        var s = s
        s.withUTF8 { appendQuoted($0, prefix: prefix, to: &out) }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, prefix: StaticString?, to out: inout ByteSink) {
        out.append(0x22)
        if let prefix { out.append(contentsOf: prefix) }
        guard let p = bytes.baseAddress else { out.append(0x22); return }
        let n = bytes.count
        var runStart = 0
        var i = 0
        let quotes = SIMD16<UInt8>(repeating: 0x22), backslashes = SIMD16<UInt8>(repeating: 0x5C)
        let e2s = SIMD16<UInt8>(repeating: 0xE2), spaces = SIMD16<UInt8>(repeating: 0x20)
        while i < n {
            // Sixteen bytes at a time (SSE2 compares), then eight, to the next control, quote,
            // backslash or 0xE2 (the lead byte of U+2028/2029); other non-ASCII bytes are
            // written as they are.
            if i + 16 <= n {
                let v = ByteScan.vector(p, i)
                let hit = (v .< spaces) .| (v .== quotes) .| (v .== backslashes) .| (v .== e2s)
                if !any(hit) { i += 16; continue }
                i += ByteScan.firstTrue(hit)
            } else if i + 8 <= n {
                let w = ByteScan.word(p, i)
                let m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0x5C)
                    | ByteScan.equalMask(w, 0xE2)
                if m == 0 { i += 8; continue }
                i += ByteScan.firstFlagged(m)
            }
            let b = p[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 { i += 1; continue }
            // 0xE2: U+2028 / U+2029 are E2 80 A8 / E2 80 A9; any other E2 sequence stays.
            var width = 1
            if b == 0xE2 {
                guard i + 2 < n, p[i + 1] == 0x80, p[i + 2] == 0xA8 || p[i + 2] == 0xA9 else { i += 1; continue }
                width = 3
            }
            out.append(p + runStart, count: i - runStart)
            out.append(0x5C)
            switch b {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x0A: out.append(0x6E)
            case 0x0D: out.append(0x72)
            case 0x09: out.append(0x74)
            case 0xE2:
                out.append(0x75); out.append(0x32); out.append(0x30); out.append(0x32)
                out.append(p[i + 2] == 0xA8 ? 0x38 : 0x39)
            default:   // the other controls below U+0020
                out.append(0x75); out.append(0x30); out.append(0x30)
                out.append(hexDigits.utf8Start[Int(b >> 4)]); out.append(hexDigits.utf8Start[Int(b & 0xF)])
            }
            i += width
            runStart = i
        }
        out.append(p + runStart, count: n - runStart)
        out.append(0x22)
    }
}
