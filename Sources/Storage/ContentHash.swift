import FeedModel

/// A fingerprint of everything a card shows, to tell an unchanged card (skip the rewrite) from
/// an updated one. FNV-1a 64 from the model, because it is stored and must never change between
/// runs (Swift's `Hasher` is seeded per process).
enum ContentHash {
    static func of(_ card: Card, enclosuresJSON: String) -> String {
        var text = ""
        // Each field is tagged so nil and "" differ and no field can run into the next.
        func add(_ value: String?) {
            if let value { text += "\u{1F}" + value } else { text += "\u{1E}" }
        }
        add(card.id)
        add(card.title)
        add(card.description)
        add(card.link)
        add(card.image)
        add(card.published.map { String($0.secondsSince1970) })
        add(card.updated.map { String($0.secondsSince1970) })
        add(card.author)
        add(enclosuresJSON)
        add(card.kind.rawValue)
        return StableHash.fnv1a64Hex(text)
    }
}
