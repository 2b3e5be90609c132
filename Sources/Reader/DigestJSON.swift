import FeedModel
import Storage

/// Saved cards as JSON: the card model of `feeds parse --json` (same fields, same null rules)
/// plus what the store knows: `cardID` (what `feeds mark` takes), `source` (display name),
/// `sourceID`, `read`, `firstSeen`.
public enum DigestJSON {
    public static func card(_ stored: StoredCard) -> String {
        CardJSON.card(stored.card) { w in
            w.raw("cardID", String(stored.id.rawValue))
            w.field("source", stored.sourceName)
            w.raw("sourceID", String(stored.sourceID.rawValue))
            w.field("read", stored.isRead)
            w.field("firstSeen", stored.firstSeenAt.iso8601)
        }
    }

    /// A JSON array, one card per line.
    public static func array(_ cards: [StoredCard]) -> String {
        if cards.isEmpty { return "[]\n" }
        return "[\n" + cards.map(card).joined(separator: ",\n") + "\n]\n"
    }
}
