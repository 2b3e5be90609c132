import FeedModel

/// A fingerprint of everything a card shows, to tell an unchanged card (skip the rewrite) from
/// an updated one. FNV-1a 64 from the model, because it is stored and must never change between
/// runs (Swift's `Hasher` is seeded per process).
enum ContentHash {
    static func of(_ card: Card, enclosuresJSON: String) -> String {
        // Each field is tagged so nil and "" differ and no field can run into the next: the
        // hash of "\u{1F}" + value per present field and "\u{1E}" per absent one, all in a row
        // (hashed piece by piece, the same value as of the joined text, without building it).
        var hash = StableHash.Accumulator()
        func add(_ value: String?) {
            guard let value else { return hash.add(byte: 0x1E) }
            hash.add(byte: 0x1F)
            hash.add(value)
        }
        add(card.id)
        add(card.title)
        if let text = card.descriptionText {
            hash.add(byte: 0x1F)
            text.withUTF8 { hash.add($0) }
        } else {
            hash.add(byte: 0x1E)
        }
        add(card.link)
        add(card.image)
        add(card.published.map { String($0.secondsSince1970) })
        add(card.updated.map { String($0.secondsSince1970) })
        add(card.author)
        add(enclosuresJSON)
        add(card.kind.rawValue)
        return hash.hex
    }
}
