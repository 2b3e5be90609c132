import FeedModel

/// SearXNG's `format=json`: `{"query", "number_of_results", "results": [{title, url, content,
/// img_src, thumbnail, publishedDate, author, ...}], "answers", "infoboxes", ...}`. Every field
/// but `url` may be missing, null or ""; `number_of_results` is often 0 even with results.
/// (`format=rss` is RSS 2.0 and goes through the feed parser; its `pubDate` is
/// `YYYY-MM-DD HH:MM:SS+ZZZZ`, which `FeedDate` reads.)
enum SearXNGReader {
    static func read(_ root: JSONValue, base: String?) -> SearchResult {
        var result = SearchResult(engine: .searxng)
        result.feed.title = root["query"].text.map { "SearXNG: " + $0 }
        if let n = root["number_of_results"].int, n > 0 { result.totalResults = n }
        for r in root["results"].array {
            var s = SearchCard(base: base)
            s.title = r["title"].text
            s.description = r["content"].text
            s.link = r["url"].text
            s.image = r["img_src"].text ?? r["thumbnail"].text ?? r["thumbnail_src"].text
            s.published = (r["publishedDate"].text ?? r["pubdate"].text).flatMap(FeedDate.parse)
            s.author = r["author"].text
            let card = s.card()
            if card.link != nil { result.cards.append(card) }
        }
        return result
    }
}
