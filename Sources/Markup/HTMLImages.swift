import CLibXML2
import FeedModel

/// Pictures for cards: the first real image of a description, the preview image of a page.
public enum HTMLImages {
    /// The first `<img src>` of a fragment that is not a tracking pixel (`HTMLPolicy.isTrackingPixel`),
    /// resolved against `base`, absolute http(s) only; nil when there is none. Images inside
    /// elements the sanitizer drops (`noscript`, `template`, ...) do not count.
    /// `firstContentImage` for HTML that `HTMLSanitizer` wrote. Its markup is regular (lower-case
    /// names, double-quoted values with `&`, `<`, `>`, `"` escaped, tracking pixels and unsafe
    /// URLs already gone, relative URLs already resolved), so a byte scan finds what a second
    /// parse would, at a fraction of the cost. Only for the sanitizer's own output.
    public static func firstImageInSanitized(_ html: String) -> String? {
        firstImageInSanitized(UTF8Text(html))
    }

    /// `firstImageInSanitized` of the sanitizer's output as it holds it.
    public static func firstImageInSanitized(_ html: UTF8Text) -> String? {
        html.withUTF8 { b -> String? in
            let n = b.count
            guard let p = b.baseAddress else { return nil }
            var i = 0
            let lessThanSigns = SIMD16<UInt8>(repeating: 0x3C)   // made once: not folded in the loop
            while i + 4 < n {
                // Most of a description is text: sixteen, then eight bytes without a `<` at a time.
                if i + 16 <= n {
                    let hit = ByteScan.vector(p, i) .== lessThanSigns
                    if !any(hit) { i += 16; continue }
                    i += ByteScan.firstTrue(hit)
                    if i + 4 >= n { break }
                } else if i + 8 <= n {
                    let m = ByteScan.equalMask(ByteScan.word(p, i), 0x3C)
                    if m == 0 { i += 8; continue }
                    i += ByteScan.firstFlagged(m)
                    if i + 4 >= n { break }
                }
                guard b[i] == 0x3C, b[i + 1] == 0x69, b[i + 2] == 0x6D, b[i + 3] == 0x67, b[i + 4] == 0x20 else { i += 1; continue }
                var j = i + 4   // at the space, so the first attribute matches " src=\""
                while j < n, b[j] != 0x3E {
                    // ` src="`
                    if j + 5 < n, b[j] == 0x20, b[j + 1] == 0x73, b[j + 2] == 0x72, b[j + 3] == 0x63, b[j + 4] == 0x3D, b[j + 5] == 0x22 {
                        let start = j + 6
                        var end = start
                        while end < n, b[end] != 0x22 { end += 1 }
                        let valueBytes = UnsafeBufferPointer(rebasing: b[start..<end])
                        let raw = String(decoding: valueBytes, as: UTF8.self)
                        // On the bytes: `String.contains` walks Characters.
                        let value = valueBytes.contains(UInt8(ascii: "&")) ? HTMLEntities.decode(raw) : raw
                        // Already made safe by the sanitizer: only the http(s) test is left.
                        if value.hasPrefix("http"), WebAddress(parsing: value).isWebURL { return value }
                        break
                    }
                    if b[j] == 0x22 { j += 1; while j < n, b[j] != 0x22 { j += 1 } }   // skip other values
                    j += 1
                }
                i = j
            }
            return nil
        }
    }

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
        var openGraph: String?, twitter: String?, imageSrc: String?
        let effectiveBase = HTMLPageWalk.elements(of: document, base: base) { node, name in
            switch name {
            case "meta":
                let key = ((Node.attribute(node, "property") ?? nil) ?? (Node.attribute(node, "name") ?? nil) ?? "")
                    .trimmingSpaces.lowercased()
                guard let content = Node.attribute(node, "content") ?? nil, !content.trimmingSpaces.isEmpty else { return }
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
            default:
                break
            }
        }
        for candidate in [openGraph, twitter, imageSrc] {
            if let candidate, let url = HTMLPolicy.webURL(candidate, base: effectiveBase) { return url }
        }
        return nil
    }
}
