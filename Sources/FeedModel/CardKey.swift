/// The identity of a card within its source (see `Card` for the rules). Stored as text in the
/// database column `card_key`; the prefixes keep the three kinds from colliding.
public struct CardKey: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(for card: Card) {
        if card.kind == .article, let id = card.id, !id.isEmpty {
            rawValue = "id:" + id
        } else if let link = card.link, !link.isEmpty {
            rawValue = "link:" + WebAddress(parsing: link).normalizedForIdentity
        } else if card.kind == .image, let image = card.image {
            rawValue = "image:" + WebAddress(parsing: image).normalizedForIdentity
        } else {
            rawValue = "hash:" + StableHash.fnv1a64Hex((card.title ?? "") + "\u{1F}" + (card.description ?? ""))
        }
    }

    /// Search results: identity by normalized URL only.
    public static func forSearchResult(_ card: Card) -> CardKey {
        var c = card
        c.id = nil
        return CardKey(for: c)
    }

    public var description: String { rawValue }
}

/// A hash whose value is fixed forever (it is stored), unlike Swift's seeded `Hasher`: FNV-1a
/// 64 over UTF-8 bytes. `Accumulator` hashes several pieces as if they were one string, without
/// building it (a card's content hash covers its whole description).
public enum StableHash {
    public struct Accumulator: Sendable {
        public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public mutating func add(_ s: String) {
            var s = s
            s.withUTF8 { add($0) }
        }

        public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            var h = value
            for b in bytes {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
            value = h
        }

        public mutating func add(byte b: UInt8) {
            value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01b3
        }

        /// The value as 16 lower-case hex digits.
        public var hex: String { StableHash.hex(value) }
    }

    public static func fnv1a64(_ s: String) -> UInt64 {
        var h = Accumulator()
        h.add(s)
        return h.value
    }

    public static func fnv1a64Hex(_ s: String) -> String { hex(fnv1a64(s)) }

    /// A whole file's bytes, eight at a step (an FNV-1a-like multiply with a shift folded in,
    /// seeded with the length): 31 MB in a few ms where byte-wise FNV-1a took ~50. What tells a
    /// file a cache was made from from any other (`feeds html`'s index, the sources file).
    public static func ofBytes(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01b3
            h ^= h >> 29
            i += 8
        }
        while i < raw.count {
            h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01b3
            i += 1
        }
        return h
    }

    public static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Small text rules shared by every producer of cards.
public enum TextRules {
    /// Collapses runs of ASCII white space (space, tab, line breaks, form feed, vertical tab) to
    /// one space and trims them from both ends. Other spaces (no-break, em, thin, zero-width
    /// joiners) are content a writer chose, and stay. Works on UTF-8 bytes: an ASCII byte is never
    /// part of a multi-byte character.
    public static func collapseWhitespace<S: StringProtocol>(_ s: S) -> String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        let utf8 = s.utf8
        var needsWork = false
        var previousSpace = true
        for b in utf8 {
            let space = isSpace(b)
            if space && (previousSpace || b != 0x20) { needsWork = true; break }
            previousSpace = space
        }
        if !needsWork && !previousSpace { return String(s) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var pendingSpace = false
        for b in utf8 {
            if isSpace(b) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// At most `limit` characters, cut at a word boundary when one is near, with "…".
    public static func truncate(_ s: String, to limit: Int) -> String {
        guard s.count > limit else { return s }
        var cut = s.prefix(limit)
        // When the next character is a space, the cut already falls between words.
        if s[cut.endIndex] != " ", let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = cut[..<space]
        }
        return cut + "…"
    }

    /// nil for nil or blank strings, else the string trimmed.
    public static func nonBlank(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = WebAddress.trimmed(s)
        return t.isEmpty ? nil : String(t)
    }
}
