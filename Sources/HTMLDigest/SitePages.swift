import FeedModel
import Markup
import Storage

/// The pages of the site, each a function of the model: same model, same bytes (no clock reads,
/// no dictionary order), which is what makes rewriting incremental.
struct SitePages {
    let model: DigestModel
    let options: DigestOptions
    /// Where each card has its whole post (`archive/DAY.html#cID`), from the archive written
    /// first.
    var places = ArchivePlaces()

    /// Sources sorted by display name (case-insensitive), then id: sorted once (the tag index
    /// lists each tag's sources: 400 tags sorting 5,000 sources each took 1 s).
    let sources: [StoredSource]

    init(model: DigestModel, options: DigestOptions) {
        self.model = model
        self.options = options
        sources = model.sources.map { (model.name(of: $0).lowercased(), $0) }
            .sorted { ($0.0, $0.1.id.rawValue) < ($1.0, $1.1.id.rawValue) }.map(\.1)
    }

    func post(_ card: StoredCard) -> CardHTML.Post { places.link(card).map { .link($0) } ?? .none }


    /// Whether the section of `a` comes before that of `b` on the index: the source with the
    /// newest card first (the newest card of each row: dated cards before undated ones, then
    /// sort date), ties by `rank`, the source's place in `sources`. A source with nothing new
    /// has no section.
    static func sectionBefore(_ a: (first: ArchivePlaces.Key, rank: Int), _ b: (first: ArchivePlaces.Key, rank: Int)) -> Bool {
        if a.first.undated != b.first.undated { return !a.first.undated }
        if a.first.sortDate != b.first.sortDate { return a.first.sortDate > b.first.sortDate }
        return a.rank < b.rank
    }

    // MARK: Latest digest

    /// The index's head and foot, around its sections (rendered, in `sectionBefore` order;
    /// `empty`: none).
    func indexFrame(empty: Bool) -> (head: [UInt8], tail: [UInt8]) {
        var head = ""
        PageFrame.open(title: options.title, siteTitle: options.title, root: "", section: .latest, into: &head)
        head += "<p class=\"lede\">Cards since " + CardHTML.shortDate(options.since) + " UTC, a row per source, the source with the newest card first. "
        head += "All of them by order: " + switcherLinks(current: nil) + ".</p>\n"
        var tail = ""
        if empty { tail += "<p class=\"empty\">No new cards since " + CardHTML.shortDate(options.since) + " UTC.</p>\n" }
        PageFrame.close(into: &tail)
        return (Array(head.utf8), Array(tail.utf8))
    }

    /// The index: `sections` between `frame`'s head and foot (`indexFrame`).
    static func index(_ frame: (head: [UInt8], tail: [UInt8]), sections: [ArraySlice<UInt8>]) -> [UInt8] {
        var out = frame.head
        out.reserveCapacity(out.count + sections.reduce(0) { $0 + $1.count } + frame.tail.count)
        for section in sections { out += section }
        out += frame.tail
        return out
    }

    /// The index's section of `source` (its row of `cards`; the source must have a card since
    /// `since`).
    func indexSection(_ source: StoredSource, _ cards: SourceCards, _ html: inout CardHTML) -> String {
        var out = ""
        let headingID = "s\(source.id.rawValue)"
        out += "<section class=\"source\" aria-labelledby=\"\(headingID)\">\n<h2 id=\"\(headingID)\">"
        out += "<a href=\"sources/\(source.id.rawValue).html\">" + HTMLEscaping.text(model.name(of: source)) + "</a>"
        if source.configuration.kind == .search { out += " <span class=\"kind\">saved search</span>" }
        // What the number counts, said: the cards since `since`, and of those the unread.
        out += " <span class=\"count\">" + Self.count(cards.latestCount, "card") + " since " + CardHTML.shortDate(options.since)
            + ", \(cards.latestUnread) unread</span></h2>\n"
        row(Array(cards.row.prefix(options.cardsPerRow)), label: model.name(of: source), root: "", age: true, &html, into: &out)
        if cards.latestCount > options.cardsPerRow {
            out += "<p class=\"more\"><a href=\"sources/\(source.id.rawValue).html\">All cards of "
                + HTMLEscaping.text(model.name(of: source)) + "</a></p>\n"
        }
        out += "</section>\n"
        return out
    }

    /// A horizontally scrolling row; focusable, so arrow keys scroll it.
    func row(_ list: [StoredCard], label: String, root: String, age: Bool, _ cards: inout CardHTML, into out: inout String) {
        out += "<div class=\"row\" role=\"region\" tabindex=\"0\" aria-label=\"" + HTMLEscaping.attribute("Cards of " + label) + "\">\n"
        for card in list {
            cards.render(card, root: root, age: age ? CardHTML.age(of: card.card.date ?? card.sortDate, now: options.now) : nil,
                         post: post(card), into: &out)
        }
        out += "</div>\n"
    }

    /// A wrapping grid of cards, for the long pages.
    /// `inline`: the cards carry their whole posts (the archive).
    func grid(_ list: [StoredCard], root: String, age: Bool, heading: String = "h2", inline: Bool = false,
              _ cards: inout CardHTML, into out: inout String) {
        out += "<div class=\"grid\">\n"
        for card in list {
            cards.render(card, root: root, age: age ? CardHTML.age(of: card.card.date ?? card.sortDate, now: options.now) : nil,
                         heading: heading, post: inline ? .inline : post(card), into: &out)
        }
        out += "</div>\n"
    }

    // MARK: Sort pages

    /// A link to the page of `order`: the registry's short label, its long one as the title
    /// (tooltip), the current page marked.
    func orderLink(_ order: CardOrder, current: CardOrder?) -> String {
        "<a href=\"sort-\(order.name).html\" title=\"" + HTMLEscaping.attribute(order.label) + "\""
            + (order == current ? " aria-current=\"page\"" : "") + ">" + HTMLEscaping.text(order.shortLabel) + "</a>"
    }

    func switcherLinks(current: CardOrder?) -> String {
        DigestModel.pageOrders.map { orderLink($0, current: current) }.joined(separator: ", ")
    }

    func sortPage(_ order: CardOrder, _ list: [StoredCard], _ cards: inout CardHTML) -> String {
        var out = ""
        PageFrame.open(title: "Latest cards, " + order.shortLabel.lowercased(), siteTitle: options.title, root: "", section: .sorted, into: &out)
        out += "<nav class=\"switcher\" aria-label=\"Sort order\"><h2>Sort</h2><ul>"
        for other in DigestModel.pageOrders { out += "<li>" + orderLink(other, current: order) + "</li>" }
        out += "</ul></nav>\n"
        out += "<p class=\"lede\">" + Self.count(list.count, "card") + " since " + CardHTML.shortDate(options.since) + " UTC, " + HTMLEscaping.text(order.label)
        out += list.count >= options.cardsPerSortPage ? " (the first \(options.cardsPerSortPage)).</p>\n" : ".</p>\n"
        if list.isEmpty { out += "<p class=\"empty\">No cards.</p>\n" } else { grid(list, root: "", age: true, &cards, into: &out) }
        PageFrame.close(into: &out)
        return out
    }

    // MARK: Archive

    /// A day of the archive: its name, how many cards it has, and so how many pages.
    struct Day {
        let name: String  // YYYY-MM-DD
        let count: Int
        let pages: Int
    }

    /// The days of the store, newest first (counts only: the cards come one page at a time).
    func days(_ counts: [(day: Timestamp, count: Int)]) -> [Day] {
        let perPage = max(1, options.cardsPerArchivePage)
        return counts.map { Day(name: String($0.day.iso8601.prefix(10)), count: $0.count, pages: ($0.count + perPage - 1) / perPage) }
    }

    /// The file of page `page` (1-based) of a day: `DAY.html`, then `DAY-2.html`, ...
    static func dayFile(_ name: String, page: Int) -> String { page <= 1 ? name + ".html" : name + "-\(page).html" }

    func archiveIndex(_ days: [Day]) -> String {
        var out = ""
        PageFrame.open(title: "Archive", siteTitle: options.title, root: "../", section: .archive, into: &out)
        out += "<p class=\"lede\">Every card, by the day (UTC) of its date.</p>\n"
        if days.isEmpty { out += "<p class=\"empty\">No cards yet.</p>\n" }
        var month = ""
        for day in days {
            let m = String(day.name.prefix(7))
            if m != month {
                if !month.isEmpty { out += "</ul>\n" }
                out += "<h2>" + m + "</h2>\n<ul class=\"days\">\n"
                month = m
            }
            out += "<li><a href=\"" + day.name + ".html\">" + day.name + "</a> <span class=\"count\">" + Self.count(day.count, "card")
            out += day.pages > 1 ? ", \(day.pages) pages</span></li>\n" : "</span></li>\n"
        }
        if !month.isEmpty { out += "</ul>\n" }
        PageFrame.close(into: &out)
        return out
    }

    /// Page `page` of `day`, showing `list` (at most `cardsPerArchivePage` cards); a day of
    /// several pages links them all.
    /// `older` and `newer` are the days before and after it that have cards (nil: none).
    func dayPage(_ day: Day, page: Int, _ list: [StoredCard], older: String? = nil, newer: String? = nil, _ cards: inout CardHTML) -> String {
        var out = ""
        let title = "Cards of " + day.name + (day.pages > 1 ? ", page \(page) of \(day.pages)" : "")
        PageFrame.open(title: title, siteTitle: options.title, root: "../", section: .archive, into: &out)
        out += "<p class=\"lede\">" + Self.count(day.count, "card") + " dated " + day.name + " (UTC).</p>\n"
        let days = dayLinks(older: older, newer: newer)
        out += days
        let nav = day.pages > 1 ? pageLinks(day, current: page) : ""
        out += nav
        grid(list, root: "../", age: false, inline: true, &cards, into: &out)
        out += nav + days
        PageFrame.close(into: &out)
        return out
    }

    /// The previous (older) and next (newer) day, and the list of days.
    func dayLinks(older: String?, newer: String?) -> String {
        var out = "<nav class=\"days-nav\" aria-label=\"Other days\"><ul>"
        if let older { out += "<li><a href=\"\(Self.dayFile(older, page: 1))\" rel=\"prev\">← " + older + "</a></li>" }
        out += "<li><a href=\"index.html\">All days</a></li>"
        if let newer { out += "<li><a href=\"\(Self.dayFile(newer, page: 1))\" rel=\"next\">" + newer + " →</a></li>" }
        return out + "</ul></nav>\n"
    }

    /// "1 card", "2 cards": `noun` with an s unless there is one.
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 " + noun : "\(n) " + noun + "s" }

    /// "Pages: 1 2 3" with the current one marked.
    func pageLinks(_ day: Day, current: Int) -> String {
        var out = "<nav class=\"pages\" aria-label=\"Pages of \(day.name)\"><ul>"
        for page in 1...max(1, day.pages) {
            out += page == current
                ? "<li><a href=\"\(Self.dayFile(day.name, page: page))\" aria-current=\"page\">\(page)</a></li>"
                : "<li><a href=\"\(Self.dayFile(day.name, page: page))\">\(page)</a></li>"
        }
        return out + "</ul></nav>\n"
    }

    // MARK: Sources

    func sourceIndex() -> String {
        var out = ""
        PageFrame.open(title: "Sources", siteTitle: options.title, root: "../", section: .sources, into: &out)
        out += "<ul class=\"sources\">\n"
        for source in sources {
            out += "<li><a href=\"\(source.id.rawValue).html\">" + HTMLEscaping.text(model.name(of: source)) + "</a>"
            out += " <span class=\"count\">" + Self.count(model.sourceStamps[source.id]?.count ?? 0, "card") + "</span>"
            // A message may quote the address it failed on: published scrubbed.
            if let reason = source.disabledReason {
                out += " <span class=\"problem\">disabled: " + HTMLEscaping.text(PublicAddress.scrubbed(reason)) + "</span>"
            } else if let error = source.lastError {
                out += " <span class=\"problem\">" + HTMLEscaping.text(PublicAddress.scrubbed(error)) + "</span>"
            }
            out += "</li>\n"
        }
        out += "</ul>\n"
        PageFrame.close(into: &out)
        return out
    }

    // MARK: Tags

    func tagIndex() -> String {
        var out = ""
        PageFrame.open(title: "Tags", siteTitle: options.title, root: "../", section: .tags, into: &out)
        if model.tags.isEmpty {
            out += "<p class=\"empty\">No tags: give sources tags in the sources file (<code>tags=dev,news</code>).</p>\n"
        } else {
            out += "<p class=\"lede\">The tags of the sources file; a tag's page shows the newest cards of its sources.</p>\n<ul class=\"tags\">\n"
            for tag in model.tags {
                let names = sources.filter { $0.configuration.tags.contains(tag.tag) }.map { model.name(of: $0) }
                out += "<li><a href=\"" + HTMLEscaping.attribute(DigestModel.tagFile(tag.tag)) + "\">#" + HTMLEscaping.text(tag.tag) + "</a> <span class=\"count\">"
                    + Self.count(tag.total, "card") + ": " + HTMLEscaping.text(names.joined(separator: ", ")) + "</span></li>\n"
            }
            out += "</ul>\n"
        }
        PageFrame.close(into: &out)
        return out
    }

    func tagPage(_ tag: String, _ list: [StoredCard], total: Int, _ cards: inout CardHTML) -> String {
        var out = ""
        PageFrame.open(title: "#" + tag, siteTitle: options.title, root: "../", section: .tags, into: &out)
        out += "<p class=\"lede\">" + Self.count(total, "card") + " of the sources tagged " + HTMLEscaping.text(tag)
        out += list.count < total ? ", the newest \(list.count)" : ""
        out += " · <a href=\"index.html\">All tags</a></p>\n"
        if list.isEmpty { out += "<p class=\"empty\">No cards.</p>\n" } else { grid(list, root: "../", age: false, &cards, into: &out) }
        PageFrame.close(into: &out)
        return out
    }

    func sourcePage(_ source: StoredSource, _ list: [StoredCard], _ cards: inout CardHTML) -> String {
        var out = ""
        PageFrame.open(title: model.name(of: source), siteTitle: options.title, root: "../", section: .sources, into: &out)
        out += "<p class=\"lede\">"
        if let site = CardHTML.safeHref(source.feed.link.flatMap(PublicAddress.of)) {
            out += "<a href=\"" + HTMLEscaping.attribute(site) + "\">Web site</a> · "
        }
        if let feed = CardHTML.safeHref(PublicAddress.of(source.configuration.url)) {
            out += "<a href=\"" + HTMLEscaping.attribute(feed) + "\">Feed</a> · "
        }
        out += "<a href=\"index.html\">All sources</a></p>\n"
        if let description = source.feed.description {
            let text = CardHTML.cut(TextRules.collapseWhitespace(HTMLText.plainText(description, linkURLs: false)), at: 400)
            if !text.isEmpty { out += "<p class=\"about\">" + HTMLEscaping.text(text) + "</p>\n" }
        }
        if list.isEmpty { out += "<p class=\"empty\">No cards.</p>\n" } else { grid(list, root: "../", age: false, &cards, into: &out) }
        PageFrame.close(into: &out)
        return out
    }
}
