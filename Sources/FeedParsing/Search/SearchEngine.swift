import FeedModel
import Foundation

/// The web search engines a saved search can use. Each has a reader here (bytes in, cards out,
/// no network); the Aggregator builds the request URL and fetches.
public enum SearchEngine: String, Sendable, Hashable, CaseIterable {
    /// DuckDuckGo Instant Answer API (`format=json`).
    case ddg
    /// A SearXNG instance, `format=json` or `format=rss`.
    case searxng
    /// Any OpenSearch engine: a description document or a URL template; RSS or Atom results.
    case opensearch
    /// The SUSI.AI chat API (`/susi/chat.json?q=...`).
    case susi
    /// Hacker News search (Algolia API).
    case hn

    /// The engine a name in the sources file or on the command line means (aliases included).
    public init?(name: String) {
        switch name.lowercased() {
        case "ddg", "duckduckgo": self = .ddg
        case "searxng", "searx": self = .searxng
        case "opensearch": self = .opensearch
        case "susi", "susi.ai": self = .susi
        case "hn", "hackernews", "algolia": self = .hn
        default: return nil
        }
    }

    /// For messages: "DuckDuckGo", "SearXNG", ...
    public var displayName: String {
        switch self {
        case .ddg: "DuckDuckGo"
        case .searxng: "SearXNG"
        case .opensearch: "OpenSearch"
        case .susi: "SUSI.AI"
        case .hn: "Hacker News (Algolia)"
        }
    }

    public static var namesForHelp: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a search response asks for besides its cards: a second request the caller makes (the
/// readers never touch the network).
public enum SearchFollowUp: Sendable, Hashable {
    /// A SUSI `websearch` action: run this query through the configured web search engine.
    case webSearch(query: String)
    /// An OpenSearch description document named this results URL template (expanded already):
    /// fetch it and read the results with the same engine.
    case fetch(url: String)
}

/// One search response read into cards.
public struct SearchResult: Sendable {
    public var engine: SearchEngine
    /// The response's own description: the query as heading, the engine's link (feed-level fields).
    public var feed: FeedInfo
    /// In the engine's order; each is a card under the card contract.
    public var cards: [Card]
    /// Total hits the engine claims (SearXNG `number_of_results`, `opensearch:totalResults`,
    /// Algolia `nbHits`), when it says.
    public var totalResults: Int?
    public var followUp: SearchFollowUp?
    public var warnings: [String]

    public init(engine: SearchEngine, feed: FeedInfo = FeedInfo(), cards: [Card] = [], totalResults: Int? = nil,
                followUp: SearchFollowUp? = nil, warnings: [String] = []) {
        self.engine = engine
        self.feed = feed
        self.cards = cards
        self.totalResults = totalResults
        self.followUp = followUp
        self.warnings = warnings
    }

    /// The dedup keys of search results: normalized URL (see `CardKey.forSearchResult`).
    public var keys: [CardKey] { cards.map(CardKey.forSearchResult) }
}

/// Why a search response gave no result list at all. Each message is one line that says what
/// was received instead, so `feeds update` can print it after the source's name.
public enum SearchResponseError: Error, LocalizedError, Equatable {
    case empty(SearchEngine)
    case htmlPage(SearchEngine)
    case notJSON(SearchEngine, detail: String)
    case invalidJSON(SearchEngine, detail: String)
    case otherEngine(expected: SearchEngine, found: SearchEngine)
    case unexpectedShape(SearchEngine, detail: String)
    case notResults(SearchEngine, detail: String)

    public var errorDescription: String? {
        switch self {
        case .empty(let e):
            return "the \(e.displayName) response is empty"
        case .htmlPage(let e):
            return "\(e.displayName) answered with an HTML page instead of results (an error or captcha page? check the endpoint)"
        case .notJSON(let e, let detail):
            return "the \(e.displayName) response is not JSON: \(detail)"
        case .invalidJSON(let e, let detail):
            return "the \(e.displayName) response is not valid JSON: \(detail)"
        case .otherEngine(let expected, let found):
            return "this is a \(found.displayName) response, not \(expected.displayName): check the source's engine and endpoint"
        case .unexpectedShape(let e, let detail):
            return "the JSON is not a \(e.displayName) response: \(detail)"
        case .notResults(let e, let detail):
            return "the \(e.displayName) response has no results: \(detail)"
        }
    }
}
