import FeedModel
import Markup

/// DuckDuckGo's Instant Answer API (`https://api.duckduckgo.com/?q=...&format=json`):
/// the abstract (`Heading`, `AbstractText`, `AbstractURL`, `Image`), then `Results`, then
/// `RelatedTopics`, whose entries are either results or groups `{Name, Topics: [...]}` (SUSI's
/// client dropped the groups; here their topics are results like the others).
///
/// A result's `Result` is HTML: `<a href="FirstURL">title</a>rest of the text`. The anchor text
/// is the title, the rest the description. `Icon.URL` is often relative (`/i/xyz.png`) to
/// duckduckgo.com, and `Icon.Height`/`Width` are numbers or "" strings.
enum DuckDuckGoReader {
    /// Relative icon and image URLs in the API's answers are paths on the site itself.
    static let site = "https://duckduckgo.com/"

    static func read(_ root: JSONValue) -> SearchResult {
        var result = SearchResult(engine: .ddg)
        result.feed.title = root["Heading"].text.map { "DuckDuckGo: " + $0 }
        result.feed.link = root["AbstractURL"].text.flatMap { CardURL.link($0) }
        var cards: [Card] = []
        if let abstract = abstractCard(root) { cards.append(abstract) }
        for r in root["Results"].array { if let c = topicCard(r) { cards.append(c) } }
        var groups = 0
        for topic in root["RelatedTopics"].array {
            if !topic["Topics"].isNull {
                groups += 1
                for inner in topic["Topics"].array { if let c = topicCard(inner) { cards.append(c) } }
            } else if let c = topicCard(topic) {
                cards.append(c)
            }
        }
        result.cards = cards
        return result
    }

    static func abstractCard(_ root: JSONValue) -> Card? {
        guard let url = root["AbstractURL"].text else { return nil }
        var s = SearchCard(base: site)
        s.title = root["Heading"].text
        // AbstractText is plain text; Abstract the same with markup. Either will do.
        s.description = root["AbstractText"].text.map(HTMLEscaping.text) ?? root["Abstract"].text
        s.link = url
        s.image = root["Image"].text
        let card = s.card()
        return SearchCard.isWorthKeeping(card) ? card : nil
    }

    static func topicCard(_ topic: JSONValue) -> Card? {
        var s = SearchCard(base: site)
        s.link = topic["FirstURL"].text
        if let html = topic["Result"].text {
            let (anchor, rest) = splitAnchor(html)
            s.title = anchor
            s.description = rest
        }
        if s.title == nil { s.title = topic["Text"].text }
        s.image = topic["Icon"]["URL"].text
        // Height and Width are numbers, or "" when unknown; a 1×1 icon is a pixel, not a picture.
        if topic["Icon"]["Width"].int == 1 && topic["Icon"]["Height"].int == 1 { s.image = nil }
        let card = s.card()
        return SearchCard.isWorthKeeping(card) ? card : nil
    }

    /// `<a href="...">Title</a> rest` → ("Title", " rest"); without an anchor, (nil, html).
    static func splitAnchor(_ html: String) -> (String?, String?) {
        let b = Array(html.utf8)
        func find(_ needle: String, from: Int) -> Int? {
            let n = Array(needle.utf8)
            guard b.count >= n.count else { return nil }
            var i = from
            while i + n.count <= b.count {
                var j = 0
                while j < n.count, b[i + j] | 0x20 == n[j] | 0x20 { j += 1 }
                if j == n.count { return i }
                i += 1
            }
            return nil
        }
        guard let open = find("<a", from: 0), let tagEnd = find(">", from: open),
              let close = find("</a>", from: tagEnd) else { return (nil, html) }
        let anchor = String(decoding: b[(tagEnd + 1)..<close], as: UTF8.self)
        let rest = String(decoding: b[(close + 4)...], as: UTF8.self)
        // What follows the anchor is often nothing, or an empty second anchor: no description.
        var inTag = false
        let hasText = rest.unicodeScalars.contains { c in
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag, !c.properties.isWhitespace { return true }
            return false
        }
        return (anchor, hasText ? rest : nil)
    }
}
