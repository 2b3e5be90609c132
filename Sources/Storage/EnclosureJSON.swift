import FeedModel

/// Enclosures are stored as a JSON array of `{"url":…,"type":…,"length":…}` objects (type and
/// length omitted when absent). Written by hand to keep Foundation out; read back with SQLite's
/// own JSON functions (`EnclosureReader`), which the schema's CHECK also uses to validate it.
enum EnclosureJSON {
    static func encode(_ enclosures: [Enclosure]) -> String {
        var out = "["
        for (index, enclosure) in enclosures.enumerated() {
            if index > 0 { out += "," }
            out += "{\"url\":" + quoted(enclosure.url)
            if let type = enclosure.type { out += ",\"type\":" + quoted(type) }
            if let length = enclosure.length { out += ",\"length\":" + String(length) }
            out += "}"
        }
        return out + "]"
    }

    /// A JSON string literal (RFC 8259): quote, backslash and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Decodes the `enclosures` column with SQLite's `json_each`; one prepared statement reused
/// for every card of a listing.
struct EnclosureReader {
    private let statement: Statement

    init(_ db: Database) throws {
        statement = try db.prepare("""
            SELECT json_extract(value, '$.url'), json_extract(value, '$.type'),
                   json_extract(value, '$.length')
            FROM json_each(?1) ORDER BY key
            """)
    }

    func decode(_ json: String) throws -> [Enclosure] {
        guard json != "[]" else { return [] }  // the common case costs no query
        return try statement.query([.text(json)]) { row in
            Enclosure(url: row.string(0) ?? "", type: row.string(1), length: row.optionalInt64(2))
        }
    }
}
