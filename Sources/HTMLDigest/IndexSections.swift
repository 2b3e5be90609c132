import FeedModel
import Foundation
import Storage

/// The sections of `index.html` kept between runs: `.feeds-index` in the site's folder. The
/// index is a section per source (its row of up to `cardsPerRow` cards since `since`, 31 MB at
/// a million cards) and was rendered whole on every run, its rows read first: a third of a
/// rerun with nothing new. A section is a function of its stamp (`DigestWriter`: the source's
/// cards' stamp, name, kind, unread count, the options, where the recent days' archive pages
/// start, the frame) and of the clock through its cards' ages ("5 h ago"); so a section whose
/// stamp is the one recorded and whose ages read the same now (`validFrom <= now <
/// validUntil`, see `CardHTML.ageChanges`) is copied from the last run's index.html, its
/// cards neither read nor rendered.
///
/// A line per source, `ID<TAB>STAMP<TAB>FROM<TAB>UNTIL<TAB>OFFSET<TAB>LENGTH<TAB>FIRST<TAB>IDS<TAB>IMAGES`:
/// the section's bytes in the last index.html, its first card's place (the index's order, see
/// `ArchivePlaces.Key`; `-` for a source with no card since `since`, which has no section),
/// its cards' ids (their excerpts stay in `ExcerptCache`) and its image files. The header names
/// the index.html it describes by size and a hash of its bytes: an index.html edited since is
/// no cache, and every section is rendered as on a fresh write. (Not by inode and time: then
/// the file would differ from a fresh write's in another folder.)
final class IndexSections {
    static let fileName = ".feeds-index"
    /// Bump when a section's markup changes.
    static let format = "feeds-index 1"
    static let maxFileBytes = 64 << 20

    struct Entry {
        var stamp: String
        var validFrom: Int64
        var validUntil: Int64
        var first: ArchivePlaces.Key?
        var cardIDs: [Int64]
        var images: [String]
        /// The section's bytes (empty: the source has no section).
        var bytes: ArraySlice<UInt8>

        /// Whether this section at `offset` has `last`'s line in the file (`line`), `last` read
        /// from it (its bytes' place in the last index.html is where they start).
        func isLine(of last: Entry, at offset: Int) -> Bool {
            offset == last.bytes.startIndex && bytes.count == last.bytes.count && stamp == last.stamp
                && validFrom == last.validFrom && validUntil == last.validUntil && first?.note == last.first?.note
                && cardIDs == last.cardIDs && images == last.images
        }
    }

    private let previous: [Int64: Entry]
    /// The last index.html's bytes, when the cache is its.
    let previousIndex: [UInt8]?
    /// Whether the file holds exactly what `bytes(index:)` gives for `previous` and the last
    /// index.html (every line taken and written as `line` writes it, in the order of the ids).
    private let previousIsExact: Bool
    private var current: [(Int64, Entry, offset: Int)] = []
    /// Whether a section was recorded this run that the last run's are not (another stamp,
    /// another place, a source new to the index).
    private var recordedNew = false

    init(root: String) {
        (previous, previousIndex, previousIsExact) = Self.read(root: root)
    }

    /// Whether `index` is the last index.html, byte for byte (then it is not written again,
    /// nor read again to find that out).
    func isPreviousIndex(_ index: [UInt8]) -> Bool {
        guard let old = previousIndex, old.count == index.count else { return false }
        return old.withUnsafeBytes { a in
            index.withUnsafeBytes { b in a.count == 0 || a.baseAddress == b.baseAddress || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// The last index.html, when it is `sections` between `frame`'s head and foot: a section
    /// copied from it to its old place is its own bytes (not compared), any other is compared.
    func previousIndex(ifMadeOf frame: (head: [UInt8], tail: [UInt8]), _ sections: [ArraySlice<UInt8>]) -> [UInt8]? {
        guard let old = previousIndex,
              old.count == frame.head.count + sections.reduce(0, { $0 + $1.count }) + frame.tail.count,
              old.starts(with: frame.head), old[(old.count - frame.tail.count)...].elementsEqual(frame.tail) else { return nil }
        let same = old.withUnsafeBufferPointer { whole -> Bool in
            var offset = frame.head.count
            for section in sections {
                let place = whole.baseAddress! + offset
                let equal = section.withUnsafeBufferPointer { bytes in
                    bytes.isEmpty || bytes.baseAddress == place || memcmp(bytes.baseAddress!, place, bytes.count) == 0
                }
                guard equal else { return false }
                offset += section.count
            }
            return true
        }
        return same ? old : nil
    }

    /// Whether this run recorded the last run's sections, each at its old place, and no other:
    /// with the same index.html (`isPreviousIndex`), `bytes(index:)` would be the file's own.
    var isUnchanged: Bool { previousIsExact && !recordedNew && current.count == previous.count }

    /// The last run's section of `source` when its stamp is `stamp` and its ages read the same
    /// at `now`.
    func unchanged(_ source: SourceID, stamp: String, now: Timestamp) -> Entry? {
        guard let entry = previous[source.rawValue], entry.stamp == stamp,
              entry.validFrom <= now.secondsSince1970, now.secondsSince1970 < entry.validUntil else { return nil }
        return entry
    }

    /// Records `entry` as the section of `source` at `offset` of the index being written.
    func record(_ source: SourceID, _ entry: Entry, offset: Int) {
        current.append((source.rawValue, entry, offset))
        if !recordedNew {
            recordedNew = !(previous[source.rawValue].map { entry.isLine(of: $0, at: offset) } ?? false)
        }
    }

    /// The file's bytes for this run's sections, describing `index` (the index.html written).
    func bytes(index: [UInt8]) -> [UInt8] {
        var out = Self.format + "\t" + Self.identity(index) + "\n"
        for (id, e, offset) in current.sorted(by: { $0.0 < $1.0 }) { out += Self.line(id, e, offset: offset) }
        return Array(out.utf8)
    }

    /// A section's line in the file (`offset`: where its bytes start in the index.html).
    private static func line(_ id: Int64, _ e: Entry, offset: Int) -> String {
        "\(id)\t\(e.stamp)\t\(e.validFrom)\t\(e.validUntil)\t\(offset)\t\(e.bytes.count)\t" + (e.first?.note ?? "-")
            + "\t" + e.cardIDs.map(String.init).joined(separator: ",") + "\t" + e.images.joined(separator: ",") + "\n"
    }

    /// The size and a hash of an index.html's bytes: what tells the one a cache was written
    /// for from any other.
    static func identity(_ bytes: [UInt8]) -> String {
        "\(bytes.count)\t" + StableHash.hex(bytes.withUnsafeBytes(StableHash.ofBytes))
    }

    private static func read(root: String) -> ([Int64: Entry], [UInt8]?, exact: Bool) {
        let indexPath = root + "/index.html"
        guard let data = SiteFiles.readRegularFile(root + "/" + fileName, limit: maxFileBytes) else { return ([:], nil, false) }
        // Empty lines kept, to tell the file `bytes(index:)` writes (each line ended by a line
        // break, none empty) from any other.
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var exact = lines.last?.isEmpty == true
        if exact { lines.removeLast() }
        var info = stat()
        // The size first: a file of another size is not read.
        guard let header = lines.first.map({ String(decoding: $0, as: UTF8.self) }),
              lstat(indexPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, header.hasPrefix(format + "\t\(info.st_size)\t"),
              let old = SiteFiles.readRegularFile(indexPath, limit: Int(info.st_size)), header == format + "\t" + identity(old) else { return ([:], nil, false) }
        var out: [Int64: Entry] = [:]
        var lastID = Int64.min
        for line in lines.dropFirst() {
            let f = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard f.count == 9, let id = Int64(f[0]), let from = Int64(f[2]), let until = Int64(f[3]),
                  let offset = Int(f[4]), let length = Int(f[5]), offset >= 0, length >= 0, length <= old.count - offset else {
                exact = false
                continue
            }
            let first = f[6] == "-" ? nil : ArchivePlaces.Key(f[6])
            guard (first == nil) == (f[6] == "-") else {
                exact = false
                continue
            }
            let ids = f[7].isEmpty ? [] : f[7].split(separator: ",").compactMap { Int64($0) }
            let images = f[8].isEmpty ? [] : f[8].split(separator: ",").map(String.init).filter(PageManifest.isImageName)
            let entry = Entry(stamp: f[1], validFrom: from, validUntil: until, first: first, cardIDs: ids, images: images,
                              bytes: old[offset..<(offset + length)])
            // Exactly as `line` writes it back (no number in another form, no image name left
            // out), the ids rising.
            if exact, id <= lastID || !line.elementsEqual(Self.line(id, entry, offset: offset).utf8.dropLast()) { exact = false }
            lastID = max(lastID, id)
            out[id] = entry
        }
        return (out, old, exact)
    }
}
