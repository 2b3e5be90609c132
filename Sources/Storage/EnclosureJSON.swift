import FeedModel

/// Enclosures are stored as a JSON array of `{"url":…,"type":…,"length":…}` objects (type and
/// length omitted when absent). Written by hand to keep Foundation out; read back with SQLite's
/// own JSON functions (`EnclosureReader`), which the schema's CHECK also uses to validate it.
enum EnclosureJSON {
    static func encode(_ enclosures: [Enclosure]) -> String {
        var out = "["
        for (index, enclosure) in enclosures.enumerated() {
            if index > 0 { out += "," }
            out += "{\"url\":" + JSONText.quoted(enclosure.url)
            if let type = enclosure.type { out += ",\"type\":" + JSONText.quoted(type) }
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
