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
    /// What broken markup cost, when the document was not well-formed (nil when it was).
    public var damage: ParseDamage? = nil
}

/// A document that was not well-formed: where, and what was kept of its items.
public struct ParseDamage: Sendable, Equatable, CustomStringConvertible {
    /// The line of the first repair, when the prepass made one (libxml2's own errors have none:
    /// its line numbers are those of the text it was given, not of the document).
    public var line: Int?
    /// The items (`item`/`entry` elements) in the document, and the ones that became cards.
    public var itemsSeen: Int
    public var itemsKept: Int
    /// Kept items in which markup had to be repaired (elements left open, stray end tags).
    public var itemsDamaged: Int

    public init(line: Int?, itemsSeen: Int, itemsKept: Int, itemsDamaged: Int) {
        self.line = line
        self.itemsSeen = itemsSeen
        self.itemsKept = itemsKept
        self.itemsDamaged = itemsDamaged
    }

    /// Whether items were lost or damaged (not only repaired text such as `Price < 20`).
    public var lostOrDamaged: Bool { itemsKept < itemsSeen || itemsDamaged > 0 }

    /// "the XML is not well-formed at line 212; 37 of 40 items kept, 1 damaged"
    public var description: String {
        var s = "the XML is not well-formed"
        if let line { s += " at line \(line)" }
        if itemsSeen == 0 { return s + "; no items were found" }
        s += "; \(itemsKept) of \(itemsSeen) item\(itemsSeen == 1 ? "" : "s") kept"
        if itemsDamaged > 0 { s += ", \(itemsDamaged) damaged" }
        return s
    }
}
