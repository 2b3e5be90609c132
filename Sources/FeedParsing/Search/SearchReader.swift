import FeedModel

/// A search engine's response to cards: bytes in, cards out, no network. The engine is the
/// source's (`feeds update`) or the user's (`feeds parse --as`); without one, the shape of the
/// JSON decides (`detect`). A response of the wrong kind (an HTML error page, truncated JSON, a
/// JSON of another engine) is a `SearchResponseError` whose message says what came instead.
public enum SearchReader {
    /// - Parameters:
    ///   - query: the saved search's query, for an OpenSearch description document's template.
    ///   - base: the response's URL, for relative links in results that have them.
    ///   - charset: the HTTP charset, for XML results.
    public static func read(_ bytes: [UInt8], engine: SearchEngine?, query: String? = nil,
                            base: String? = nil, charset: String? = nil) throws -> SearchResult {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            if let engine { throw SearchResponseError.empty(engine) }
            throw FeedParseError.empty
        }
        switch bytes[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try readJSON(Array(bytes[start...]), engine: engine, base: base)
        case UInt8(ascii: "<"):
            guard let engine else {
                throw FeedParseError.notAFeed("XML search results are read by the feed parser (leave out --as)")
            }
            return try readXML(bytes, engine: engine, query: query, base: base, charset: charset)
        default:
            guard let engine else { throw FeedParseError.notAFeed("plain text, not JSON") }
            throw SearchResponseError.notJSON(engine, detail: "it starts with \(quotedStart(bytes[start...]))")
        }
    }

    /// The engine whose response this JSON looks like; nil for anything else (a JSON Feed too).
    public static func detect(json bytes: [UInt8]) -> SearchEngine? {
        (try? JSONValue.parse(bytes)).flatMap(detect)
    }

    static func detect(_ root: JSONValue) -> SearchEngine? {
        guard root.isObject else { return nil }
        let answer = root["answers"][0]
        if answer.isObject && (!answer["actions"].isNull || !answer["data"].isNull) { return .susi }
        if !root["RelatedTopics"].isNull || !root["AbstractURL"].isNull || !root["Heading"].isNull { return .ddg }
        if root["hits"].isArray { return .hn }
        if root["results"].isArray, !root["query"].isNull || !root["number_of_results"].isNull || !root["unresponsive_engines"].isNull {
            return .searxng
        }
        return nil
    }

    static func isJSONFeed(_ root: JSONValue) -> Bool {
        (root["version"].string ?? "").contains("jsonfeed.org") || root["items"].isArray
    }

    static func readJSON(_ bytes: [UInt8], engine: SearchEngine?, base: String?) throws -> SearchResult {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch let FeedParseError.invalidJSON(detail) {
            if let engine { throw SearchResponseError.invalidJSON(engine, detail: detail) }
            throw FeedParseError.invalidJSON(detail)
        }
        let found = detect(root)
        guard let engine else {
            guard let found else {
                throw FeedParseError.notAFeed("JSON that is neither a JSON Feed nor a DuckDuckGo, SearXNG, SUSI or Hacker News response")
            }
            return try readJSON(root, engine: found, base: base)
        }
        if let found, found != engine { throw SearchResponseError.otherEngine(expected: engine, found: found) }
        if found == nil {
            if isJSONFeed(root) { throw SearchResponseError.unexpectedShape(engine, detail: "it is a JSON Feed (add its URL as a feed instead)") }
            guard root.isObject else { throw SearchResponseError.unexpectedShape(engine, detail: "the top level is not an object") }
            // An engine's own error object ({"error": "..."}) says more than any guess.
            if let message = root["error"].text ?? root["message"].text ?? root["error"]["message"].text {
                throw SearchResponseError.notResults(engine, detail: "the engine says: " + TextRules.truncate(TextRules.collapseWhitespace(message), to: 160))
            }
            throw SearchResponseError.unexpectedShape(engine, detail: "none of its fields (\(expectedFields(engine))) is there")
        }
        return try readJSON(root, engine: engine, base: base)
    }

    static func readJSON(_ root: JSONValue, engine: SearchEngine, base: String?) throws -> SearchResult {
        switch engine {
        case .ddg: return DuckDuckGoReader.read(root)
        case .searxng: return SearXNGReader.read(root, base: base)
        case .susi: return try SUSIReader.read(root)
        case .hn: return HackerNewsReader.read(root)
        case .opensearch:
            throw SearchResponseError.unexpectedShape(.opensearch, detail: "OpenSearch results are RSS or Atom, not JSON")
        }
    }

    static func expectedFields(_ engine: SearchEngine) -> String {
        switch engine {
        case .ddg: "RelatedTopics, Results, AbstractURL, Heading"
        case .searxng: "results with query or number_of_results"
        case .susi: "answers[0].data, answers[0].actions"
        case .hn: "hits"
        case .opensearch: "an RSS or Atom feed"
        }
    }

    static func readXML(_ bytes: [UInt8], engine: SearchEngine, query: String?, base: String?, charset: String?) throws -> SearchResult {
        if looksLikeHTML(bytes) { throw SearchResponseError.htmlPage(engine) }
        switch engine {
        case .ddg, .susi, .hn:
            throw SearchResponseError.notJSON(engine, detail: "it is an XML document")
        case .opensearch, .searxng:
            if engine == .opensearch, OpenSearch.isDescription(bytes) {
                guard let found = OpenSearch.resultsTemplate(inDescription: bytes, base: base) else {
                    throw SearchResponseError.notResults(.opensearch, detail: "the description document has no <Url> template for RSS or Atom results")
                }
                let url = OpenSearch.expand(found.template, query: query ?? "", count: nil,
                                            startIndex: found.indexOffset, startPage: found.pageOffset)
                return SearchResult(engine: .opensearch, followUp: .fetch(url: url))
            }
            let parsed = try FeedParser.parse(bytes, options: ParseOptions(baseURL: base, charset: charset, maxBytes: 32 << 20))
            guard parsed.format != nil else {
                throw SearchResponseError.notResults(engine, detail: "not RSS or Atom: " + (parsed.warnings.first ?? "no feed element"))
            }
            var result = SearchResult(engine: engine, feed: parsed.feed, cards: parsed.cards, warnings: parsed.warnings)
            result.totalResults = OpenSearch.totalResults(bytes)
            return result
        }
    }

    static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<!doctype html") || head.contains("<html") || head.contains("<head") || head.contains("<body")
    }

    static func quotedStart(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(120), as: UTF8.self)
        let line = TextRules.collapseWhitespace(text.filter { !$0.isASCII || $0.asciiValue! >= 0x20 || $0 == " " })
        return "\"" + TextRules.truncate(line, to: 40) + "\""
    }
}
