import FeedModel
import Storage

/// What the digest is written from, and how.
public struct DigestOptions: Sendable, Hashable {
    /// The site's name: page titles, the Atom feed's title.
    public var title: String
    /// Cards with a sort date at or after this are "the latest digest" (index, sort pages,
    /// Atom feed, and the images downloaded for them).
    public var since: Timestamp
    /// The moment of writing: only for the coarse ages of the latest pages ("5 h ago").
    public var now: Timestamp
    /// Cards in a source's row on the index.
    public var cardsPerRow: Int
    /// Cards on a sort page and in the Atom feed.
    public var cardsPerSortPage: Int
    /// Newest cards on a source's own page.
    public var cardsPerSourcePage: Int

    public init(title: String = "feeds digest", since: Timestamp, now: Timestamp, cardsPerRow: Int = 20,
                cardsPerSortPage: Int = 500, cardsPerSourcePage: Int = 200) {
        self.title = title
        self.since = since
        self.now = now
        self.cardsPerRow = cardsPerRow
        self.cardsPerSortPage = cardsPerSortPage
        self.cardsPerSourcePage = cardsPerSourcePage
    }
}

/// A cached copy of a card's image, as the site shows it.
public struct DigestImage: Sendable, Hashable {
    /// The file to copy into the site (the image cache's copy).
    public var sourceFile: String
    /// Its name in the site's `images/` folder (`KEY.jpg`).
    public var fileName: String
    public var width: Int?
    public var height: Int?

    public init(sourceFile: String, fileName: String, width: Int? = nil, height: Int? = nil) {
        self.sourceFile = sourceFile
        self.fileName = fileName
        self.width = width
        self.height = height
    }
}

/// The cards and sources of one site, read from the store in one go.
public struct DigestModel: Sendable {
    public var sources: [StoredSource]
    /// Every card, newest first: the archive and the source pages.
    public var all: [StoredCard]
    /// The sort orders a page is written for, with each order's cards since `since`.
    public var sorted: [(order: CardOrder, cards: [StoredCard])]

    public init(sources: [StoredSource], all: [StoredCard], sorted: [(order: CardOrder, cards: [StoredCard])]) {
        self.sources = sources
        self.all = all
        self.sorted = sorted
    }

    /// The orders of the switcher: the shared registry without `relevance`, which ranks search
    /// matches and, with no search text in a digest, lists exactly as `newest` does (a second
    /// identical page would only confuse).
    public static var pageOrders: [CardOrder] { CardOrder.all.filter { $0 != .relevance } }

    /// Reads sources, all cards, and each order's latest cards.
    public static func load(from store: FeedStore, options: DigestOptions) throws -> DigestModel {
        let sources = try store.sources()
        // The cards carry the name the site may show (the store's falls back to the URL).
        let names = Dictionary(sources.map { ($0.id, name(of: $0)) }, uniquingKeysWith: { a, _ in a })
        func published(_ cards: [StoredCard]) -> [StoredCard] {
            cards.map { card in
                var card = card
                if let name = names[card.sourceID] { card.sourceName = name }
                return card
            }
        }
        let all = published(try store.cards(CardQuery(), order: .newest))
        var sorted: [(CardOrder, [StoredCard])] = []
        for order in pageOrders {
            sorted.append((order, published(try store.cards(CardQuery(since: options.since, limit: options.cardsPerSortPage), order: order))))
        }
        return DigestModel(sources: sources, all: all, sorted: sorted)
    }

    /// The name the site shows for `source` (see `PublicAddress.sourceName`): never a
    /// credential or a local path.
    public static func name(of source: StoredSource) -> String {
        PublicAddress.sourceName(name: source.configuration.name, feedTitle: source.feed.title, url: source.configuration.url)
    }

    public func name(of source: StoredSource) -> String { Self.name(of: source) }

    /// The latest cards (since `options.since`), newest first.
    public func latest(_ options: DigestOptions) -> [StoredCard] {
        all.filter { $0.sortDate >= options.since }
    }

    /// Image URLs of the latest cards: the ones worth downloading now.
    public func latestImageURLs(_ options: DigestOptions) -> [String] {
        unique(latest(options).compactMap(\.card.image))
    }

    /// The source URL each latest image came from (the first card's, when several show it):
    /// the image may be on an internal address only on that source's origin.
    public func latestImageSources(_ options: DigestOptions) -> [String: String] {
        let urls = Dictionary(sources.map { ($0.id, $0.configuration.url) }, uniquingKeysWith: { a, _ in a })
        var out: [String: String] = [:]
        for card in latest(options) {
            guard let image = card.card.image, out[image] == nil, let source = urls[card.sourceID] else { continue }
            out[image] = source
        }
        return out
    }

    /// Image URLs of every card: the ones a page may show if they are cached.
    public var allImageURLs: [String] { unique(all.compactMap(\.card.image)) }

    private func unique(_ urls: [String]) -> [String] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}
