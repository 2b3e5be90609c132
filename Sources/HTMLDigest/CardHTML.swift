import Dispatch
import FeedModel
import Foundation
import Markup
import Storage

/// The markup of one card: picture, title, source and age, excerpt, enclosures. Every string
/// goes through `HTMLEscaping`; URLs are written only when they are http(s) or mailto (the card
/// contract promises that already; the writer does not rely on it).
struct CardHTML {
    /// Site images by card image URL.
    let images: [String: DigestImage]
    /// Excerpts and display titles by card id, each with the `changedAt` of the card it was
    /// made from, computed once: a card shows on its day's archive page, its source's page, its
    /// tags' pages and maybe the front page. Kept from page to page up to `keptTextBytes`
    /// (`forgetTextsPastLimit`).
    private var excerpts: [CardID: KeptText] = [:]
    private var titles: [CardID: KeptText] = [:]
    /// What `excerpts` and `titles` hold, about (their texts and a dictionary entry each).
    private var keptBytes = 0
    /// The image URLs the rendered cards showed (their files are copied into the site).
    private(set) var shownImages: [String] = []
    private var shownSet = Set<String>()
    /// The image URLs shown since `startPage()`: the page manifest keeps a page's images (a
    /// page left alone still shows them, so they stay in the site).
    private(set) var pageImages = Set<String>()

    static let excerptLength = 220
    /// A text card's excerpt: it has the picture's room too.
    static let textExcerptLength = 600

    /// Each source's tags: a card links its source's tag pages.
    let tags: [SourceID: [String]]

    init(images: [String: DigestImage], tags: [SourceID: [String]] = [:]) {
        self.images = images
        self.tags = tags
    }

    /// The card as an `<article>`. `root` is the way back to the site's folder ("" or "../");
    /// `age`, when given, is shown before the date ("5 h ago").
    /// How a card offers its whole post: not at all, inside it (an archive page: the one place
    /// each post is written), or as a link to that place (`archive/DAY.html#cID`).
    enum Post {
        case none
        case inline
        case link(String)
    }

    mutating func render(_ stored: StoredCard, root: String, age: String?, heading: String = "h3", post: Post = .none,
                         into out: inout String) {
        let card = stored.card
        let title = title(stored)
        let isImageAnswer = card.kind == .image
        // A card without an image is a text card: no picture box, a longer excerpt. One whose
        // image is not cached (failed, refused, not fetched yet) keeps the placeholder.
        let classes = isImageAnswer ? "card image-answer" : card.image == nil ? "card text" : "card"
        if case .inline = post { out += "<article class=\"" + classes + "\" id=\"c\(stored.id.rawValue)\">" } else {
            out += "<article class=\"" + classes + "\">"
        }
        // Picture: the cached copy, sized; clicking it opens the full image.
        if card.image == nil {
            // Nothing to show.
        } else if let url = card.image, let image = images[url] {
            pageImages.insert(url)
            if shownSet.insert(url).inserted { shownImages.append(url) }
            let src = HTMLEscaping.attribute(root + "images/" + image.fileName)
            out += "<a class=\"pic\" href=\"" + src + "\" tabindex=\"-1\"><img src=\"" + src + "\""
            if let w = image.width, let h = image.height { out += " width=\"\(w)\" height=\"\(h)\"" }
            out += " alt=\"" + HTMLEscaping.attribute(title) + "\" loading=\"lazy\" decoding=\"async\"></a>"
        } else {
            out += "<span class=\"pic placeholder\" aria-hidden=\"true\"></span>"
        }
        out += "<" + heading + " class=\"title\">"
        if let href = Self.safeHref(card.link) {
            out += "<a href=\"" + HTMLEscaping.attribute(href) + "\">" + HTMLEscaping.text(title) + "</a>"
        } else {
            out += HTMLEscaping.text(title)
        }
        out += "</" + heading + ">"
        out += "<p class=\"meta\"><span class=\"source\">" + HTMLEscaping.text(stored.sourceName) + "</span>"
        for tag in tags[stored.sourceID] ?? [] {
            out += " <a class=\"tag\" href=\"" + HTMLEscaping.attribute(root + "tags/" + DigestModel.tagFile(tag)) + "\">#" + HTMLEscaping.text(tag) + "</a>"
        }
        if let author = card.author, !author.isEmpty, author != stored.sourceName {
            out += " · <span class=\"author\">" + HTMLEscaping.text(author) + "</span>"
        }
        let date = card.date ?? stored.sortDate
        out += " · <time datetime=\"" + date.iso8601 + "\">"
        if let age { out += HTMLEscaping.text(age) + "</time>" } else { out += Self.shortDate(date) + " UTC</time>" }
        out += "</p>"
        let excerpt = excerpt(stored)
        if !excerpt.isEmpty { out += "<p class=\"excerpt\">" + HTMLEscaping.text(excerpt) + "</p>" }
        if let description = card.description, PostHTML.hasMore(description, excerpt: excerpt) {
            switch post {
            case .none:
                break
            case .inline where description.utf8.count > PostHTML.maxPostBytes:
                if let href = Self.safeHref(card.link) {
                    out += "<p class=\"more\"><a href=\"" + HTMLEscaping.attribute(href) + "\">A long post ("
                        + Self.size(Int64(description.utf8.count)) + "): read it on its site</a></p>"
                }
            case .inline:
                out += "<details class=\"post\"><summary>Read the whole post</summary><div class=\"content\">"
                var used: [String] = []
                out += PostHTML.render(description, root: root, images: images) { used.append($0) }
                pageImages.formUnion(used)
                for url in used where shownSet.insert(url).inserted { shownImages.append(url) }
                out += "</div></details>"
            case .link(let href):
                out += "<p class=\"more\"><a href=\"" + HTMLEscaping.attribute(root + href) + "\">Read the whole post</a></p>"
            }
        }
        let enclosures = card.enclosures.compactMap { e in Self.safeHref(e.url).map { (e, $0) } }
        if !enclosures.isEmpty {
            out += "<ul class=\"enclosures\">"
            for (enclosure, href) in enclosures {
                out += "<li><a href=\"" + HTMLEscaping.attribute(href) + "\">" + HTMLEscaping.text(Self.label(enclosure)) + "</a></li>"
            }
            out += "</ul>"
        }
        out += "</article>\n"
    }

    /// Starts a page's `pageImages`.
    mutating func startPage() { pageImages.removeAll(keepingCapacity: true) }

    /// Counts `urls` as shown (the images of a page left alone).
    mutating func markShown(_ urls: [String]) {
        for url in urls where shownSet.insert(url).inserted { shownImages.append(url) }
    }

    struct KeptText {
        let changedAt: Timestamp
        let text: String
    }

    /// The titles and excerpts kept from page to page at most, in bytes (about): 10,000 cards'
    /// (~3 MB) whole. Each card's excerpt was made again for every page it shows on (a run over
    /// 10,000 cards made ~35,000, the most of a cold write), but a million cards' would not fit
    /// in the memory `feeds html` takes.
    static let keptTextBytes = 6 << 20

    /// Between pages: forgets the titles and excerpts worked out so far once they hold more than
    /// `keptTextBytes`, so that memory does not grow with the archive.
    mutating func forgetTextsPastLimit() {
        guard keptBytes > Self.keptTextBytes else { return }
        excerpts = [:]
        titles = [:]
        keptBytes = 0
    }

    private mutating func keepExcerpt(_ text: String, of stored: StoredCard) {
        excerpts[stored.id] = KeptText(changedAt: stored.changedAt, text: text)
        keptBytes += text.utf8.count + 64
    }

    private mutating func keepTitle(_ text: String, of stored: StoredCard) {
        titles[stored.id] = KeptText(changedAt: stored.changedAt, text: text)
        keptBytes += text.utf8.count + 64
    }

    /// The kept text of `stored` in `texts`, if it was made from the card as it is.
    private func kept(_ stored: StoredCard, in texts: [CardID: KeptText]) -> String? {
        guard let kept = texts[stored.id], kept.changedAt == stored.changedAt else { return nil }
        return kept.text
    }

    /// The display title (see `Card.displayTitle`).
    mutating func title(_ stored: StoredCard) -> String {
        if let title = kept(stored, in: titles) { return title }
        let title = stored.card.displayTitle(plainText: { HTMLText.plainText($0) })
        keepTitle(title, of: stored)
        return title
    }

    /// A short plain-text excerpt of the sanitized description: its text (links as their text
    /// only, never `text <url>`), white space collapsed, cut at a word near `excerptLength`
    /// characters (`textExcerptLength` for a card without image). Plain text, so the cut cannot
    /// leave a tag open, and it is escaped like every other string.
    mutating func excerpt(_ stored: StoredCard) -> String {
        if let excerpt = kept(stored, in: excerpts) { return excerpt }
        let text = Self.makeExcerpt(stored)
        keepExcerpt(text, of: stored)
        return text
    }

    /// Computes the excerpts of `cards` ahead, on every core: turning descriptions into text
    /// is most of the work of writing a large site, and each card's is independent (Markup
    /// keeps no shared state; libxml2 parses separate documents on separate threads).
    /// With `cache`, the excerpts it has of the same input are taken from it, the others made,
    /// and all kept in it for the next run.
    mutating func prepareExcerpts(_ cards: [StoredCard], cache: ExcerptCache? = nil) {
        guard let cache else { return makeExcerpts(cards.filter { kept($0, in: excerpts) == nil }) }
        var missing: [StoredCard] = []
        var inputs: [(StoredCard, UInt64)] = []
        for card in cards {
            guard let input = ExcerptCache.input(card) else { continue }
            inputs.append((card, input))
            if kept(card, in: excerpts) != nil { continue }
            if let text = cache.excerpt(card, input: input) { keepExcerpt(text, of: card) } else { missing.append(card) }
        }
        makeExcerpts(missing)
        for (card, input) in inputs { cache.keep(card, input: input, text: kept(card, in: excerpts) ?? Self.makeExcerpt(card)) }
    }

    private mutating func makeExcerpts(_ cards: [StoredCard]) {
        // Chunks of ~25 cards at least: a page's 200 cards in one chunk were made on one core.
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 4, cards.count / 25))
        // NSLock rather than Synchronization.Mutex: ThreadSanitizer sees a pthread mutex's
        // ordering, not the futexes of Mutex on Linux (`make test-sanitizers`).
        let lock = NSLock()
        nonisolated(unsafe) var results = [[String]](repeating: [], count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var part: [String] = []
            var i = chunk
            while i < cards.count {
                part.append(Self.makeExcerpt(cards[i]))
                i += chunks
            }
            lock.lock()
            results[chunk] = part
            lock.unlock()
        }
        for (chunk, part) in results.enumerated() {
            for (n, text) in part.enumerated() { keepExcerpt(text, of: cards[chunk + n * chunks]) }
        }
    }

    static func makeExcerpt(_ stored: StoredCard) -> String {
        guard let description = stored.card.description else { return "" }
        // A title-less card shows the start of its text as title: do not repeat it.
        if stored.card.title == nil || stored.card.title?.isEmpty == true { return "" }
        // The text of the head is plenty for 220 characters: converting whole articles was
        // most of the time of writing a large site. The cut goes before a space or after a
        // tag end, so no word or entity is split; libxml2 closes the elements left open. Too
        // little text in the head (markup-heavy): the whole body.
        let length = stored.card.image == nil ? textExcerptLength : excerptLength
        var text = headText(description, bytes: length * 4)
        if description.utf8.count > length * 4 && text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex) == nil {
            text = oneLine(HTMLText.plainText(description, linkURLs: false))
        }
        return cut(text, at: length)
    }

    /// The collapsed plain text of the first `bytes` bytes of `html` (all of it when shorter).
    static func headText(_ html: String, bytes: Int) -> String {
        let utf8 = html.utf8
        guard utf8.count > bytes else { return oneLine(HTMLText.plainText(html, linkURLs: false)) }
        var end = utf8.index(utf8.startIndex, offsetBy: bytes)
        while end > utf8.startIndex {
            let b = utf8[utf8.index(before: end)]
            if b == UInt8(ascii: ">") || b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") { break }
            utf8.formIndex(before: &end)
        }
        if end == utf8.startIndex { return oneLine(HTMLText.plainText(html, linkURLs: false)) }
        return oneLine(HTMLText.plainText(String(html[..<end]), linkURLs: false))
    }

    /// The text on one line: every run of ASCII white space (plainText's line breaks and list
    /// indents) becomes one space, trimmed. Bytewise: `TextRules.collapseWhitespace` walks
    /// Characters, which was a quarter of the time of writing a large site.
    static func oneLine(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var space = false
        for b in text.utf8 {
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C {
                space = !out.isEmpty
            } else {
                if space { out.append(0x20); space = false }
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` cut after `limit` characters, at a space in the second half when there is one,
    /// with "…". Counted up to `limit` only (`count` walked every character of every excerpt).
    static func cut(_ text: String, at limit: Int) -> String {
        guard text.utf8.count > limit, let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
              end < text.endIndex else { return text }
        var cut = String(text[..<end])
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = String(cut[..<space])
        }
        return cut + "…"
    }

    /// `url` when it is an absolute http, https or mailto URL; nil otherwise.
    static func safeHref(_ url: String?) -> String? {
        guard let url else { return nil }
        let lower = url.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") else { return nil }
        return url
    }

    /// "audio/mpeg, 12.3 MB" (or the file name when the type is unknown).
    static func label(_ enclosure: Enclosure) -> String {
        var parts: [String] = []
        if let type = enclosure.type, !type.isEmpty { parts.append(type) } else {
            let name = enclosure.url.split(separator: "/").last.map(String.init) ?? "file"
            parts.append(String(name.prefix(60)))
        }
        if let length = enclosure.length, length > 0 { parts.append(size(length)) }
        return "Attachment: " + parts.joined(separator: ", ")
    }

    /// Any Int64 (a stored length may be whatever an older version kept): no product that
    /// could overflow, MB with one decimal below 10 GB, whole GB above.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(max(bytes, 0)) B" }
        if bytes < 1 << 20 { return "\(bytes >> 10) KB" }
        if bytes < 10 << 30 {
            let tenths = (bytes >> 20) * 10 + (bytes & ((1 << 20) - 1)) * 10 >> 20
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "\(bytes >> 30) GB"
    }

    /// `2026-11-29 17:42` (UTC).
    static func shortDate(_ t: Timestamp) -> String {
        let c = t.components
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }

    /// A coarse age, so that a page rewritten within the same hour stays byte-identical:
    /// "under an hour ago", "5 h ago", "3 days ago", else the date.
    /// The moments (seconds since 1970) around `now` at which `age(of: t, now:)` reads as it
    /// does at `now`, a run without gaps: what a section of the index kept from the last run
    /// is valid for (`IndexSections`). The same boundaries as `age`; the whole run, so that
    /// any moment of it gives the same span (a kept section's is a fresh write's).
    static func ageSpan(of t: Timestamp, now: Timestamp) -> Range<Int64> {
        let seconds = now.seconds(since: t)
        let step: Int64
        if seconds < 0 { return Int64.min..<t.secondsSince1970 }
        if seconds < 86_400 { step = 3_600 } else if seconds < 14 * 86_400 { step = 86_400 } else {
            return t.secondsSince1970.saturatingAdd(14 * 86_400)..<Int64.max
        }
        let start = t.secondsSince1970.saturatingAdd(seconds / step * step)
        return start..<max(start, t.secondsSince1970.saturatingAdd((seconds / step + 1) * step))
    }

    static func age(of t: Timestamp, now: Timestamp) -> String {
        let seconds = now.seconds(since: t)
        if seconds < 0 { return shortDate(t) + " UTC" }
        if seconds < 3_600 { return "under an hour ago" }
        if seconds < 86_400 { return "\(seconds / 3_600) h ago" }
        if seconds < 14 * 86_400 { return seconds < 2 * 86_400 ? "1 day ago" : "\(seconds / 86_400) days ago" }
        return shortDate(t) + " UTC"
    }
}
