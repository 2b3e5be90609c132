import FeedModel
import Markup
import Storage

/// What writing the site did.
public struct DigestReport: Sendable, Hashable {
    /// Relative paths of the files written (new or changed), in writing order.
    public var written: [String]
    /// Files left alone because their bytes were already right.
    public var unchanged: Int
    /// Relative paths of stale files removed (days, sources, images no longer shown): only
    /// files an earlier run wrote (see `SiteFiles`' manifest).
    public var removed: [String]
    /// The absolute path of `index.html`.
    public var indexPath: String
    /// The image URLs the pages show (for the cache: they were used).
    public var shownImages: [String]
}

/// Writes the static digest into a folder:
///
/// - `index.html`: the latest digest, a section per source (or saved search) with its
///   horizontally scrolling row of cards, the source with the newest card first;
/// - `sort-NAME.html`: the latest cards in each order of `DigestModel.pageOrders`, with a
///   switcher (a plain list of links with the registry's short labels, the long ones as titles);
/// - `archive/index.html` and `archive/YYYY-MM-DD.html`: every card, by day (UTC), a day of
///   more than `cardsPerArchivePage` cards on further pages `YYYY-MM-DD-2.html`, ..., each
///   linking the days before and after;
/// - `sources/index.html` and `sources/ID.html`: a page per source;
/// - `tags/index.html` and `tags/TAG.html`: a page per tag of the sources file (see
///   `DigestModel.tagFile`), linked from each card of a tagged source;
/// - `digest.atom`, `sources.opml` (given by the caller), `style.css`, `images/KEY.EXT`.
///
/// Pages need nothing outside the folder and run no script (see `PageFrame`).
public struct DigestWriter {
    public let directory: String
    public let options: DigestOptions

    public init(directory: String, options: DigestOptions) {
        self.directory = directory
        self.options = options
    }

    /// Writes the site for `model`. `images` maps card image URLs to cached copies (missing:
    /// placeholder); `extraFiles` are written as they are (`sources.opml`).
    public func write(_ model: DigestModel, images: [String: DigestImage], extraFiles: [String: String] = [:]) throws -> DigestReport {
        let files = try SiteFiles(root: directory)
        var cards = CardHTML(images: images, tags: model.tagsBySource)
        var pages = SitePages(model: model, options: options)

        try files.write("style.css", Stylesheet.css)
        for (name, text) in extraFiles.sorted(by: { $0.key < $1.key }) { try files.write(name, text) }

        // The archive first, one page of cards in memory at a time: each card's whole post is
        // written there once, and the other pages link to it (where the cards they show landed).
        let bounded = Set(model.boundedCards.map(\.id))
        var postLinks: [CardID: String] = [:]
        let archive = CardQuery(tag: options.tag)
        let days = pages.days(try model.store.cardCountsByDay(archive))
        try files.write("archive/index.html", pages.archiveIndex(days))
        var dayIndex = 0
        var page = 1
        var list: [StoredCard] = []
        let perPage = max(1, options.cardsPerArchivePage)
        func flush() throws {
            guard !list.isEmpty else { return }
            let name = String(list[0].sortDate.iso8601.prefix(10))
            // The counts were read just before: a card saved in between shifts a page, no more.
            while dayIndex < days.count && days[dayIndex].name > name { dayIndex += 1 }
            let day = dayIndex < days.count && days[dayIndex].name == name
                ? days[dayIndex] : SitePages.Day(name: name, count: list.count, pages: page)
            let shown = SitePages.Day(name: day.name, count: day.count, pages: max(day.pages, page))
            cards.forgetTexts()
            cards.prepareExcerpts(list)
            // Days newest first: the one after in the list is older.
            let found = dayIndex < days.count && days[dayIndex].name == name
            let older = found && dayIndex + 1 < days.count ? days[dayIndex + 1].name : nil
            let newer = found && dayIndex > 0 ? days[dayIndex - 1].name : nil
            let file = SitePages.dayFile(name, page: page)
            for card in list where bounded.contains(card.id) { postLinks[card.id] = "archive/" + file + "#c\(card.id.rawValue)" }
            try files.write("archive/" + file, pages.dayPage(shown, page: page, list, older: older, newer: newer, &cards))
            list.removeAll(keepingCapacity: true)
        }
        try model.store.eachCardByDay(archive) { card in
            if let first = list.first, first.sortDate.iso8601.prefix(10) != card.sortDate.iso8601.prefix(10) {
                try flush()
                page = 1
            }
            list.append(model.published(card))
            if list.count == perPage {
                try flush()
                page += 1
            }
        }
        try flush()

        cards.forgetTexts()
        cards.prepareExcerpts(model.boundedCards)
        pages.postLinks = postLinks
        try files.write("index.html", pages.index(&cards))
        for (order, list) in model.sorted { try files.write("sort-\(order.name).html", pages.sortPage(order, list, &cards)) }
        try files.write("sources/index.html", pages.sourceIndex())
        for source in model.sources { try files.write("sources/\(source.id.rawValue).html", pages.sourcePage(source, &cards)) }
        try files.write("tags/index.html", pages.tagIndex())
        for tag in model.tags { try files.write("tags/" + DigestModel.tagFile(tag.tag), pages.tagPage(tag.tag, tag.cards, total: tag.total, &cards)) }
        try files.write("digest.atom", AtomDigest.feed(model.latest, options: options, title: { cards.title($0) }))

        // Only images some card on some page shows.
        for url in cards.shownImages {
            guard let image = images[url] else { continue }
            try files.copy(from: image.sourceFile, to: "images/" + image.fileName)
        }
        let removed = try files.finish()
        return DigestReport(written: files.written, unchanged: files.unchanged, removed: removed,
                            indexPath: directory + "/index.html", shownImages: cards.shownImages)
    }
}
