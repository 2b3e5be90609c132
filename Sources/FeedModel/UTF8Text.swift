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
            i = ByteScan.firstNonASCII(p, from: i, to: n)
            if i >= n { break }
            guard let (_, length) = scalar(in: b, at: i) else { return false }
            i += length
        }
        return true
    }

    /// The scalar of the well-formed, complete UTF-8 sequence of two to four bytes at `b[i]`, and
    /// its length; nil for an ASCII byte, an ill-formed sequence or one cut by the end of `b`.
    @inlinable @inline(__always)
    public static func scalar(in b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let c = b[i]
        let length: Int
        let minimum: UInt32
        switch c {
        case 0xC2...0xDF: length = 2; minimum = 0x80
        case 0xE0...0xEF: length = 3; minimum = 0x800
        case 0xF0...0xF4: length = 4; minimum = 0x10000
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        var value = UInt32(c) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length {
            let next = b[i + k]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }
}
