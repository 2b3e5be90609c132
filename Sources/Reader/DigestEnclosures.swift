import FeedModel

/// Enclosure lines of the text digest: `[audio] URL (30.0 MB)`, so a podcast's episode file
/// is in the digest and not only in `--json`.
enum DigestEnclosures {
    /// The enclosures worth a line: all but the one already shown as the card's image.
    static func lines(_ card: Card) -> [String] {
        card.enclosures.filter { $0.url != card.image }.map(line)
    }

    static func line(_ e: Enclosure) -> String {
        var s = "[\(kind(e.type))] " + TerminalText.line(e.url)
        if let length = e.length, length > 0 { s += " (\(size(length)))" }
        return s
    }

    /// `audio`, `video`, `image` from the MIME type, `file` for anything else or none.
    static func kind(_ type: String?) -> String {
        guard let top = type?.split(separator: "/").first else { return "file" }
        return ["audio", "video", "image"].contains(String(top)) ? String(top) : "file"
    }

    /// Decimal units, one decimal: 30000000 is `30.0 MB`, 512 is `512 B`.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        var unit = 0
        var scaled = bytes
        while scaled >= 1_000_000 && unit < units.count - 1 { scaled /= 1_000; unit += 1 }
        // scaled is in [1000, 1e6) of the unit below units[unit]: tenths by integer arithmetic.
        let tenths = (scaled + 50) / 100
        if tenths >= 10_000 && unit < units.count - 1 { return "\(tenths / 10_000).\(tenths / 1_000 % 10) \(units[unit + 1])" }
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
