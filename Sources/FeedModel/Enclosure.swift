/// A file attached to a card (podcast audio, video, image): RSS `<enclosure>`, Atom
/// `link rel="enclosure"`, media RSS `media:content`, JSON Feed `attachments`.
public struct Enclosure: Hashable, Sendable, Codable {
    /// Absolute http(s) URL.
    public var url: String
    /// MIME type as the feed states it, lower-cased; nil when absent.
    public var type: String?
    /// Length in bytes as the feed states it; nil when absent, zero, not a number or outside
    /// `lengthRange`.
    public var length: Int64?

    /// The sizes an enclosure may claim: 1 byte to 1 PiB. Beyond that a length is a mistake or
    /// an attack (2^63-1), and sums and formats of it would be nonsense.
    public static let lengthRange: ClosedRange<Int64> = 1...(1 << 50)

    public init(url: String, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length.flatMap { Enclosure.lengthRange.contains($0) ? $0 : nil }
    }

    /// True when the type says image, or (no type) the URL path ends in an image extension.
    public var isImage: Bool {
        if let type { return type.hasPrefix("image/") }
        return WebAddress.looksLikeImageURL(url)
    }
}
