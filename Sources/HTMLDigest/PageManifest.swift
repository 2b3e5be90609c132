import FeedModel
import Foundation
import Storage

/// What each page of the archive, of a source and of a tag was written from: `.feeds-pages` in
/// the site's folder, a line per page (`PATH<TAB>STAMP<TAB>SIZE<TAB>NOTE<TAB>IMAGES`). STAMP
/// hashes everything the page shows (see `DigestWriter`: the stamps of its cards from the
/// store, its neighbours, the site's title and options, the sources' names and tags, the
/// cached images, `format`); a rerun whose stamp for a page is the one recorded, and whose file
/// is still there at that size, neither reads the page's cards nor renders nor reads the page.
/// NOTE is the page's own: an archive page's first card (`ArchivePlaces`), a source or tag
/// page's days (their stamps are in its stamp: a card's whole-post link names its day's page).
/// IMAGES are the image files the page shows (they stay in the site while it does).
///
/// A lost, edited or unreadable manifest costs one full rewrite, never a stale page.
final class PageManifest {
    static let fileName = ".feeds-pages"
    /// Bump when the markup of a page changes: every page is then written again.
    static let format = "feeds-pages 1"

    struct Entry: Equatable {
        var stamp: String
        var size: Int
        var note: String
        var images: [String]
    }

    private let root: String
    private let previous: [String: Entry]
    private var current: [String: Entry] = [:]

    init(root: String) {
        self.root = root
        previous = Self.read(root + "/" + Self.fileName)
    }

    static func read(_ path: String) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var out: [String: Entry] = [:]
        // Split as bytes: a String split by Characters took a third of a rerun's time; and of
        // an array: Data's generic split was still 7 % of one (12,000 lines, 5 MB).
        let bytes = [UInt8](data)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let header = lines.first, String(decoding: header, as: UTF8.self) == format else { return [:] }
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 5, SiteFiles.isSafeRelative(fields[0]), let size = Int(fields[2]), size >= 0 else { continue }
            let images = fields[4].isEmpty ? [] : fields[4].split(separator: ",").map(String.init).filter(isImageName)
            out[fields[0]] = Entry(stamp: fields[1], size: size, note: fields[3], images: images)
        }
        return out
    }

    /// An image file's name as the cache gives it (`KEY.EXT`): nothing that could name a path.
    static func isImageName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
        }
    }

    /// The last run's entry of `relative`, whatever its stamp (for its note).
    func previousEntry(_ relative: String) -> Entry? { previous[relative] }

    /// The last run's entry when `stamp` is the one it recorded and the file is still a regular
    /// file of that size (deleted or edited by hand: written again). The entry is kept.
    func unchanged(_ relative: String, stamp: String) -> Entry? {
        guard let entry = previous[relative], entry.stamp == stamp else { return nil }
        var info = stat()
        guard lstat(root + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == entry.size else { return nil }
        current[relative] = entry
        return entry
    }

    func record(_ relative: String, stamp: String, size: Int, note: String = "", images: [String] = []) {
        current[relative] = Entry(stamp: stamp, size: size, note: note, images: images.filter(Self.isImageName).sorted())
    }

    /// The manifest's text for this run (the pages recorded or kept).
    func text() -> String {
        var out = Self.format + "\n"
        for (relative, e) in current.sorted(by: { $0.key < $1.key }) {
            out += relative + "\t" + e.stamp + "\t\(e.size)\t" + e.note + "\t" + e.images.joined(separator: ",") + "\n"
        }
        return out
    }
}

/// A stamp under construction: fields hashed with separators so none runs into the next.
struct PageStamp {
    private var hash = StableHash.Accumulator()

    init(_ kind: String) { add(kind) }

    mutating func add(_ value: String?) {
        guard let value else { return hash.add(byte: 0x1E) }
        hash.add(byte: 0x1F)
        hash.add(value)
    }

    mutating func add(_ value: Int) { add(String(value)) }

    /// As the same text as a String.
    mutating func add(_ value: Substring) {
        var value = value
        hash.add(byte: 0x1F)
        value.withUTF8 { hash.add($0) }
    }

    var text: String { hash.hex }
}

/// Where each archive page starts (its first card's place in the archive's order), so a card
/// of another page can link its whole post (`archive/DAY-N.html#cID`) without the archive's
/// cards being read: the pages of a day, and of each its first card's key.
struct ArchivePlaces {
    /// A card's place in the archive's order of a day: dated before undated, newest first.
    struct Key: Equatable {
        var undated: Bool
        var sortDate: Int64
        var id: Int64

        init(_ card: StoredCard) {
            undated = card.card.published == nil && card.card.updated == nil
            sortDate = card.sortDate.secondsSince1970
            id = card.id.rawValue
        }

        init?(_ note: String) {
            let parts = note.split(separator: ":").map(String.init)
            guard parts.count == 3, let u = Int(parts[0]), let s = Int64(parts[1]), let i = Int64(parts[2]) else { return nil }
            undated = u != 0
            sortDate = s
            id = i
        }

        var note: String { "\(undated ? 1 : 0):\(sortDate):\(id)" }

        /// True when `self` comes before `other` in the archive (or is it).
        func isAtOrBefore(_ other: Key) -> Bool {
            if undated != other.undated { return !undated }
            if sortDate != other.sortDate { return sortDate > other.sortDate }
            return id >= other.id
        }
    }

    /// Each day's pages' first keys, page 1 first.
    private var days: [String: [Key?]] = [:]

    mutating func set(day: String, page: Int, first: Key?) {
        var pages = days[day] ?? []
        while pages.count < page { pages.append(nil) }
        pages[page - 1] = first
        days[day] = pages
    }

    /// Where the pages of `day` start, as text (nil: no such day): what a card's link into the
    /// day depends on. An edited card leaves it as it was; a card added or removed on the day
    /// shifts it.
    func starts(of day: String) -> String? {
        days[day].map { $0.map { $0?.note ?? "-" }.joined(separator: ",") }
    }

    /// The archive page holding `card` (`archive/DAY.html#cID`), or nil when its day is not in
    /// the archive.
    func link(_ card: StoredCard) -> String? {
        let day = String(card.sortDate.iso8601.prefix(10))
        guard let pages = days[day], !pages.isEmpty else { return nil }
        let key = Key(card)
        var page = 1
        for (i, first) in pages.enumerated() where i > 0 {
            guard let first, first.isAtOrBefore(key) else { break }
            page = i + 1
        }
        return "archive/" + SitePages.dayFile(day, page: page) + "#c\(card.id.rawValue)"
    }
}
