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
        w.field("id", c.id)
        w.field("key", c.key.rawValue)
        w.field("title", c.title)
        w.field("link", c.link)
        w.field("description", c.description)
        w.field("image", c.image)
        w.field("published", c.published?.iso8601)
        w.field("updated", c.updated?.iso8601)
        w.field("author", c.author)
        w.raw("enclosures", "[" + c.enclosures.map(enclosure).joined(separator: ",") + "]")
        w.field("kind", c.kind.rawValue)
        extra(&w)
        return w.finish()
    }

    static func enclosure(_ e: Enclosure) -> String {
        var w = JSONObjectWriter()
        w.field("url", e.url)
        w.field("type", e.type)
        if let length = e.length { w.raw("length", String(length)) } else { w.raw("length", "null") }
        return w.finish()
    }
}

/// Builds one JSON object, in field order, as UTF-8 bytes (one String at the end).
public struct JSONObjectWriter {
    private var out: [UInt8] = [0x7B]
    private var first = true

    public init() {}

    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { JSONText.appendQuoted(value, to: &out) } else { out.append(contentsOf: JSONText.null) }
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
        out.append(contentsOf: value.utf8)
    }

    private mutating func key(_ name: String) {
        if !first { out.append(0x2C) }
        first = false
        JSONText.appendQuoted(name, to: &out)
        out.append(0x3A)
    }

    public func finish() -> String {
        var bytes = out
        bytes.append(0x7D)
        return String(decoding: bytes, as: UTF8.self)
    }
}

public enum JSONText {
    static let null: [UInt8] = Array("null".utf8)

    /// A JSON string literal. Non-ASCII is written as UTF-8; U+2028/2029 are escaped so the output
    /// is also valid JavaScript.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal. Works on UTF-8 bytes: this runs for every field of
    /// every card.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(0x22)
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 { i += 1; continue }
                var escape: [UInt8]?
                var width = 1
                switch b {
                case 0x22: escape = [0x5C, 0x22]
                case 0x5C: escape = [0x5C, 0x5C]
                case 0x0A: escape = [0x5C, 0x6E]
                case 0x0D: escape = [0x5C, 0x72]
                case 0x09: escape = [0x5C, 0x74]
                case 0x00..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    escape = [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]]
                default:   // 0xE2: U+2028 / U+2029 are E2 80 A8 / E2 80 A9
                    if i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                        escape = Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                        width = 3
                    }
                }
                guard let escape else { i += 1; continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(contentsOf: escape)
                i += width
                runStart = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            out.append(0x22)
        }
    }
}
