import FeedModel

/// Hacker News search through Algolia (`https://hn.algolia.com/api/v1/search?query=...`):
/// `{"hits": [{objectID, title, url, author, created_at, story_text, comment_text,
/// story_title, story_url, ...}], "nbHits", ...}`. Ask HN posts have `url: null`: their link is
/// the item page on news.ycombinator.com. Comment hits carry their story's title and URL.
enum HackerNewsReader {
    static let itemPage = "https://news.ycombinator.com/item?id="

    static func read(_ root: JSONValue) -> SearchResult {
        var result = SearchResult(engine: .hn)
        result.feed.title = root["query"].text.map { "Hacker News: " + $0 }
        result.feed.link = "https://news.ycombinator.com/"
        result.totalResults = root["nbHits"].int.flatMap { $0 >= 0 ? $0 : nil }
        for hit in root["hits"].array {
            let objectID = hit["objectID"].text
            let itemURL = objectID.flatMap { id in id.allSatisfy(\.isNumber) ? itemPage + id : nil }
            var s = SearchCard()
            s.title = hit["title"].text ?? hit["story_title"].text
            s.description = hit["story_text"].text ?? hit["comment_text"].text
            s.link = hit["url"].text ?? hit["story_url"].text ?? itemURL
            s.author = hit["author"].text
            s.published = hit["created_at"].text.flatMap(FeedDate.parse)
                ?? hit["created_at_i"].string.flatMap { OutsideNumber.integer($0, in: Timestamp.plausibleRange) }
                    .map(Timestamp.init(secondsSince1970:))
            var card = s.card()
            // A link that did not survive the contract (a javascript: URL, say): the item page.
            if card.link == nil { card.link = itemURL }
            if card.link != nil { result.cards.append(card) }
        }
        return result
    }
}
