import FeedModel
import Foundation

/// Bounds and hints for one parse. The defaults suit a feed from the web; every bound turns into
/// a warning that names it, and the cards read before it are kept.
public struct ParseOptions: Sendable {
    /// The document's own URL: the base of last resort for relative links.
    public var baseURL: String?
    /// The charset the transport declared (HTTP `Content-Type`), used when the document itself
    /// says nothing (no byte order mark, no encoding declaration).
    public var charset: String?
    /// Bytes read at most; the rest of a larger document is ignored.
    public var maxBytes: Int
    /// Element nesting allowed (libxml2 itself gives up at 256).
    public var maxDepth: Int
    /// Longest text of one element (a title, a description) kept.
    public var maxTextBytes: Int
    /// XML feeds only: apply the card contract (sanitizing, above all) and call `onCard` on a
    /// second thread while the parser reads on. `onCard` then runs on that thread, still one
    /// card at a time and in document order, and every call has returned when
    /// `FeedStreamParser.finish()` returns (or throws). Memory stays bounded: the parser waits
    /// when the second thread falls behind.
    public var concurrentCards = false
    /// How the prepass hands text to libxml2 (`TextHandOver`); other than the default only in
    /// tests that compare the readings.
    var textHandOver = TextHandOver.sideChannel

    public init(baseURL: String? = nil, charset: String? = nil, maxBytes: Int = 256 << 20,
                maxDepth: Int = 200, maxTextBytes: Int = 4 << 20) {
        self.baseURL = baseURL
        self.charset = charset
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
    }
}

/// Why a document gave no feed at all. (Ill-formed feeds are not errors: what could be
/// recovered is returned, with warnings.)
public enum FeedParseError: Error, LocalizedError, Equatable {
    case empty
    case notAFeed(String)
    case invalidJSON(String)
    case unreadable(String)
    case `internal`(String)

    public var errorDescription: String? {
        switch self {
        case .empty: return "the document is empty"
        case .notAFeed(let why): return "not a feed: \(why)"
        case .invalidJSON(let why): return "not a valid JSON Feed: \(why)"
        case .unreadable(let why): return why
        case .internal(let why): return "internal parser error: \(why)"
        }
    }
}

/// What a parse found besides the cards (which go to the caller one at a time).
public struct FeedSummary: Sendable {
    public var feed: FeedInfo
    public var format: FeedFormat?
    public var cardCount: Int
    /// Recoverable problems: ill-formed XML, bounds reached, repaired encoding.
    public var warnings: [String]
}
