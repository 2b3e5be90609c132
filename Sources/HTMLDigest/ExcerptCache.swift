import FeedModel
import Foundation
import Storage

/// The excerpts of the latest pages' cards (index, sort pages), kept between runs in
/// `.feeds-excerpts` in the site's folder: those pages are rendered on every run (their ages
/// move with the clock), and making their excerpts with libxml2 was most of a rerun with
/// nothing new (a million cards: 31,000 excerpts, ~1.5 s of CPU).
///
/// An excerpt is a function of the card's description and whether it has a title and an image
/// (`CardHTML.makeExcerpt`); an entry is keyed by the card's id and a hash of exactly those, so
/// an edited card (any home, any backend, a database restored from a backup) misses and is
/// made again. A line per card, `ID<TAB>INPUT<TAB>EXCERPT<TAB>CHECK`, CHECK hashing the rest of
/// the line: the file is the site folder's, as hostile as the page manifest; a damaged line, an
/// unknown format, a file that is not a regular one or is too big is no entry, and the excerpt
/// is made as on a fresh write; an excerpt with a control character is never kept. Bounded: only this run's latest cards are written back, at
/// most `maxEntries` and `maxFileBytes`.
final class ExcerptCache {
    static let fileName = ".feeds-excerpts"
    /// Bump when `CardHTML.makeExcerpt` gives other text for the same card: every excerpt is
    /// then made again.
    static let format = "feeds-excerpts 1"
    static let maxFileBytes = 64 << 20
    static let maxEntries = 250_000
    /// Longer excerpts (a Character may be many bytes) are made every time.
    static let maxExcerptBytes = 8_192

    private struct Entry {
        var input: UInt64
        var text: String
    }

    private let previous: [Int64: Entry]
    /// Whether the file holds exactly what `bytes()` gives for `previous`: every line taken, in
    /// the order of the ids, each written as `bytes()` writes it, nothing after the last.
    private let previousIsExact: Bool
    private var current: [Int64: Entry] = [:]
    private var currentBytes = 0
    /// Whether an entry was kept this run that the last run's are not (a new card, another input).
    private var keptNew = false
    /// Entries of the last run found again this run.
    private(set) var hits = 0

    init(root: String) {
        (previous, previousIsExact) = Self.read(root + "/" + Self.fileName)
    }

    /// Whether this run's entries are the last run's and the file holds exactly them: its
    /// bytes would be the file's own, so it is neither made nor written (a rerun with nothing
    /// new at a million cards: 31,000 lines, 15 MB, each hashed to be written and the file
    /// read back to be compared). A file damaged, reordered or cut is written again.
    var isUnchanged: Bool { previousIsExact && !keptNew && current.count == previous.count }

    /// The hash of what `card`'s excerpt is made from; nil when it has none to make.
    static func input(_ card: StoredCard) -> UInt64? {
        guard var description = card.card.description, let title = card.card.title, !title.isEmpty else { return nil }
        var hash = StableHash.Accumulator()
        hash.add(card.card.image == nil ? "text" : "picture")
        hash.add(byte: 0x1F)
        description.withUTF8 { hash.add($0) }
        return hash.value
    }

    /// The last run's excerpt of `card`, when it was made from the same input.
    func excerpt(_ card: StoredCard, input: UInt64) -> String? {
        guard let entry = previous[card.id.rawValue], entry.input == input else { return nil }
        hits += 1
        return entry.text
    }

    /// Keeps `text` as `card`'s excerpt for the next run (within the bounds).
    func keep(_ card: StoredCard, input: UInt64, text: String) {
        let id = card.id.rawValue
        let bytes = text.utf8.count
        guard current[id] == nil, current.count < Self.maxEntries, bytes <= Self.maxExcerptBytes,
              currentBytes + bytes + 64 <= Self.maxFileBytes, !text.utf8.contains(where: { $0 < 0x20 }) else { return }
        current[id] = Entry(input: input, text: text)
        currentBytes += bytes + 64
        if let last = previous[id], last.input == input, last.text == text {} else { keptNew = true }
    }

    /// Keeps the last run's excerpt of the card `id` for the next run, as it was: a card on a
    /// page copied from the last run (`IndexSections`), neither read nor rendered this run.
    func carry(_ id: Int64) {
        guard current[id] == nil, let entry = previous[id], current.count < Self.maxEntries,
              currentBytes + entry.text.utf8.count + 64 <= Self.maxFileBytes else { return }
        current[id] = entry
        currentBytes += entry.text.utf8.count + 64
    }

    /// The file's bytes for this run's entries, by id.
    func bytes() -> [UInt8] {
        var out = Array((Self.format + "\n").utf8)
        out.reserveCapacity(currentBytes + out.count)
        for (id, entry) in current.sorted(by: { $0.key < $1.key }) {
            let line = Array((String(id) + "\t" + Self.hex(entry.input) + "\t" + entry.text).utf8)
            out += line
            out += Array(("\t" + Self.check(line) + "\n").utf8)
        }
        return out
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func check(_ line: [UInt8]) -> String {
        var hash = StableHash.Accumulator()
        line.withUnsafeBufferPointer { hash.add($0) }
        return hash.hex
    }

    /// The entries of the file at `path`; none when it is missing, not a regular file, too
    /// big or of another format; a damaged line is left out. With whether the file is exactly
    /// what `bytes()` writes for them (see `previousIsExact`).
    private static func read(_ path: String) -> (entries: [Int64: Entry], exact: Bool) {
        guard let data = SiteFiles.readRegularFile(path, limit: maxFileBytes) else { return ([:], false) }
        var out: [Int64: Entry] = [:]
        var exact = false  // until the header is read
        var lastID: Int64 = 0
        // Walked as bytes, each line once (31,000 lines, 15 MB: splitting into arrays and
        // Strings per field was a twentieth of a rerun).
        data.withUnsafeBufferPointer { bytes in
            var start = 0
            var first = true
            while start < bytes.count, out.count < maxEntries {
                var end = start
                var tabs: [Int] = []
                var clean = true
                while end < bytes.count, bytes[end] != 0x0A {
                    let b = bytes[end]
                    if b == 0x09 { if tabs.count < 4 { tabs.append(end) } } else if b < 0x20 { clean = false }
                    end += 1
                }
                defer { start = end + 1 }
                // `bytes()` ends every line with a line break.
                if end == bytes.count { exact = false }
                if first {
                    first = false
                    guard UnsafeBufferPointer(rebasing: bytes[start..<end]).elementsEqual(format.utf8) else { return }
                    exact = end < bytes.count
                    continue
                }
                // No control character but the three tabs between fields: the writer keeps no
                // excerpt with one.
                guard clean, tabs.count == 3, end - start <= maxExcerptBytes + 80,
                      tabs[1] - tabs[0] == 17, end - tabs[2] == 17,
                      let id = decimal(bytes[start..<tabs[0]]), id > 0,
                      let input = hex(bytes[(tabs[0] + 1)..<tabs[1]]),
                      let check = hex(bytes[(tabs[2] + 1)..<end]) else {
                    exact = false
                    continue
                }
                var hash = StableHash.Accumulator()
                hash.add(UnsafeBufferPointer(rebasing: bytes[start..<tabs[2]]))
                guard hash.value == check,
                      let text = String(validating: UnsafeBufferPointer(rebasing: bytes[(tabs[1] + 1)..<tabs[2]]), as: UTF8.self) else {
                    exact = false
                    continue
                }
                // Written back as `bytes()` writes it: ids rising, no leading zero (the hex
                // fields are read only as it writes them).
                if id <= lastID || bytes[start] == 0x30 { exact = false }
                lastID = max(lastID, id)
                out[id] = Entry(input: input, text: text)
            }
            // Lines left unread (past `maxEntries`).
            if start < bytes.count { exact = false }
        }
        return (out, exact)
    }

    /// Decimal digits only, at most 18 (no sign, no overflow).
    private static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for b in digits {
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + Int64(b - 0x30)
        }
        return value
    }

    /// Exactly 16 lower-case hex digits, as `hex(_:)` writes them.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for b in digits {
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x61...0x66: digit = b - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
