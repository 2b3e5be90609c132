/// Text held either as a String or as the UTF-8 bytes a producer wrote it in.
///
/// Why: the HTML sanitizer writes every description as bytes, and most consumers of a fresh
/// card write bytes again (the JSON of `feeds parse`, SQLite, the content hash). Making a String
/// in between validates and copies every byte of every description (~11% of the card thread of
/// `feeds parse`); `UTF8Text` hands the bytes over as they are and makes a String only for a
/// consumer that asks for one.
///
/// Equality and hashing are over the UTF-8 bytes, whichever form holds them (so a text made from
/// bytes equals the same text made from a String).
public struct UTF8Text: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable {
        case string(String)
        case bytes([UInt8])
    }

    let storage: Storage

    public init(_ string: String) { storage = .string(string) }

    /// The text of `bytes`, kept as bytes when they are well-formed UTF-8 (checked here, eight
    /// ASCII bytes at a time: several times faster than making a String), else repaired as
    /// `String(decoding:as:)` does. Byte consumers can rely on well-formed UTF-8 either way.
    public init(validating bytes: [UInt8]) {
        if bytes.withUnsafeBufferPointer(UTF8Text.isWellFormed) { storage = .bytes(bytes) }
        else { storage = .string(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The text as a String (made on each call when the text is held as bytes).
    public var string: String {
        switch storage {
        case .string(let s): return s
        case .bytes(let b): return String(decoding: b, as: UTF8.self)
        }
    }

    public var description: String { string }

    /// The length in UTF-8 bytes.
    public var utf8Count: Int {
        switch storage {
        case .string(let s): return s.utf8.count
        case .bytes(let b): return b.count
        }
    }

    public var isEmpty: Bool { utf8Count == 0 }

    /// Calls `body` with the UTF-8 bytes (no copy when held as bytes or as a native String).
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .string(var s): return try s.withUTF8(body)
        case .bytes(let b): return try b.withUnsafeBufferPointer(body)
        }
    }

    public static func == (a: UTF8Text, b: UTF8Text) -> Bool {
        a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether `b` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates,
    /// nothing above U+10FFFF, no truncated sequence).
    public static func isWellFormed(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = b.baseAddress else { return true }
        let n = b.count
        var i = 0
        while i < n {
            if i + 8 <= n {
                let high = ByteScan.word(p, i) & 0x8080_8080_8080_8080
                if high == 0 { i += 8; continue }
                i += ByteScan.firstFlagged(high)
            }
            let c = p[i]
            if c < 0x80 { i += 1; continue }
            // The allowed range of the second byte, and the number of bytes, by the first.
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            let count: Int
            switch c {
            case 0xC2...0xDF: count = 2
            case 0xE0: count = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 3
            case 0xED: count = 3; high = 0x9F
            case 0xF0: count = 4; low = 0x90
            case 0xF1...0xF3: count = 4
            case 0xF4: count = 4; high = 0x8F
            default: return false
            }
            guard i + count <= n, p[i + 1] >= low, p[i + 1] <= high else { return false }
            var k = 2
            while k < count {
                guard p[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += count
        }
        return true
    }
}
