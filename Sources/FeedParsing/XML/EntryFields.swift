import FeedModel
import Markup

/// A value with the rank of the element it came from: a higher rank replaces a lower one, an
/// equal rank keeps the first unless asked otherwise (`<title>` beats `dc:title` beats `media:title`, wherever they
/// stand in the item).
struct Ranked<Value> {
    private(set) var value: Value?
    private var rank = Int.min

    /// `replacingEqual`: a later value of the same rank wins (repeated dates: the last counts).
    mutating func offer(_ v: Value?, rank r: Int, replacingEqual: Bool = false) {
        guard let v, r > rank || (replacingEqual && r == rank) else { return }
        value = v
        rank = r
    }
}

/// What the parser has gathered for one item or entry, before the card contract is applied.
struct EntryFields {
    var id = Ranked<String>()
    var title = Ranked<TextValue>()
    var link = Ranked<String>()
    /// A guid that may serve as the link (isPermaLink not "false").
    var permalinkGuid: String?
    var content = Ranked<TextValue>()
    var summary = Ranked<TextValue>()
    var published = Ranked<Timestamp>()
    var updated = Ranked<Timestamp>()
    var authors: [String] = []
    var authorRank = Int.min
    var enclosures: [Enclosure] = []
    var thumbnail: String?
    var mediaImage: String?
    var itunesImage: String?
    var looseImage: String?   // <image> inside an RSS item (not standard, but common)
    /// The folder of the document when it was read from a local file (`file:///dir`): only
    /// then may the card's image be a file, and only one inside that folder
    /// (`CardURL.localImage`). A feed fetched over HTTP never gets a file image.
    var localFolder: String?

    mutating func offerAuthor(_ name: String?, rank: Int) {
        guard let name = FastText.nonBlank(name).map(FastText.collapseWhitespace) else { return }
        if rank > authorRank { authors = [name]; authorRank = rank }
        else if rank == authorRank, !authors.contains(name) { authors.append(name) }
    }

    /// Adds an enclosure; false when it came with a length that is not a size in
    /// `Enclosure.lengthRange` (dropped: the enclosure is kept without one), for the caller's warning.
    @discardableResult
    mutating func addEnclosure(url: String?, type: String?, length: String?, base: String?) -> Bool {
        guard let raw = FastText.nonBlank(url) else { return true }
        let resolved = CardURL.resolve(raw, against: base)
        guard CardURL.isPlainWebURL(resolved) || WebAddress(parsing: resolved).isWebURL, !enclosures.contains(where: { $0.url == resolved }) else { return true }
        // "0" and "" are common for "unknown", and not worth a warning.
        let given = length.flatMap { FastText.nonBlank($0) }.flatMap { $0 == "0" ? nil : $0 }
        let len = given.flatMap { OutsideNumber.integer($0, in: Enclosure.lengthRange) }
        enclosures.append(Enclosure(url: resolved, type: TextRules.nonBlank(type)?.lowercased(), length: len))
        return given == nil || len != nil
    }

    /// A rough size in memory, for the bound on items queued between threads (`CardPipeline`).
    var approximateBytes: Int {
        256 + (title.value?.byteCount ?? 0) + (content.value?.byteCount ?? 0)
            + (summary.value?.byteCount ?? 0) + (id.value?.utf8.count ?? 0) + (link.value?.utf8.count ?? 0)
    }

    /// Applies the card contract (see `Card`).
    func card() -> Card {
        var card = Card()
        card.id = id.value.flatMap { FastText.nonBlank($0) }
        card.title = title.value?.plain
        var mayHoldImage = false
        card.descriptionText = (content.value ?? summary.value)?.htmlText(mayHoldImage: &mayHoldImage)
        // Only a guid that is itself a URL is a link: "12345" resolved against the feed's URL
        // would point nowhere.
        card.link = CardURL.link(link.value) ?? permalinkGuid.flatMap(CardURL.absoluteOnly)
        card.published = published.value
        card.updated = updated.value
        card.author = authors.isEmpty ? nil : authors.joined(separator: ", ")
        card.enclosures = enclosures
        let imageEnclosure = enclosures.first(where: { $0.isImage })?.url
        // A web image, or for a document read from a file one inside its folder.
        let folder = localFolder
        func image(_ s: String?) -> String? { CardURL.image(s) ?? folder.flatMap { CardURL.localImage(s, in: $0) } }
        card.image = image(thumbnail) ?? image(mediaImage) ?? image(itunesImage)
            ?? image(imageEnclosure) ?? image(looseImage)
            ?? (mayHoldImage ? card.descriptionText.flatMap(HTMLImages.firstImageInSanitized) : nil)
        return card
    }
}

/// The URL rules of the card contract.
enum CardURL {
    /// True for `http://host...` or `https://host...` with no space or control byte: such a URL
    /// is already in its final form, so the full RFC 3986 parse is skipped (it runs for every
    /// link, image and enclosure of every item).
    static func isPlainWebURL(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in
            let start: Int
            if b.count > 8, b[0] == 0x68, b[1] == 0x74, b[2] == 0x74, b[3] == 0x70 {
                if b[4] == 0x3A, b[5] == 0x2F, b[6] == 0x2F { start = 7 }
                else if b[4] == 0x73, b[5] == 0x3A, b[6] == 0x2F, b[7] == 0x2F { start = 8 }
                else { return false }
            } else { return false }
            guard start < b.count, b[start] != 0x2F, b[start] != 0x3F, b[start] != 0x23, let p = b.baseAddress else { return false }
            // No space or control byte, and no "/." (dot segments need the full parse to be
            // removed): eight bytes at a time, then the rest.
            var i = start
            var slashBefore = false
            while i + 8 <= b.count {
                let w = ByteScan.word(p, i)
                if ByteScan.hasLess(w, 0x21) || ByteScan.has(w, 0x7F) { return false }
                // A `/` whose next byte is `.`, within the word or across from the last one.
                let slashes = ByteScan.exactEqualMask(w, 0x2F), dots = ByteScan.exactEqualMask(w, 0x2E)
                if (slashes << 8) & dots != 0 || (slashBefore && dots & 0x80 != 0) { return false }
                slashBefore = slashes >> 63 != 0
                i += 8
            }
            while i < b.count {
                let c = b[i]
                if c <= 0x20 || c == 0x7F || (c == 0x2E && i > start && b[i - 1] == 0x2F) { return false }
                i += 1
            }
            // The host must not be empty: not "https://:8080/x" nor "https://user@/x" (found by
            // fuzzing; `WebAddress.isWebURL` refuses them too).
            var end = start, host = start
            while end < b.count {
                let c = b[end]
                if c == 0x2F || c == 0x3F || c == 0x23 { break }
                if c == 0x40 { host = end + 1 }
                end += 1
            }
            guard host < end, b[host] != 0x3A else { return false }
            return true
        }
    }

    /// `WebAddress.resolve`, with the fast path for URLs that are already absolute.
    static func resolve(_ s: String, against base: String?) -> String {
        isPlainWebURL(s) ? s : WebAddress.resolve(s, against: base)
    }

    /// An absolute http, https or mailto URL, or nil.
    static func link(_ s: String?) -> String? {
        guard let s else { return nil }
        if isPlainWebURL(s) { return s }
        guard let s = FastText.nonBlank(s) else { return nil }
        let a = WebAddress(parsing: s)
        if a.isWebURL || (a.scheme == "mailto" && a.path.count > 1) { return a.description }
        return nil
    }

    /// An absolute http or https URL, or nil.
    static func image(_ s: String?) -> String? {
        guard let s else { return nil }
        if isPlainWebURL(s) { return s }
        guard let s = FastText.nonBlank(s) else { return nil }
        let a = WebAddress(parsing: s)
        return a.isWebURL ? a.description : nil
    }

    static func localFolder(ofDocument base: String?) -> String? { LocalImage.folder(ofDocument: base) }
    static func localImage(_ s: String?, in folder: String) -> String? { s.flatMap { LocalImage.inside($0, folder: folder) } }

    static func absoluteOnly(_ s: String) -> String? {
        WebAddress(parsing: s).isWebURL ? s : nil
    }
}
