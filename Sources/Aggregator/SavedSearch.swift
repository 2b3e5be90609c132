import FeedModel
import FeedParsing

/// A saved web search: a source whose "feed" is an engine's answer to a query. In the sources
/// file it is a line `search:ENGINE "QUERY" [options]`; its identity in the database (the
/// source's `url`) is `search:ENGINE QUERY`, so the same query on the same engine is listed
/// once whatever its options.
public struct SavedSearch: Sendable, Hashable {
    public var engine: SearchEngine
    public var query: String
    /// `endpoint=`: the engine's address (a SearXNG instance, an OpenSearch description document
    /// or URL template, a self-hosted SUSI server), or a saved response (a file path or file://
    /// URL, read as is: the demo and the tests). Required for SearXNG and OpenSearch.
    public var endpoint: String?
    /// `format=` (SearXNG): json (default) or rss.
    public var format: String?
    /// `count=`: results wanted, for engines that take it (OpenSearch `{count}`, Hacker News).
    public var count: Int?
    /// `preview=yes`: give results without an image their page's `og:image` (cached, polite).
    public var preview: Bool
    /// `websearch=` and `websearch-endpoint=` (SUSI): where a `websearch` action's query goes;
    /// default DuckDuckGo at its public address.
    public var webSearch: SearchEngine?
    public var webSearchEndpoint: String?

    public init(engine: SearchEngine, query: String, endpoint: String? = nil, format: String? = nil, count: Int? = nil,
                preview: Bool = false, webSearch: SearchEngine? = nil, webSearchEndpoint: String? = nil) {
        self.engine = engine
        self.query = query
        self.endpoint = endpoint
        self.format = format
        self.count = count
        self.preview = preview
        self.webSearch = webSearch
        self.webSearchEndpoint = webSearchEndpoint
    }

    /// `search:ENGINE QUERY`: the source's identity.
    public var identity: String { "search:\(engine.rawValue) \(query)" }

    /// The public address of each engine that has one.
    static func defaultEndpoint(_ engine: SearchEngine) -> String? {
        switch engine {
        case .ddg: "https://api.duckduckgo.com/"
        case .susi: "https://api.susi.ai/susi/chat.json"
        case .hn: "https://hn.algolia.com/api/v1/search"
        case .searxng, .opensearch: nil
        }
    }

    /// Whether the endpoint is a saved response on disk rather than a web address.
    public var endpointIsFile: Bool {
        guard let endpoint else { return false }
        return !SourcesFile.hasWebScheme(endpoint)
    }

    /// The URL to fetch: a file endpoint as a file:// URL (relative paths against `folder`); an
    /// endpoint with `{searchTerms}` as an OpenSearch template; else the engine's API address
    /// with the query parameters it takes.
    public func requestURL(relativeTo folder: String) -> String {
        guard let endpoint = endpoint ?? Self.defaultEndpoint(engine) else { return "" }
        if !SourcesFile.hasWebScheme(endpoint) { return SourceEntry(url: endpoint).requestURL(relativeTo: folder) }
        if endpoint.contains("{searchTerms") { return OpenSearch.expand(endpoint, query: query, count: count) }
        let q = OpenSearch.percentEncodeQuery(query)
        switch engine {
        case .ddg:
            return Self.adding("q=\(q)&format=json&no_redirect=1&skip_disambig=1", to: endpoint)
        case .searxng:
            return Self.adding("q=\(q)&format=\(format ?? "json")", to: Self.withPath(endpoint, ending: "search"))
        case .opensearch:
            return endpoint   // a description document: its template is read from it
        case .susi:
            return Self.adding("q=\(q)", to: Self.withPath(endpoint, ending: "susi/chat.json", unlessSuffix: ".json"))
        case .hn:
            return Self.adding("query=\(q)&tags=story" + (count.map { "&hitsPerPage=\($0)" } ?? ""), to: endpoint)
        }
    }

    /// The search a SUSI `websearch` action asks for.
    func webSearchFollowUp(query: String) -> SavedSearch {
        SavedSearch(engine: webSearch ?? .ddg, query: query, endpoint: webSearchEndpoint, count: count)
    }

    static func adding(_ parameters: String, to url: String) -> String {
        var base = url
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + parameters
    }

    /// `https://searx.example` → `https://searx.example/search`; a URL whose path already ends
    /// that way (or in `unlessSuffix`) is kept.
    static func withPath(_ url: String, ending path: String, unlessSuffix: String? = nil) -> String {
        var a = WebAddress(parsing: url)
        let current = a.path
        if current.hasSuffix("/" + path) || (unlessSuffix.map { current.hasSuffix($0) } ?? false) { return url }
        a.path = (current.hasSuffix("/") ? current : current + "/") + path
        return a.description
    }

    /// Accept header for the engine's API.
    var accept: String {
        switch engine {
        case .opensearch: "application/opensearchdescription+xml, application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.8"
        case .searxng where format == "rss": "application/rss+xml, application/xml;q=0.9, */*;q=0.8"
        default: "application/json, */*;q=0.8"
        }
    }
}

// The sources file's options of search lines.
extension SavedSearch {
    static let optionNames: Set<String> = ["endpoint", "preview", "format", "count", "websearch", "websearch-endpoint"]

    mutating func setOption(_ key: String, _ value: String, bad: (String) -> AggregatorError) throws {
        switch key {
        case "endpoint":
            guard !value.isEmpty, SourcesFile.urlProblem(value) == nil else {
                throw bad("endpoint=\(value) is not a URL or a file path" + (SourcesFile.urlProblem(value).map { ": " + $0 } ?? ""))
            }
            endpoint = value
        case "preview":
            switch value.lowercased() {
            case "yes", "true", "on", "1": preview = true
            case "no", "false", "off", "0": preview = false
            default: throw bad("preview=\(value): write preview=yes or preview=no")
            }
        case "format":
            guard engine == .searxng else { throw bad("format= is an option of search:searxng only") }
            guard value == "json" || value == "rss" else { throw bad("format=\(value): SearXNG gives format=json or format=rss") }
            format = value
        case "count":
            guard let n = Int(value), n > 0, n <= 1000 else { throw bad("count=\(value) is not a number of results (1 to 1000)") }
            count = n
        case "websearch":
            guard engine == .susi else { throw bad("websearch= is an option of search:susi only") }
            guard let e = SearchEngine(name: value), e != .susi else {
                throw bad("websearch=\(value): name a web search engine (ddg, searxng, opensearch, hn)")
            }
            webSearch = e
        case "websearch-endpoint":
            guard engine == .susi else { throw bad("websearch-endpoint= is an option of search:susi only") }
            guard SourcesFile.urlProblem(value) == nil, !value.isEmpty else { throw bad("websearch-endpoint=\(value) is not a URL or a file path") }
            webSearchEndpoint = value
        default:
            throw bad("unknown option '\(key)': known are name=, tags=, every=, keep-days=, keep-cards=, endpoint=, preview=, format=, count=, websearch=, websearch-endpoint=")
        }
    }

    /// What makes the line unusable as a whole, or nil.
    var problem: String? {
        if endpoint == nil, Self.defaultEndpoint(engine) == nil {
            return "search:\(engine.rawValue) needs endpoint= (the address of \(engine == .searxng ? "a SearXNG instance" : "an OpenSearch description document or a URL template with {searchTerms}"))"
        }
        if engine == .susi, let w = webSearch ?? .ddg as SearchEngine?, webSearchEndpoint == nil, Self.defaultEndpoint(w) == nil {
            return "websearch=\(w.rawValue) needs websearch-endpoint="
        }
        return nil
    }
}
