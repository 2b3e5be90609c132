import FeedModel

/// Enclosures are stored as a JSON array of `{"url":…,"type":…,"length":…}` objects (type and
/// length omitted when absent). Written by hand to keep Foundation out; read back with SQLite's
/// own JSON functions (`EnclosureReader`), which the schema's CHECK also uses to validate it.
enum EnclosureJSON {
    /// U+0000 in a URL or type (a JSON Feed's `\u0000`) is written as U+FFFD: SQLite's JSON
    /// functions end a string there and PostgreSQL's refuse `\u0000` in text, which failed
    /// every listing holding the card on PostgreSQL.
    static func encode(_ enclosures: [Enclosure]) -> String {
        func text(_ s: String) -> String {
            guard s.utf8.contains(0) else { return JSONText.quoted(s) }
            var scalars = String.UnicodeScalarView()
            for scalar in s.unicodeScalars { scalars.append(scalar == "\u{0}" ? "\u{FFFD}" : scalar) }
            return JSONText.quoted(String(scalars))
        }
        var out = "["
        for (index, enclosure) in enclosures.enumerated() {
            if index > 0 { out += "," }
            out += "{\"url\":" + text(enclosure.url)
            if let type = enclosure.type { out += ",\"type\":" + text(type) }
            if let length = enclosure.length { out += ",\"length\":" + String(length) }
            out += "}"
        }
        return out + "]"
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
