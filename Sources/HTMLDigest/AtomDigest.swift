import FeedModel
import Markup
import Storage

/// `digest.atom`: the latest cards as an Atom 1.0 feed, for a feed reader to follow the digest.
/// Escaping is `HTMLEscaping` too (its output is valid XML text: `&`, `<`, `>`, `"` escaped,
/// control characters dropped). The feed's `updated` is the newest card's date, not the time of
/// writing, so an unchanged digest is an unchanged file.
enum AtomDigest {
    static func feed(_ cards: some Collection<StoredCard>, options: DigestOptions, title: (StoredCard) -> String) -> String {
        let updated = cards.map { $0.card.updated ?? $0.card.date ?? $0.sortDate }.max() ?? options.since
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        out += "<title>" + HTMLEscaping.text(options.title) + "</title>\n"
        out += "<id>urn:feeds:digest:" + StableHash.fnv1a64Hex(options.title) + "</id>\n"
        out += "<updated>" + updated.iso8601 + "</updated>\n"
        out += "<link rel=\"alternate\" type=\"text/html\" href=\"index.html\"/>\n"
        out += "<generator>feeds</generator>\n"
        for stored in cards {
            let card = stored.card
            out += "<entry>\n<title>" + HTMLEscaping.text(title(stored)) + "</title>\n"
            // The card's key is unique within its source; together they are unique in the digest.
            out += "<id>urn:feeds:card:\(stored.sourceID.rawValue):" + StableHash.fnv1a64Hex(stored.key.rawValue) + "</id>\n"
            out += "<updated>" + (card.updated ?? card.date ?? stored.sortDate).iso8601 + "</updated>\n"
            if let published = card.published { out += "<published>" + published.iso8601 + "</published>\n" }
            if let href = CardHTML.safeHref(card.link) {
                out += "<link rel=\"alternate\" href=\"" + HTMLEscaping.attribute(href) + "\"/>\n"
            }
            for enclosure in card.enclosures {
                guard let href = CardHTML.safeHref(enclosure.url) else { continue }
                out += "<link rel=\"enclosure\" href=\"" + HTMLEscaping.attribute(href) + "\""
                if let type = enclosure.type { out += " type=\"" + HTMLEscaping.attribute(type) + "\"" }
                if let length = enclosure.length { out += " length=\"\(length)\"" }
                out += "/>\n"
            }
            out += "<author><name>" + HTMLEscaping.text(card.author ?? stored.sourceName) + "</name></author>\n"
            out += "<source><title>" + HTMLEscaping.text(stored.sourceName) + "</title></source>\n"
            // The sanitized HTML of the parser, escaped once as Atom's type="html" wants.
            if let description = card.description {
                out += "<content type=\"html\">" + HTMLEscaping.text(description) + "</content>\n"
            }
            out += "</entry>\n"
        }
        out += "</feed>\n"
        return out
    }
}
