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

/// Builds one JSON object, in field order.
public struct JSONObjectWriter {
    private var out = "{"
    private var first = true

    public init() {}

    public mutating func field(_ name: String, _ value: String?) {
        raw(name, value.map(JSONText.quoted) ?? "null")
    }

    public mutating func field(_ name: String, _ value: Int?) {
        raw(name, value.map { String($0) } ?? "null")
    }

    public mutating func field(_ name: String, _ value: Bool) {
        raw(name, value ? "true" : "false")
    }

    /// `value` must already be valid JSON.
    public mutating func raw(_ name: String, _ value: String) {
        if !first { out += "," }
        first = false
        out += JSONText.quoted(name)
        out += ":"
        out += value
    }

    public func finish() -> String { out + "}" }
}

public enum JSONText {
    /// A JSON string literal. Non-ASCII is written as UTF-8; U+2028/2029 are escaped so the output
    /// is also valid JavaScript.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
        return out
    }
}
