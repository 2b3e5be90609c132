import FeedModel
import Markup

/// The character encodings the input layer decodes itself; anything else goes through iconv.
enum TextEncoding: Equatable, CustomStringConvertible {
    case utf8
    case utf16(bigEndian: Bool)
    case utf32(bigEndian: Bool)
    /// ISO-8859-1, US-ASCII and windows-1252 are read as windows-1252, as browsers and
    /// feedparser do: the C1 range of Latin-1 is never meant as control characters in feeds.
    case windows1252
    case iconv(String)

    var description: String {
        switch self {
        case .utf8: return "UTF-8"
        case .utf16(let be): return be ? "UTF-16BE" : "UTF-16LE"
        case .utf32(let be): return be ? "UTF-32BE" : "UTF-32LE"
        case .windows1252: return "windows-1252"
        case .iconv(let name): return name
        }
    }

    /// The encoding a charset label names, or nil when the label is unknown to us (the caller
    /// then asks iconv). Labels are matched case-insensitively, ignoring `-` and `_`.
    static func named(_ label: String) -> TextEncoding? {
        let key = String(label.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch key {
        case "utf8", "unicode11utf8", "unicode20utf8", "xunicode20utf8": return .utf8
        case "iso88591", "latin1", "l1", "usascii", "ascii", "windows1252", "cp1252", "xcp1252",
             "iso885915", "cp819", "ibm819", "ansix3.41968", "iso885911987":
            return .windows1252
        case "utf16be", "unicodefffe": return .utf16(bigEndian: true)
        case "utf16le": return .utf16(bigEndian: false)
        case "utf16", "ucs2", "unicode", "iso10646ucs2": return .utf16(bigEndian: true)
        case "utf32be": return .utf32(bigEndian: true)
        case "utf32le": return .utf32(bigEndian: false)
        case "utf32", "ucs4", "iso10646ucs4": return .utf32(bigEndian: true)
        default: return nil
        }
    }
}

/// The UTF-8 form of `scalar` (which the caller has checked is a valid scalar value): its bytes
/// packed first byte lowest, and how many there are.
@inline(__always)
func utf8Encoded(_ scalar: UInt32) -> (bytes: UInt32, count: Int) {
    switch scalar {
    case 0..<0x80:
        return (scalar, 1)
    case 0x80..<0x800:
        return ((0xC0 | scalar >> 6) | (0x80 | scalar & 0x3F) << 8, 2)
    case 0x800..<0x10000:
        return ((0xE0 | scalar >> 12) | (0x80 | scalar >> 6 & 0x3F) << 8 | (0x80 | scalar & 0x3F) << 16, 3)
    default:
        return ((0xF0 | scalar >> 18) | (0x80 | scalar >> 12 & 0x3F) << 8 | (0x80 | scalar >> 6 & 0x3F) << 16
                | (0x80 | scalar & 0x3F) << 24, 4)
    }
}

/// Appends the UTF-8 form of `scalar` (see `utf8Encoded`).
@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    let (bytes, count) = utf8Encoded(scalar)
    for k in 0..<count { out.append(UInt8(truncatingIfNeeded: bytes >> (8 * k))) }
}

/// `appendUTF8` into a `ByteSink`.
@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout ByteSink) {
    let (bytes, count) = utf8Encoded(scalar)
    for k in 0..<count { out.append(UInt8(truncatingIfNeeded: bytes >> (8 * k))) }
}

/// A windows-1252 byte as a scalar (the table is Markup's; undefined positions become U+FFFD).
@inline(__always)
func windows1252Scalar(_ byte: UInt8) -> UInt32 {
    if byte < 0x80 || byte >= 0xA0 { return UInt32(byte) }
    return HTMLEntities.windows1252(UInt32(byte)) ?? 0xFFFD
}
