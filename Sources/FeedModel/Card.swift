/// One item of a feed or one result of a saved search: the unit that `feeds` saves, shows and
/// publishes. Its shape is the card of SUSI AI's RSS and web-search answers (title, description,
/// link, image) plus identity, dates, author and enclosures.
///
/// # The card contract
///
/// Every producer (the feed parser, each search engine adapter) hands out cards that obey these
/// rules; every consumer (store, reader, HTML writer) may rely on them.
///
/// | field         | content                                                                        |
/// |---------------|--------------------------------------------------------------------------------|
/// | `id`          | the source's own identifier, verbatim but trimmed: RSS `guid`, Atom `id`, RDF `rdf:about`, JSON Feed `id`; nil when absent or blank |
/// | `title`       | plain text: tags removed, entities decoded, white space collapsed to single spaces, trimmed; nil when blank |
/// | `description` | sanitized HTML (allow-list; no script, style, frames, forms, event attributes or `javascript:` URLs; relative URLs resolved; tracking pixels removed); the entry body, preferring full content over a summary; nil when blank |
/// | `link`        | absolute `http`, `https` or `mailto` URL of the item itself; any other scheme is dropped (nil) |
/// | `image`       | absolute `http`/`https` URL of the card's picture (see `FeedParsing` for the order of preference), or for a feed read from a local file a `file://` URL inside its folder (`LocalImage`); nil when none |
/// | `published`   | first publication, UTC; nil when absent, unparseable or outside 1970–2100 (never "now") |
/// | `updated`     | last modification, UTC; nil when absent, unparseable or outside 1970–2100 |
/// | `author`      | the first author's name (or e-mail when no name), plain text; several authors joined by ", " |
/// | `enclosures`  | attached files, absolute http(s) URLs, document order, no duplicate URLs |
/// | `kind`        | `.article` for feed items and search results, `.image` for a search's image answer |
///
/// **Identity** (`key`): cards are the same card when they come from the same source and have the
/// same key. The key is, in this order of preference:
/// 1. `id:` + `id`, when the source gives one;
/// 2. `link:` + the link normalized by `WebAddress.normalizedForIdentity` (scheme and host
///    lower-cased, default port and fragment dropped);
/// 3. `hash:` + 16 hex digits of FNV-1a 64 over title, U+001F, description (so the key never
///    changes between versions of `feeds`).
///
/// Search results are keyed by normalized link even when the engine gives an id, so a result
/// that stays in the top ten stays one card.
///
/// **Display**: a card without a title is shown by the first 80 characters of its plain text
/// (`displayTitle`), else by its link, else as "(untitled)".
public struct Card: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable, Hashable {
        case article
        case image
    }

    public var id: String?
    public var title: String?
    /// The description, held as the producer wrote it (see `UTF8Text`); `description` reads and
    /// writes it as a String.
    public var descriptionText: UTF8Text?
    public var description: String? {
        get { descriptionText?.string }
        set { descriptionText = newValue.map(UTF8Text.init) }
    }
    public var link: String?
    public var image: String?
    /// Dates outside `Timestamp.plausibleRange` are dropped here, whoever sets them: every
    /// producer (XML, JSON Feed, each search reader) and the store reading back what an older
    /// version saved, so no reader of a card ever sees the year -292277022657.
    public var published: Timestamp? {
        get { publishedValue }
        set { publishedValue = newValue?.plausible }
    }
    public var updated: Timestamp? {
        get { updatedValue }
        set { updatedValue = newValue?.plausible }
    }
    private var publishedValue: Timestamp?
    private var updatedValue: Timestamp?
    public var author: String?
    public var enclosures: [Enclosure]
    public var kind: Kind

    public init(id: String? = nil, title: String? = nil, description: String? = nil, link: String? = nil,
                image: String? = nil, published: Timestamp? = nil, updated: Timestamp? = nil,
                author: String? = nil, enclosures: [Enclosure] = [], kind: Kind = .article) {
        self.id = id
        self.title = title
        self.descriptionText = description.map(UTF8Text.init)
        self.link = link
        self.image = image
        self.publishedValue = published?.plausible
        self.updatedValue = updated?.plausible
        self.author = author
        self.enclosures = enclosures
        self.kind = kind
    }

    /// The identity key described in the type's documentation.
    public var key: CardKey { CardKey(for: self) }

    /// The date to sort and show by: published, else updated.
    public var date: Timestamp? { published ?? updated }

    /// The title, else the start of the description's text, else the link, else "(untitled)".
    /// `plainText` turns the sanitized description into text (the caller owns HTML handling,
    /// so the model stays free of it).
    public func displayTitle(plainText: (String) -> String) -> String {
        if let title, !title.isEmpty { return title }
        if let description {
            let text = TextRules.collapseWhitespace(plainText(description))
            if !text.isEmpty { return TextRules.truncate(text, to: 80) }
        }
        if let link { return link }
        return "(untitled)"
    }
}

/// The feed-level fields: what a source says about itself.
public struct FeedInfo: Hashable, Sendable {
    public var title: String?
    /// The site's (alternate) URL, absolute.
    public var link: String?
    /// Subtitle, description, tagline or itunes:summary; sanitized HTML.
    public var description: String?
    /// RSS `<image><url>`, itunes:image, Atom logo (icon when no logo), JSON Feed icon.
    public var image: String?
    /// Refresh hints the scheduler may use (RSS ttl, sy:updatePeriod/updateFrequency), in seconds.
    public var refreshHintSeconds: Int?

    public init(title: String? = nil, link: String? = nil, description: String? = nil,
                image: String? = nil, refreshHintSeconds: Int? = nil) {
        self.title = title
        self.link = link
        self.description = description
        self.image = image
        self.refreshHintSeconds = refreshHintSeconds
    }
}

/// The formats the parser recognises, named as feedparser names them.
public enum FeedFormat: String, Sendable, Hashable {
    case rss090, rss091, rss092, rss093, rss094, rss20, rss10, rss
    case atom03, atom10, atom
    case json1 = "json1", json11 = "json11"
}

/// A parsed document: the feed, its cards in document order, and what went wrong on the way
/// (ill-formed XML that was recovered from, bounds that cut the input short).
public struct ParsedFeed: Sendable {
    public var feed: FeedInfo
    public var cards: [Card]
    public var format: FeedFormat?
    public var warnings: [String]
    /// When the document was not well-formed: what it cost, as the first warning says it.
    public var degraded: String?

    public init(feed: FeedInfo = FeedInfo(), cards: [Card] = [], format: FeedFormat? = nil, warnings: [String] = [],
                degraded: String? = nil) {
        self.feed = feed
        self.cards = cards
        self.format = format
        self.warnings = warnings
        self.degraded = degraded
    }
}
