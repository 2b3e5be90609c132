import FeedModel

/// How much a store keeps of the fields it indexes, one rule for both backends. A PostgreSQL
/// B-tree entry holds at most 2,704 bytes, and a title, a guid or a link longer than that (a
/// hostile or broken feed's: the parser keeps text up to 4 MiB) failed the whole source's save
/// there, where SQLite, whose keys have no such limit, saved it. Both stores now keep:
/// - a card's title and a feed's title cut to `titleBytes` at a character boundary, ending in
///   "…" (the title order's key and the source order's key are built from them; lower-casing
///   ASCII keeps the length);
/// - a card's identity key as it is up to `keyBytes`, and a longer one as its hash, so the
///   same long guid or link is still the same card on the next fetch.
public enum StoredBounds {
    public static let titleBytes = 1_000
    public static let keyBytes = 1_000

    /// `title` when it fits, else its longest prefix of whole characters that fits with "…".
    public static func title(_ title: String?) -> String? {
        guard let title, title.utf8.count > titleBytes else { return title }
        let room = titleBytes - "…".utf8.count
        var used = 0
        var end = title.startIndex
        for character in title {
            let size = character.utf8.count
            if used + size > room { break }
            used += size
            end = title.index(after: end)
        }
        return String(title[..<end]) + "…"
    }

    /// `key` when it fits, else "long:" and a hash of the whole key (per source, a 64-bit hash
    /// is as unique as a feed's items need).
    public static func key(_ key: CardKey) -> CardKey {
        guard key.rawValue.utf8.count > keyBytes else { return key }
        return CardKey(rawValue: "long:" + StableHash.fnv1a64Hex(key.rawValue) + ":"
                       + String(key.rawValue.utf8.count))
    }

    /// A feed's description of itself with its title bounded.
    public static func feed(_ feed: FeedInfo) -> FeedInfo {
        var bounded = feed
        bounded.title = title(feed.title)
        return bounded
    }
}
