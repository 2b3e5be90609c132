/// HTML named and numeric character references.
///
/// The named table is the full HTML5 list (`HTMLEntityTable`, generated); it is decoded into a
/// dictionary on first use (a `static let`, so initialisation is lazy and thread-safe).
public enum HTMLEntities {
    private struct Table: Sendable {
        var characters: [String: String] = [:]
        var legacy: Set<String> = []
        var longestLegacy = 0
    }

    private static let table: Table = {
        var t = Table()
        t.characters.reserveCapacity(2200)
        t.legacy.reserveCapacity(128)
        // Read as bytes: the Substring splitting and radix parsing this replaces cost more than
        // sanitizing a whole small feed.
        var packed = HTMLEntityTable.packed
        packed.withUTF8 { b in
            let n = b.count
            var i = 0
            while i < n {
                var lineEnd = i
                while lineEnd < n && b[lineEnd] != 0x0A { lineEnd += 1 }
                defer { i = lineEnd + 1 }
                var nameStart = i
                let isLegacy = nameStart < lineEnd && b[nameStart] == UInt8(ascii: "*")
                if isLegacy { nameStart += 1 }
                var j = nameStart
                while j < lineEnd && b[j] != 0x20 { j += 1 }
                guard j < lineEnd, j > nameStart else { continue }
                let name = String(decoding: UnsafeBufferPointer(rebasing: b[nameStart..<j]), as: UTF8.self)
                let nameLength = j - nameStart
                var value = ""
                var v: UInt32 = 0
                var digits = 0
                var bad = false
                j += 1
                while j <= lineEnd {
                    let c: UInt8 = j < lineEnd ? b[j] : 0x20
                    j += 1
                    if c == 0x20 {
                        if digits > 0, !bad, let scalar = Unicode.Scalar(v) { value.unicodeScalars.append(scalar) }
                        v = 0; digits = 0; bad = false
                        continue
                    }
                    let d: UInt32
                    switch c {
                    case 0x30...0x39: d = UInt32(c - 0x30)
                    case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                    case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                    default: d = 0; bad = true
                    }
                    v = v << 4 | d
                    digits += 1
                }
                t.characters[name] = value
                if isLegacy {
                    t.legacy.insert(name)
                    t.longestLegacy = max(t.longestLegacy, nameLength)
                }
            }
        }
        return t
    }()

    /// The number of names in the table (2125: every HTML5 name, without its `;`).
    public static var count: Int { table.characters.count }

    /// The characters an HTML named entity stands for (`eacute` -> "é"), or nil. The name is
    /// case-sensitive; a trailing `;` is accepted and ignored (`"eacute;"` works too).
    public static func characters(named name: String) -> String? {
        if let v = table.characters[name] { return v }
        if name.hasSuffix(";") { return table.characters[String(name.dropLast())] }
        return nil
    }

    /// True for the 106 legacy names HTML also recognises without a `;` (`amp`, `eacute`, `nbsp`).
    public static func isLegacy(_ name: String) -> Bool { table.legacy.contains(name) }

    /// The character a numeric reference stands for, as HTML5 maps it: 0, surrogates and values
    /// beyond U+10FFFF become U+FFFD; 0x80-0x9F are read as windows-1252.
    public static func character(forCodePoint value: UInt32) -> Character {
        if value >= 0x80 && value <= 0x9F, let mapped = windows1252[Int(value - 0x80)] {
            return Character(Unicode.Scalar(mapped)!)
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return Character(scalar)
    }

    /// The character windows-1252 puts at 0x80...0x9F (where Latin-1 has C1 controls), or nil
    /// for the five positions it leaves undefined and for values outside that range. Feeds and
    /// HTML alike mean these characters when they write those bytes or `&#146;`.
    public static func windows1252(_ value: UInt32) -> UInt32? {
        guard value >= 0x80 && value <= 0x9F else { return nil }
        return windows1252[Int(value - 0x80)]
    }

    private static let windows1252: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]

    /// `text` with every character reference decoded: `&name;`, legacy names without `;`
    /// (`&copy 2024`), `&#233;` and `&#xE9;`. Unknown references stay as they are.
    /// Linear in the length of `text`.
    public static func decode(_ text: String) -> String {
        var text = text
        // Runs between references are copied whole (this runs over every description indexed
        // for search and every feed text with an entity in it).
        let decoded: String? = text.withUTF8 { bytes in
            guard var i = bytes.firstIndex(of: UInt8(ascii: "&")) else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<i]))
            let n = bytes.count
            while i < n {
                if bytes[i] == UInt8(ascii: "&"), i + 1 < n, let (characters, next) = reference(in: bytes, at: i) {
                    out.append(contentsOf: characters.utf8)
                    i = next
                    continue
                }
                // Up to the next "&", in one piece.
                var end = i + 1
                while end < n && bytes[end] != UInt8(ascii: "&") { end += 1 }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
            }
            return String(decoding: out, as: UTF8.self)
        }
        return decoded ?? text
    }

    /// Decodes the reference starting at `bytes[start] == "&"`: the characters and the index
    /// after the reference, or nil when there is none.
    static func reference(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (String, Int)? {
        let n = bytes.count
        var i = start + 1
        if i < n && bytes[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < n && (bytes[i] | 0x20) == UInt8(ascii: "x") { hex = true; i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < n {
                let c = bytes[i]
                let d: UInt32
                if c >= 48 && c <= 57 { d = UInt32(c - 48) }
                else if hex && (c | 0x20) >= 97 && (c | 0x20) <= 102 { d = UInt32((c | 0x20) - 87) }
                else { break }
                if value <= 0x10FFFF { value = value * (hex ? 16 : 10) + d }
                digits += 1; i += 1
            }
            guard digits > 0 else { return nil }
            if i < n && bytes[i] == UInt8(ascii: ";") { i += 1 }
            return (String(character(forCodePoint: value)), i)
        }
        let nameStart = i
        while i < n && i - nameStart < 40, isAlnum(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        if i < n && bytes[i] == UInt8(ascii: ";") {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
            if let v = table.characters[name] { return (v, i + 1) }
        }
        // Legacy names need no `;`: the longest one that starts the run wins (`&notit` -> "¬it").
        var end = min(i, nameStart + table.longestLegacy)
        while end > nameStart + 1 {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<end]), as: UTF8.self)
            if table.legacy.contains(name), let v = table.characters[name] { return (v, end) }
            end -= 1
        }
        return nil
    }

    @inline(__always) static func isAlnum(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122)
    }
}
