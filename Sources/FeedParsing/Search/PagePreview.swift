import FeedModel
import Markup

/// The picture a web page declares for itself (`og:image`, `twitter:image`,
/// `link rel=image_src`), from the first bytes of the page: search results without an image of
/// their own get this one when the source asks for previews (`preview=yes`).
public enum PagePreview {
    /// How much of a page is read: the head, where those tags live, is well within it.
    public static let headBytes = 256 << 10

    /// The preview image of a page given its first bytes (possibly cut mid-tag: libxml2's HTML
    /// parser recovers), decoded by `charset` (the HTTP one) else UTF-8 with windows-1252
    /// repair; resolved against `base` (the page's URL). Absolute http(s) only, else nil.
    public static func image(inPageHead bytes: [UInt8], base: String?, charset: String?) -> String? {
        let head = bytes.prefix(headBytes)
        let encoding = charset.flatMap(EncodingSniffer.resolve) ?? .utf8
        var decoded: [UInt8] = []
        Array(head).withUnsafeBufferPointer { Transcoder(encoding: encoding).decode($0, final: true, into: &decoded) }
        let html = String(decoding: decoded, as: UTF8.self)
        return HTMLImages.pagePreviewImage(html, base: base)
    }
}
