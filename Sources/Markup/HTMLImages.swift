import CLibXML2
import FeedModel

/// Pictures for cards: the first real image of a description, the preview image of a page.
public enum HTMLImages {
    /// The first `<img src>` of a fragment that is not a tracking pixel (`HTMLPolicy.isTrackingPixel`),
    /// resolved against `base`, absolute http(s) only; nil when there is none. Images inside
    /// elements the sanitizer drops (`noscript`, `template`, ...) do not count.
    public static func firstContentImage(_ html: String, base: String?) -> String? {
        guard html.utf8.contains(UInt8(ascii: "<")), mentionsImg(html), let document = HTMLDocument(html, fragment: true) else { return nil }
        var found: String?
        Node.walk(from: document.firstNode, enter: { node, _ in
            guard found == nil, Node.isElement(node) else { return false }
            let name = Node.name(node)
            if HTMLPolicy.droppedElements.contains(name) { return false }
            if name == "img", case let .some(.some(src)) = Node.attribute(node, "src"),
               let url = HTMLPolicy.webURL(src, base: base),
               !HTMLPolicy.isTrackingPixel(src: url, width: Node.attribute(node, "width") ?? nil,
                                           height: Node.attribute(node, "height") ?? nil) {
                found = url
            }
            return true
        }, leave: { _, _ in })
        return found
    }

    /// Whether "img" (in any case) occurs in `html`: without it there is no `img` element to find,
    /// and no need to parse.
    static func mentionsImg(_ html: String) -> Bool {
        var prev2: UInt8 = 0, prev1: UInt8 = 0
        for b in html.utf8 {
            let l = b | 0x20
            if l == UInt8(ascii: "g") && prev1 == UInt8(ascii: "m") && prev2 == UInt8(ascii: "i") { return true }
            prev2 = prev1
            prev1 = l
        }
        return false
    }

    /// The preview image an HTML page declares for itself: `<meta property="og:image">` (or
    /// `og:image:url` / `og:image:secure_url`), else `<meta name="twitter:image">` (or
    /// `twitter:image:src`), else `<link rel="image_src">`; resolved against the page's
    /// `<base href>` and `base`, absolute http(s) only; nil when there is none.
    public static func pagePreviewImage(_ html: String, base: String?) -> String? {
        guard html.utf8.contains(UInt8(ascii: "<")), let document = HTMLDocument(html, fragment: false) else { return nil }
        var openGraph: String?, twitter: String?, imageSrc: String?, pageBase: String?
        Node.walk(from: document.firstNode, enter: { node, _ in
            guard Node.isElement(node) else { return false }
            switch Node.name(node) {
            case "meta":
                let key = ((Node.attribute(node, "property") ?? nil) ?? (Node.attribute(node, "name") ?? nil) ?? "")
                    .trimmingSpaces.lowercased()
                guard let content = Node.attribute(node, "content") ?? nil, !content.trimmingSpaces.isEmpty else { break }
                if openGraph == nil && (key == "og:image" || key == "og:image:url" || key == "og:image:secure_url") {
                    openGraph = content
                } else if twitter == nil && (key == "twitter:image" || key == "twitter:image:src") {
                    twitter = content
                }
            case "link":
                let rel = (Node.attribute(node, "rel") ?? nil)?.lowercased() ?? ""
                if imageSrc == nil, rel.split(separator: " ").contains("image_src"), let href = Node.attribute(node, "href") ?? nil {
                    imageSrc = href
                }
            case "base":
                if pageBase == nil, let href = Node.attribute(node, "href") ?? nil { pageBase = href }
            case "script", "style", "template", "svg", "math":
                return false
            default:
                break
            }
            return true
        }, leave: { _, _ in })
        var effectiveBase = base
        if let pageBase, let resolved = HTMLPolicy.webURL(pageBase, base: base) { effectiveBase = resolved }
        for candidate in [openGraph, twitter, imageSrc] {
            if let candidate, let url = HTMLPolicy.webURL(candidate, base: effectiveBase) { return url }
        }
        return nil
    }
}
