import FeedModel
import Foundation
import Markup

/// A card's whole post as the site shows it: its sanitized description (the store holds it
/// sanitized, see `Card`), with what the page's security policy would block turned into what a
/// reader can use. The policy allows only the site's own images, so an `<img>` whose picture
/// is in the image cache points at the copy in `images/`, and one that is not becomes a link
/// to the picture (never a broken image); `<video>` and `<audio>` become links to their files
/// (their fallback text stays), `<source>` goes.
///
/// Works on the sanitizer's own output only: its markup is regular (lower-case names, values
/// in double quotes with `&`, `<`, `>`, `"` escaped, so the first `>` ends a tag), so a byte
/// scan finds every tag a parse would.
enum PostHTML {
    /// A post longer than this (sanitized HTML) is not copied into the site: its card links to
    /// the original instead (an archive page holds up to `cardsPerArchivePage` posts).
    static let maxPostBytes = 48 << 10
    /// Pictures inside one post that are downloaded into the cache, at most.
    static let maxImagesPerPost = 8

    /// Whether the card has more to read than its excerpt: text beyond the excerpt, or
    /// pictures, lists, code, tables, quotes.
    static func hasMore(_ description: String, excerpt: String) -> Bool {
        if excerpt.hasSuffix("…") { return true }
        for tag in ["<img ", "<pre", "<ul", "<ol", "<table", "<blockquote", "<figure", "<video", "<audio", "<h2", "<h3"]
        where description.contains(tag) { return true }
        return false
    }

    /// The `src` of the first `maxImagesPerPost` pictures of a post (decoded), http(s) only.
    static func imageURLs(_ description: String) -> [String] {
        var out: [String] = []
        scan(description) { tag, attributes in
            guard tag == "img", out.count < maxImagesPerPost, let src = attributes.first(where: { $0.name == "src" })?.value else { return nil }
            let url = HTMLEntities.decode(String(src))
            if isWeb(url), !out.contains(url) { out.append(url) }
            return nil
        }
        return out
    }

    /// The post with pictures from `images` (by URL: `root + "images/" + file`) and every
    /// other picture or media file as a link. `shown` gets the URLs of the pictures used.
    static func render(_ description: String, root: String, images: [String: DigestImage], shown: (String) -> Void) -> String {
        scan(description) { tag, attributes in
            func value(_ name: String) -> String? { attributes.first(where: { $0.name == name })?.value.map { String($0) } }
            switch tag {
            case "img":
                let raw = value("src") ?? ""
                let url = HTMLEntities.decode(raw)
                let alt: String? = value("alt").flatMap { TextRules.nonBlank(HTMLEntities.decode($0)) }
                if let image = images[url] {
                    shown(url)
                    var out = "<img src=\"" + HTMLEscaping.attribute(root + "images/" + image.fileName) + "\""
                    if let w = image.width, let h = image.height { out += " width=\"\(w)\" height=\"\(h)\"" }
                    return out + " alt=\"" + HTMLEscaping.attribute(alt ?? "") + "\" loading=\"lazy\" decoding=\"async\">"
                }
                guard isWeb(url) else { return "" }
                return "<a class=\"media-link\" href=\"" + HTMLEscaping.attribute(url) + "\">Picture"
                    + (alt.map { ": " + HTMLEscaping.text($0) } ?? "") + "</a>"
            case "video", "audio":
                let url = value("src").map(HTMLEntities.decode)
                guard let url, isWeb(url) else { return "" }
                return "<a class=\"media-link\" href=\"" + HTMLEscaping.attribute(url) + "\">" + (tag == "video" ? "Video" : "Audio") + "</a> "
            case "/video", "/audio", "source", "/source":
                return ""
            default:
                return nil
            }
        }
    }

    static func isWeb(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    struct Attribute {
        let name: Substring
        let value: Substring?
    }

    /// Calls `replace` with every tag of `html` (name lower-case, `/name` for an end tag) and
    /// its attributes; a non-nil answer replaces the tag. Returns the text with replacements.
    @discardableResult
    static func scan(_ html: String, _ replace: (Substring, [Attribute]) -> String?) -> String {
        // Most posts have no picture or media: nothing to scan.
        guard html.contains("<img") || html.contains("<video") || html.contains("<audio") || html.contains("<source") else { return html }
        var out = ""
        out.reserveCapacity(html.utf8.count)
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                // A tag left open at the end (not the sanitizer's output): text, not markup.
                out += rest[open...].replacingOccurrences(of: "<", with: "&lt;")
                return out
            }
            let inside = rest[rest.index(after: open)..<close]
            var nameEnd = inside.startIndex
            if inside.first == "/" { nameEnd = inside.index(after: nameEnd) }
            nameEnd = inside[nameEnd...].firstIndex(where: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) ?? inside.endIndex
            let name = inside[..<nameEnd]
            let watched = ["img", "video", "audio", "source", "/video", "/audio", "/source"].contains(name)
            if watched, let replacement = replace(name, attributes(inside[nameEnd...])) {
                out += replacement
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    /// `name="value"` and bare `name` pairs, as the sanitizer writes them.
    static func attributes(_ text: Substring) -> [Attribute] {
        var out: [Attribute] = []
        var rest = text
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "/" })
            guard !rest.isEmpty else { return out }
            let nameEnd = rest.firstIndex(where: { $0 == "=" || $0 == " " }) ?? rest.endIndex
            let name = rest[..<nameEnd]
            rest = rest[nameEnd...]
            if rest.hasPrefix("=\"") {
                let start = rest.index(rest.startIndex, offsetBy: 2)
                let end = rest[start...].firstIndex(of: "\"") ?? rest.endIndex
                out.append(Attribute(name: name, value: rest[start..<end]))
                rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
            } else {
                out.append(Attribute(name: name, value: nil))
            }
        }
    }
}
