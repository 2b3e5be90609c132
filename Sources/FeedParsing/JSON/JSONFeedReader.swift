import FeedModel
import Markup

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1) to cards, under the same contract
/// as the XML feeds.
enum JSONFeedReader {
    struct Result {
        var feed: FeedInfo
        var cards: [Card]
        var format: FeedFormat
    }

    static func read(_ bytes: [UInt8], base: String?) throws -> Result {
        let root = try JSONValue.parse(bytes)
        guard root.isObject else { throw FeedParseError.notAFeed("the JSON is not an object") }
        let version = root["version"].string ?? ""
        guard version.contains("jsonfeed.org") || !root["items"].isNull else {
            throw FeedParseError.notAFeed("JSON without a JSON Feed `version` or `items` (a search response? use --as)")
        }
        let feedURL = root["feed_url"].string.map { CardURL.resolve($0, against: base) }
        let home = root["home_page_url"].string.map { CardURL.resolve($0, against: base) }
        let docBase = base ?? feedURL ?? home
        var info = FeedInfo()
        info.title = TextRules.nonBlank(root["title"].string).map(TextRules.collapseWhitespace)
        info.link = CardURL.link(home)
        info.description = TextRules.nonBlank(root["description"].string).map(HTMLEscaping.text)
        info.image = CardURL.image((root["icon"].string ?? root["favicon"].string).map { CardURL.resolve($0, against: docBase) })
        // Items are objects (JSON Feed 1.1, `items`); anything else in the list is not an item
        // (an empty card each, before: millions of them from a list of `[]`).
        // Local images only for a document read from a file: by its own URL, not feed_url.
        let folder = CardURL.localFolder(ofDocument: base)
        var cards = root["items"].array.filter(\.isObject).map { card(from: $0, base: docBase, localFolder: folder) }
        // An item without `authors`/`author` has the feed's (JSON Feed 1.1, `authors`).
        var feedAuthors = EntryFields()   // read as an item's are
        for author in root["authors"].array { feedAuthors.offerAuthor(author["name"].string, rank: 3) }
        feedAuthors.offerAuthor(root["author"]["name"].string, rank: 2)
        if let author = feedAuthors.card().author { for i in cards.indices where cards[i].author == nil { cards[i].author = author } }
        return Result(feed: info, cards: cards, format: version.hasSuffix("1.1") ? .json11 : .json1)
    }

    static func card(from item: JSONValue, base: String?, localFolder: String? = nil) -> Card {
        func url(_ v: JSONValue) -> String? { TextRules.nonBlank(v.string).map { CardURL.resolve($0, against: base) } }
        var e = EntryFields()
        e.localFolder = localFolder
        e.id.offer(TextRules.nonBlank(item["id"].string), rank: 3)
        if let title = item["title"].string { e.title.offer(TextValue(text: title, kind: .text, base: base), rank: 3) }
        e.link.offer(url(item["url"]), rank: 3)
        e.link.offer(url(item["external_url"]), rank: 2)
        if let html = item["content_html"].string {
            e.content.offer(TextValue(text: html, kind: .html, base: base), rank: 3)
        } else if let text = item["content_text"].string {
            e.content.offer(TextValue(text: text, kind: .text, base: base), rank: 2)
        }
        if let summary = item["summary"].string { e.summary.offer(TextValue(text: summary, kind: .text, base: base), rank: 3) }
        e.published.offer(item["date_published"].string.flatMap(FeedDate.parse), rank: 3)
        e.updated.offer(item["date_modified"].string.flatMap(FeedDate.parse), rank: 3)
        for author in item["authors"].array { e.offerAuthor(author["name"].string, rank: 3) }
        e.offerAuthor(item["author"]["name"].string, rank: 2)
        e.looseImage = url(item["image"]) ?? url(item["banner_image"])
        for a in item["attachments"].array {
            e.addEnclosure(url: a["url"].string, type: a["mime_type"].string, length: a["size_in_bytes"].string, base: base)
        }
        return e.card()
    }
}
