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
    ///
    /// Incremental in what it reads, not only in what it writes: an archive, source or tag
    /// page whose stamp (`PageManifest`) is the last run's is neither rendered nor read, and
    /// its cards are not read from the store. The latest pages (index, sort pages, the Atom
    /// feed, the lists of days, sources and tags) are always rendered: they are bounded.
    public func write(_ model: DigestModel, images: [String: DigestImage], extraFiles: [String: String] = [:]) throws -> DigestReport {
        let files = try SiteFiles(root: directory)
        let manifest = PageManifest(root: directory)
        let excerptCache = ExcerptCache(root: directory)
        var cards = CardHTML(images: images, tags: model.tagsBySource)
        var pages = SitePages(model: model, options: options)
        let frame = frameStamp(model, images: images)
        let imageURLs = Dictionary(images.map { ($0.value.fileName, $0.key) }, uniquingKeysWith: { a, b in min(a, b) })

        try files.write("style.css", Stylesheet.css)
        for (name, text) in extraFiles.sorted(by: { $0.key < $1.key }) { try files.write(name, text) }

        /// A page left alone: still the site's, and so are its images.
        func keep(_ relative: String, _ entry: PageManifest.Entry) {
            files.keep(relative)
            cards.markShown(entry.images.compactMap { imageURLs[$0] })
        }
        func written(_ relative: String, _ text: String, stamp: String, note: String = "") throws {
            let bytes = Array(text.utf8)
            try files.write(relative, bytes)
            manifest.record(relative, stamp: stamp, size: bytes.count, note: note,
                            images: cards.pageImages.compactMap { images[$0]?.fileName })
        }

        // The archive first, one day at a time and one page of cards in memory: each card's
        // whole post is written there once, and the other pages link to it (`ArchivePlaces`).
        let archive = CardQuery(tag: options.tag)
        let dayStamps = try model.archiveDayStamps ?? model.store.cardStampsByDay(archive)
        let days = pages.days(dayStamps.map { ($0.day, $0.stamp.count) })
        let dayStampTexts = Dictionary(zip(days.map(\.name), dayStamps.map(\.stamp.text)), uniquingKeysWith: { a, _ in a })
        try files.write("archive/index.html", pages.archiveIndex(days))
        var places = ArchivePlaces()
        let perPage = max(1, options.cardsPerArchivePage)
        for (i, day) in days.enumerated() {
            // Days newest first: the one after in the list is older.
            let older = i + 1 < days.count ? days[i + 1].name : nil
            let newer = i > 0 ? days[i - 1].name : nil
            func stamp(_ page: Int) -> String {
                var s = PageStamp("day")
                s.add(frame)
                for field in [day.name, older, newer, dayStampTexts[day.name]] { s.add(field) }
                for n in [page, day.count, day.pages] { s.add(n) }
                return s.text
            }
            var kept: [(String, PageManifest.Entry)] = []
            for page in 1...max(1, day.pages) {
                let relative = "archive/" + SitePages.dayFile(day.name, page: page)
                guard let entry = manifest.unchanged(relative, stamp: stamp(page)), let first = ArchivePlaces.Key(entry.note) else { break }
                kept.append((relative, entry))
                places.set(day: day.name, page: page, first: first)
            }
            if kept.count == max(1, day.pages) {
                for (relative, entry) in kept { keep(relative, entry) }
                continue
            }
            var list: [StoredCard] = []
            var page = 1
            func flush() throws {
                guard !list.isEmpty else { return }
                // The counts were read just before: a card saved in between shifts a page, no more.
                let shown = SitePages.Day(name: day.name, count: day.count, pages: max(day.pages, page))
                cards.forgetTextsPastLimit()
                cards.prepareExcerpts(list)
                cards.startPage()
                let first = ArchivePlaces.Key(list[0])
                places.set(day: day.name, page: page, first: first)
                let text = pages.dayPage(shown, page: page, list, older: older, newer: newer, &cards)
                try written("archive/" + SitePages.dayFile(day.name, page: page), text, stamp: stamp(page), note: first.note)
                list.removeAll(keepingCapacity: true)
            }
            try model.store.eachCardOfDay(dayStamps[i].day, archive) { card in
                list.append(model.published(card))
                if list.count == perPage {
                    try flush()
                    page += 1
                }
            }
            try flush()
        }

        cards.forgetTextsPastLimit()
        pages.places = places
        // The days a row's cards may be on: those from the day of `since` on.
        let sinceDay = options.since.secondsSince1970.saturatingSubtract(((options.since.secondsSince1970 % 86_400) + 86_400) % 86_400)
        let recentDays = zip(days, dayStamps).filter { $0.1.day.secondsSince1970 >= sinceDay }.map(\.0.name)
        try writeIndex(model, pages: pages, recentDays: recentDays, frame: frame, files: files, excerptCache: excerptCache,
                       imageURLs: imageURLs, &cards)
        for (order, list) in model.sorted { try files.write("sort-\(order.name).html", pages.sortPage(order, list, &cards)) }
        try files.write("sources/index.html", pages.sourceIndex())

        /// The stamp of a source's or tag's page: its own, and where the pages of the days its
        /// cards are on start (their whole posts' links name those days' pages; a card edited on
        /// a day of 10,000 cards re-renders its own source's page, not those of every source
        /// with a card that day).
        /// (Each day's starts joined once: a day of 10,000 cards is on the pages of hundreds of
        /// sources, and joining its pages' keys for each was a tenth of a rerun at a million.)
        /// (Days as substrings of the manifest's notes: 5,000 source pages of ~200 days each,
        /// split by Characters into Strings, were a tenth of a rerun at a million cards.)
        var startsOfDay: [Substring: String] = [:]
        func withDays(_ base: PageStamp, _ days: [Substring]) -> String {
            var s = base
            for day in days {
                let starts: String
                if let known = startsOfDay[day] {
                    starts = known
                } else {
                    starts = places.starts(of: String(day)) ?? "gone"
                    startsOfDay[day] = starts
                }
                s.add(day)
                s.add(starts)
            }
            return s.text
        }
        func daysOf(_ list: [StoredCard]) -> [String] {
            var seen = Set<String>()
            return list.map { String($0.sortDate.iso8601.prefix(10)) }.filter { seen.insert($0).inserted }
        }
        /// Writes the page at `relative` unless its stamp is the last run's.
        func boundedPage(_ relative: String, _ base: PageStamp, cards list: () throws -> [StoredCard],
                         render: ([StoredCard], inout CardHTML) -> String) throws {
            if let note = manifest.previousEntry(relative)?.note,
               let entry = manifest.unchanged(relative, stamp: withDays(base, note.utf8.split(separator: UInt8(ascii: ",")).map { Substring($0) })) {
                return keep(relative, entry)
            }
            let shown = try list()
            cards.forgetTextsPastLimit()
            cards.prepareExcerpts(shown)
            cards.startPage()
            let days = daysOf(shown)
            try written(relative, render(shown, &cards), stamp: withDays(base, days.map { Substring($0) }), note: days.joined(separator: ","))
        }
        for source in model.sources {
            var base = PageStamp("source")
            base.add(frame)
            for field in [String(source.id.rawValue), model.name(of: source), source.feed.link, source.configuration.url,
                          source.feed.description, model.sourceStamps[source.id]?.text] { base.add(field) }
            try boundedPage("sources/\(source.id.rawValue).html", base, cards: { try model.sourcePageCards(source.id) }) {
                pages.sourcePage(source, $0, &$1)
            }
        }
        try files.write("tags/index.html", pages.tagIndex())
        // A tag's cards may be of sources the site leaves out (`--tag`): then every source's stamp.
        let allStamps = model.sourceStamps.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value.text)" }
        for tag in model.tags {
            var base = PageStamp("tag")
            base.add(frame)
            base.add(tag.tag)
            base.add(tag.total)
            if options.tag != nil { allStamps.forEach { base.add($0) } }
            for source in model.sources where TagMatch.matches(source.configuration.tags, tag.tag) {
                base.add("\(source.id.rawValue)=" + (model.sourceStamps[source.id]?.text ?? ""))
            }
            try boundedPage("tags/" + DigestModel.tagFile(tag.tag), base, cards: { try model.tagPageCards(tag.tag) }) { list, html in
                pages.tagPage(tag.tag, list, total: tag.total, &html)
            }
        }
        try files.write("digest.atom", AtomDigest.feed(model.latest, options: options, title: { cards.title($0) }))

        // Only images some card on some page shows.
        for url in cards.shownImages {
            guard let image = images[url] else { continue }
            try files.copy(from: image.sourceFile, to: "images/" + image.fileName)
        }
        try files.writeOwn(PageManifest.fileName, Array(manifest.text().utf8))
        if !excerptCache.isUnchanged { try files.writeOwn(ExcerptCache.fileName, excerptCache.bytes()) }
        let removed = try files.finish()
        return DigestReport(written: files.written, unchanged: files.unchanged, removed: removed,
                            indexPath: directory + "/index.html", shownImages: cards.shownImages)
    }

    /// What every page of the archive, a source or a tag shows besides its cards: the format,
    /// the options, each source's name and tags (a card shows them), the cached images.
    func frameStamp(_ model: DigestModel, images: [String: DigestImage]) -> String {
        var s = PageStamp(PageManifest.format)
        s.add(options.title)
        s.add(options.tag)
        s.add(options.cardsPerArchivePage)
        s.add(options.cardsPerSourcePage)
        for source in model.sources.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            s.add(source.id.rawValue.description)
            s.add(model.name(of: source))
            s.add((model.tagsBySource[source.id] ?? []).joined(separator: "\u{1F}"))
        }
        for (url, image) in images.sorted(by: { $0.key < $1.key }) {
            s.add(url)
            s.add(image.fileName)
            s.add(image.width.map(String.init))
            s.add(image.height.map(String.init))
        }
        return s.text
    }
}
