import FeedModel

/// The SUSI.AI chat API (`/susi/chat.json?q=...`). The first answer holds `data` (a list of
/// objects) and `actions` telling a client how to show it:
/// - `{"type": "rss", "title": K1, "description": K2, "link": K3, "image": K4?, "count": N}`
///   maps each data object's keys K1…K4 to a card. `count` -1 means all, and a count larger
///   than the data means all of the data (SUSI's iOS client crashed on both): any count below
///   1 or above the data's size is clamped to the data's size.
/// - `{"type": "websearch", "query": Q}`: the client runs Q through a web search engine; here
///   that is a `SearchFollowUp.webSearch` for the caller.
/// - `{"type": "answer", "expression": E}`: when E is an image URL (see
///   `WebAddress.looksLikeImageURL`), an image card. Text answers are chat replies, not cards.
enum SUSIReader {
    static func read(_ root: JSONValue) throws -> SearchResult {
        var result = SearchResult(engine: .susi)
        let query = root["query"].text
        result.feed.title = query.map { "SUSI: " + $0 }
        let answers = root["answers"].array
        guard let answer = answers.first else {
            throw SearchResponseError.notResults(.susi, detail: "`answers` is empty or missing")
        }
        let data = answer["data"].array
        for action in answer["actions"].array {
            switch action["type"].text?.lowercased() {
            case "rss":
                result.cards += rssCards(action, data: data)
            case "websearch":
                if result.followUp == nil, let q = action["query"].text ?? query { result.followUp = .webSearch(query: q) }
            case "answer":
                if let e = action["expression"].text, WebAddress.looksLikeImageURL(e) {
                    var s = SearchCard(kind: .image)
                    s.title = query
                    s.link = e
                    s.image = e
                    let card = s.card()
                    if card.image != nil { result.cards.append(card) }
                }
            default:
                break
            }
        }
        return result
    }

    /// The cards an `rss` action describes.
    static func rssCards(_ action: JSONValue, data: JSONValue.Elements) -> [Card] {
        let count = clampedCount(action["count"].int, available: data.count)
        let titleKey = action["title"].text, descriptionKey = action["description"].text
        let linkKey = action["link"].text, imageKey = action["image"].text
        var cards: [Card] = []
        for item in data.prefix(count) {
            var s = SearchCard()
            s.title = titleKey.flatMap { item[$0].text }
            s.description = descriptionKey.flatMap { item[$0].text }
            s.link = linkKey.flatMap { item[$0].text }
            // No image key: the object's own `image` field, when it is an image URL.
            s.image = imageKey.flatMap { item[$0].text } ?? item["image"].text.flatMap { WebAddress.looksLikeImageURL($0) ? $0 : nil }
            let card = s.card()
            if SearchCard.isWorthKeeping(card) { cards.append(card) }
        }
        return cards
    }

    /// How many data objects an `rss` action shows: `count` when it is between 1 and the data's
    /// size, else all of them (-1 means all; larger than the data means all there is).
    static func clampedCount(_ count: Int?, available: Int) -> Int {
        guard let count, count >= 1 else { return available }
        return min(count, available)
    }
}
