/// The image formats the cache keeps: the ones every current browser shows in an `<img>`, and
/// none that can carry script (SVG) or be mistaken for a page (HTML error pages served as
/// `image/png` by a misconfigured server).
public enum ImageType: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, gif, webp, avif

    /// The file name extension of cached copies.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// What the bytes say: the type from the magic number, the size in pixels when the header
/// gives it (so pages reserve the space and do not jump while loading).
public struct SniffedImage: Hashable, Sendable {
    public var type: ImageType
    public var width: Int?
    public var height: Int?
}

/// Reads the type from the first bytes, never from the URL or the Content-Type header (both
/// lie). Anything that is not one of `ImageType` is refused.
public enum ImageSniffer {
    public static func sniff(_ b: [UInt8]) -> SniffedImage? {
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return SniffedImage(type: .jpeg, size: jpegSize(b)) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // IHDR is the first chunk: width and height at 16 and 20.
            return SniffedImage(type: .png, size: b.count >= 24 ? (be32(b, 16), be32(b, 20)) : nil)
        }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) {
            return SniffedImage(type: .gif, size: b.count >= 10 ? (le16(b, 6), le16(b, 8)) : nil)
        }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            return SniffedImage(type: .webp, size: webpSize(b))
        }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if brand == "avif" || brand == "avis" { return SniffedImage(type: .avif, size: avifSize(b)) }
        }
        return nil
    }

    /// The first start-of-frame marker's dimensions.
    static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = be16(b, i + 2)
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame { return (be16(b, i + 7), be16(b, i + 5)) }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }

    static func webpSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ": return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X": return (le24(b, 24) + 1, le24(b, 27) + 1)
        default: return nil
        }
    }

    /// The first `ispe` (image spatial extents) property, searched in the first 4 KiB where
    /// the meta box lives in files written by today's encoders.
    static func avifSize(_ b: [UInt8]) -> (Int, Int)? {
        let ispe = Array("ispe".utf8)
        let end = min(b.count, 4096) - 16
        guard end > 0 else { return nil }
        for i in 0..<end where b[i] == ispe[0] && Array(b[i..<i + 4]) == ispe {
            // box type, version/flags (4), width (4), height (4)
            return (be32(b, i + 8), be32(b, i + 12))
        }
        return nil
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
}

extension SniffedImage {
    /// Sizes outside 1...65535 (a corrupt header) are dropped rather than written into a page.
    init(type: ImageType, size: (Int, Int)?) {
        self.type = type
        if let (w, h) = size, (1...65_535).contains(w), (1...65_535).contains(h) {
            width = w
            height = h
        }
    }
}
