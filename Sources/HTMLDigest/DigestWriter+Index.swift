import FeedModel
import Storage

extension DigestWriter {
    /// Writes index.html, a section per source with cards since `since`: the sections whose
    /// stamp and ages are the last run's copied from its index.html (`IndexSections`), the
    /// others read and rendered; then the sort pages' excerpts are made, as the sections'
    /// (kept from the last run in `excerptCache`), on every core at once.
    func writeIndex(_ model: DigestModel, pages: SitePages, recentDays: [String], frame: String, files: SiteFiles,
                            excerptCache: ExcerptCache, imageURLs: [String: String], _ cards: inout CardHTML) throws {
        let sections = IndexSections(root: directory)
        let now = options.now
        // Where the pages of the days a row's cards may be on start: a card's link to its whole
        // post names its day's page.
        var recent = PageStamp("recent days")
        for day in recentDays {
            recent.add(day)
            recent.add(pages.places.starts(of: day))
        }
        let recentText = recent.text
        func stamp(_ source: StoredSource) -> String {
            var s = PageStamp("section")
            s.add(frame)
            s.add(recentText)
            for field in [String(source.id.rawValue), model.name(of: source), source.configuration.kind.rawValue,
                          model.sourceStamps[source.id]?.text] { s.add(field) }
            for n in [Int(truncatingIfNeeded: options.since.secondsSince1970), options.cardsPerRow, model.latestUnread[source.id] ?? 0] { s.add(n) }
            return s.text
        }
        // First which sections are kept and which rows are read, so that the excerpts of all
        // the rows to render are made at once.
        var kept: [(rank: Int, source: StoredSource, entry: IndexSections.Entry)] = []
        var fresh: [(rank: Int, source: StoredSource, stamp: String, cards: SourceCards)] = []
        for (rank, source) in pages.sources.enumerated() {
            let stamp = stamp(source)
            if let entry = sections.unchanged(source.id, stamp: stamp, now: now) {
                kept.append((rank, source, entry))
            } else {
                fresh.append((rank, source, stamp, try model.latestCards(of: source.id)))
            }
        }
        var seen = Set<CardID>()
        var toRender: [StoredCard] = []
        for list in model.sorted.map(\.cards) + fresh.map({ Array($0.cards.row.prefix(options.cardsPerRow)) }) {
            for card in list where seen.insert(card.id).inserted { toRender.append(card) }
        }
        // The latest pages' excerpts kept from the last run; those of kept sections carried.
        cards.prepareExcerpts(toRender, cache: excerptCache)
        var shown: [(first: ArchivePlaces.Key, rank: Int, source: SourceID, entry: IndexSections.Entry)] = []
        for k in kept {
            k.entry.cardIDs.forEach(excerptCache.carry)
            cards.markShown(k.entry.images.compactMap { imageURLs[$0] })
            if let first = k.entry.first { shown.append((first, k.rank, k.source.id, k.entry)) } else { sections.record(k.source.id, k.entry, offset: 0) }
        }
        for f in fresh {
            let row = Array(f.cards.row.prefix(options.cardsPerRow))
            var entry = IndexSections.Entry(stamp: f.stamp, validFrom: .min, validUntil: .max, first: row.first.map(ArchivePlaces.Key.init),
                                            cardIDs: row.map(\.id.rawValue), images: [], bytes: [])
            // While every card's age reads as now.
            for card in row {
                let span = CardHTML.ageSpan(of: card.card.date ?? card.sortDate, now: now)
                entry.validFrom = max(entry.validFrom, span.lowerBound)
                entry.validUntil = min(entry.validUntil, span.upperBound)
            }
            guard let first = entry.first else {
                sections.record(f.source.id, entry, offset: 0)
                continue
            }
            cards.startPage()
            entry.bytes = ArraySlice(pages.indexSection(f.source, f.cards, &cards).utf8)
            entry.images = cards.pageImages.compactMap { cards.images[$0]?.fileName }.sorted()
            shown.append((first, f.rank, f.source.id, entry))
        }
        shown.sort { SitePages.sectionBefore(($0.first, $0.rank), ($1.first, $1.rank)) }
        let frame = pages.indexFrame(empty: shown.isEmpty)
        let bodies = shown.map(\.entry.bytes)
        // A rerun with nothing new copies every section to its old place: the last index.html
        // is then this one, and is taken as it is rather than assembled (31 MB at a million
        // cards) and compared.
        let index = sections.previousIndex(ifMadeOf: frame, bodies) ?? SitePages.index(frame, sections: bodies)
        var offset = frame.head.count
        for s in shown {
            sections.record(s.source, s.entry, offset: offset)
            offset += s.entry.bytes.count
        }
        if sections.isPreviousIndex(index) {
            files.keep("index.html")
            // The same sections at the same places: `.feeds-index` would be written as it is.
            if sections.isUnchanged { return }
        } else {
            // Not the last one, read at the start: no need to read it again to compare.
            try files.write("index.html", index, differs: sections.previousIndex != nil)
        }
        try files.writeOwn(IndexSections.fileName, sections.bytes(index: index))
    }
}
