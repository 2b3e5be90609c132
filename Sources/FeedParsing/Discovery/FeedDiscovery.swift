import FeedModel
import Markup

/// Finding a site's feed from its web page (`feeds add https://site.example/`): what the page
/// announces, else the paths sites usually put their feed at. No network here: the Aggregator
/// fetches the page and the candidates, this reads their bytes.
public enum FeedDiscovery {
    /// One feed found for a page.
    public struct Candidate: Sendable, Hashable {
        public var url: String
        /// What the page's link or the feed itself calls it (text from outside).
        public var title: String?
        /// `rss`, `atom` or `json`.
        public var format: String

        public init(url: String, title: String?, format: String) {
            self.url = url
            self.title = title
            self.format = format
        }
    }

    /// How much of a page is read: the head, where the links live (the bound of page previews).
    public static let pageBytes = PagePreview.headBytes

    /// Where sites usually serve their feed, tried (and checked to be feeds) when the page
    /// announces none.
    public static let usualPaths = ["/feed", "/rss.xml", "/atom.xml", "/index.xml", "/feed.json"]

    /// The feeds announced by a page's first bytes, decoded by `charset` (the HTTP one) else
    /// UTF-8; relative links resolved against `<base href>`, else `base` (the page's URL).
    public static func announced(inPage bytes: [UInt8], base: String?, charset: String?) -> [Candidate] {
        let head = bytes.prefix(pageBytes)
        let encoding = charset.flatMap(EncodingSniffer.resolve) ?? .utf8
        var decoded: [UInt8] = []
        Array(head).withUnsafeBufferPointer { Transcoder(encoding: encoding).decode($0, final: true, into: &decoded) }
        return HTMLFeedLinks.alternates(String(decoding: decoded, as: UTF8.self), base: base).map {
            Candidate(url: $0.url, title: $0.title, format: format(ofType: $0.type))
        }
    }

    /// The usual feed paths on the origin of `page` (an absolute http(s) URL), in order.
    public static func usualCandidates(for page: String) -> [String] {
        let base = WebAddress(parsing: page)
        guard base.isWebURL else { return [] }
        return usualPaths.map { WebAddress(parsing: $0).resolved(against: base).description }
    }

    /// The short name of a parsed feed's format, or nil when the bytes were no feed.
    public static func format(of format: FeedFormat?) -> String? {
        switch format {
        case nil: return nil
        case .json1, .json11: return "json"
        case .atom03, .atom10, .atom: return "atom"
        default: return "rss"
        }
    }

    static func format(ofType type: String) -> String {
        switch type {
        case "application/atom+xml": return "atom"
        case "application/feed+json", "application/json+feed": return "json"
        default: return "rss"
        }
    }
}
