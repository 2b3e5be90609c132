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
    /// Cards on one page of an archive day: a longer day gets `DAY-2.html`, `DAY-3.html`, ...
    /// (a feed of a million items on one day made a 226 MB page).
    public var cardsPerArchivePage: Int
    /// Only the sources with this tag (`TagMatch`: case aside); nil for all.
    public var tag: String?

    public init(title: String = "feeds digest", since: Timestamp, now: Timestamp, cardsPerRow: Int = 20,
                cardsPerSortPage: Int = 500, cardsPerSourcePage: Int = 200, cardsPerArchivePage: Int = 500) {
        self.title = title
        self.since = since
        self.now = now
        self.cardsPerRow = cardsPerRow
        self.cardsPerSortPage = cardsPerSortPage
        self.cardsPerSourcePage = cardsPerSourcePage
        self.cardsPerArchivePage = cardsPerArchivePage
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

/// One source's cards as the site shows them (each list bounded by the options).
public struct SourceCards: Sendable {
    /// Its newest cards since `since`: its row on the index (at most `cardsPerRow`).
    public var row: [StoredCard]
    /// How many cards it has since `since`.
    public var latestCount: Int
    /// How many of those are unread.
    public var latestUnread: Int
    /// How many cards it has in all.
    public var total: Int
}

/// The cards and sources of one site. Only bounded lists are read up front (the sort pages);
/// a source's row on the index when its section is rendered (see `IndexSections`), a source's
/// and a tag's page are read when the page is written (and
/// only when its cards changed, see `PageManifest`), the archive one day at a time
/// (`DigestStore.eachCardOfDay`), so memory does not grow with the number of cards (5,000
/// sources' pages held together were 1,000,000 cards, 1.77 GB).
public struct DigestModel {
    /// SQLite or PostgreSQL: the same cards give the same site on both.
    public let store: any DigestStore
    public let options: DigestOptions
    public var sources: [StoredSource]
    /// The sort orders a page is written for, with each order's cards since `since` (at most
    /// `cardsPerSortPage`).
    public var sorted: [(order: CardOrder, cards: [StoredCard])]
    /// How many of each source's cards since `since` are unread (a source with none: missing).
    /// The rows themselves are read per source when needed (`latestCards(of:)`): a section of
    /// the index kept from the last run needs only this count (`IndexSections`).
    public var latestUnread: [SourceID: Int]
    /// Each source's stamp (see `CardStamp`): its page changed only when this did.
    public var sourceStamps: [SourceID: CardStamp] = [:]
    /// The archive's days' stamps, when read with the sources' (without `--tag`); nil: the
    /// writer reads them.
    var archiveDayStamps: [(day: Timestamp, stamp: CardStamp)]?
    /// The tags of the sources (from the sources file), sorted, each with how many cards it
    /// has: a page per tag (its newest cards: `tagPageCards`).
    public var tags: [(tag: String, total: Int)] = []
    /// The names the site shows, by source (see `name(of:)`).
    let names: [SourceID: String]
    /// Each source's tags (a card shows its source's).
    var tagsBySource: [SourceID: [String]] = [:]

    /// The orders of the switcher: the shared registry without `relevance`, which ranks search
    /// matches and, with no search text in a digest, lists exactly as `newest` does (a second
    /// identical page would only confuse).
    public static var pageOrders: [CardOrder] { CardOrder.all.filter { $0 != .relevance } }

    /// Reads sources, each order's latest cards, and each source's row, page and counts.
    public static func load(from store: any DigestStore, options: DigestOptions) throws -> DigestModel {
        let sources = try store.sources().filter { source in options.tag.map { TagMatch.matches(source.configuration.tags, $0) } ?? true }
        // The cards carry the name the site may show (the store's falls back to the URL).
        let names = Dictionary(sources.map { ($0.id, name(of: $0)) }, uniquingKeysWith: { a, _ in a })
        func published(_ cards: [StoredCard]) -> [StoredCard] { cards.map { DigestModel.published($0, names) } }
        var sorted: [(CardOrder, [StoredCard])] = []
        for order in pageOrders {
            sorted.append((order, published(try store.cards(CardQuery(tag: options.tag, since: options.since, limit: options.cardsPerSortPage),
                                                            order: order))))
        }
        // Without --tag the archive's days are every card's: both stamps from one walk.
        var dayStamps: [(day: Timestamp, stamp: CardStamp)]?
        let stamps: [SourceID: CardStamp]
        if options.tag == nil {
            let both = try store.cardStampsByDayAndSource()
            (dayStamps, stamps) = (both.byDay, both.bySource)
        } else {
            stamps = try store.cardStampsBySource()
        }
        var latestUnread: [SourceID: Int] = [:]
        for source in sources {
            let unread = try store.cardCount(CardQuery(sourceID: source.id, unreadOnly: true, since: options.since))
            if unread > 0 { latestUnread[source.id] = unread }
        }
        var tags: [(String, Int)] = []
        for tag in Set(sources.flatMap(\.configuration.tags)).filter({ !$0.isEmpty }).sorted() {
            // Every source is in `sources` without `--tag`: the count is the sum of its sources'
            // (400 tags counted by the store took a second at a million cards).
            let total = options.tag == nil
                ? sources.filter { TagMatch.matches($0.configuration.tags, tag) }.reduce(0) { $0 + (stamps[$1.id]?.count ?? 0) }
                : try store.cardCount(CardQuery(tag: tag))
            tags.append((tag, total))
        }
        var model = DigestModel(store: store, options: options, sources: sources, sorted: sorted, latestUnread: latestUnread, names: names)
        model.sourceStamps = stamps
        model.archiveDayStamps = dayStamps
        model.tags = tags
        model.tagsBySource = Dictionary(sources.map { ($0.id, $0.configuration.tags.filter { !$0.isEmpty }) }, uniquingKeysWith: { a, _ in a })
        return model
    }

    static func published(_ card: StoredCard, _ names: [SourceID: String]) -> StoredCard {
        guard let name = names[card.sourceID] else { return card }
        var card = card
        card.sourceName = name
        return card
    }

    /// A source's own page: its newest cards (at most `cardsPerSourcePage`), or of those the
    /// ones since `since`.
    func sourcePageCards(_ id: SourceID, since: Timestamp? = nil) throws -> [StoredCard] {
        try store.cards(CardQuery(sourceID: id, since: since, limit: options.cardsPerSourcePage), order: .newest).map(published)
    }

    /// A tag's page: the newest cards of its sources (at most `cardsPerSourcePage`), or of
    /// those the ones since `since`.
    func tagPageCards(_ tag: String, since: Timestamp? = nil) throws -> [StoredCard] {
        try store.cards(CardQuery(tag: tag, since: since, limit: options.cardsPerSourcePage), order: .newest).map(published)
    }

    /// `card` with the name the site shows for its source.
    func published(_ card: StoredCard) -> StoredCard { Self.published(card, names) }

    /// The name the site shows for `source` (see `PublicAddress.sourceName`): never a
    /// credential or a local path.
    public static func name(of source: StoredSource) -> String {
        PublicAddress.sourceName(name: source.configuration.name, feedTitle: source.feed.title, url: source.configuration.url)
    }

    public func name(of source: StoredSource) -> String { names[source.id] ?? Self.name(of: source) }

    /// The file of a tag's page in `tags/`: lower-case ASCII letters, digits and `-` as they
    /// are, every other byte as `_XX` (so two tags never share a file, and no tag names a path).
    public static func tagFile(_ tag: String) -> String {
        var out = ""
        for b in tag.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789abcdef".unicodeScalars)
                out += "_"
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 15)])
            }
        }
        return (out.isEmpty ? "_" : out) + ".html"
    }

    /// The newest cards since `since` (at most `cardsPerSortPage`): the Atom feed.
    public var latest: [StoredCard] { sorted.first { $0.order == .newest }?.cards ?? [] }

    /// A source's row on the index (its newest cards since `since`, at most `cardsPerRow`) and
    /// its counts, read from the store.
    func latestCards(of id: SourceID) throws -> SourceCards {
        SourceCards(row: try latestRow(of: id), latestCount: try store.cardCount(CardQuery(sourceID: id, since: options.since)),
                    latestUnread: latestUnread[id] ?? 0, total: sourceStamps[id]?.count ?? 0)
    }

    /// A source's row on the index alone.
    func latestRow(of id: SourceID) throws -> [StoredCard] {
        try store.cards(CardQuery(sourceID: id, since: options.since, limit: options.cardsPerRow), order: .newest).map(published)
    }

    /// The cards worth downloading images for, newest first: those of the latest lists (sort
    /// pages, index rows) and of the source and tag pages, those since `since` (the source and
    /// tag pages read again, those cards only).
    func latestShown() throws -> [StoredCard] {
        var seen = Set<CardID>()
        var out: [StoredCard] = []
        let pages = try sources.map { try sourcePageCards($0.id, since: options.since) }
        let rows = try sources.map { try latestRow(of: $0.id) }
        let lists = [latest] + rows + pages
            + sorted.map(\.cards) + (try tags.map { try tagPageCards($0.tag, since: options.since) })
        for list in lists { for card in list where seen.insert(card.id).inserted { out.append(card) } }
        return out
    }

    /// Image URLs of the latest cards: the ones worth downloading now.
    public func latestImageURLs(_ options: DigestOptions) throws -> [String] {
        unique(try latestShown().filter { $0.sortDate >= options.since }.compactMap(\.card.image))
    }

    /// The source URL each latest image came from (the first card's, when several show it):
    /// the image may be on an internal address only on that source's origin.
    /// `origins` overrides a source's URL (a local source's as the absolute `file://` URL it
    /// is read from: its images may be files in its folder, see `LocalImage`).
    public func latestImageSources(_ options: DigestOptions, origins: [SourceID: String] = [:]) throws -> [String: String] {
        let urls = Dictionary(sources.map { ($0.id, origins[$0.id] ?? $0.configuration.url) }, uniquingKeysWith: { a, _ in a })
        var out: [String: String] = [:]
        for card in try latestShown() where card.sortDate >= options.since {
            guard let image = card.card.image, out[image] == nil, let source = urls[card.sourceID] else { continue }
            out[image] = source
        }
        return out
    }

    /// Pictures inside the whole posts of the latest cards (`latest`, newest first; at most
    /// `PostHTML.maxImagesPerPost` a post), with each one's source: cached like card images,
    /// so the posts show them (the pages may load only the site's own images).
    public func latestPostImages() -> [(url: String, sourceID: SourceID)] {
        var seen = Set<String>()
        var out: [(url: String, sourceID: SourceID)] = []
        for card in latest {
            guard let description = card.card.description, description.utf8.count <= PostHTML.maxPostBytes else { continue }
            for url in PostHTML.imageURLs(description) where seen.insert(url).inserted { out.append((url, card.sourceID)) }
        }
        return out
    }

    private func unique(_ urls: [String]) -> [String] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}
