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
        var found = false
        eachTagName(description) { name in
            if structural.contains(name) { found = true }
            return !found
        }
        return found
    }

    static let structural: Set<String> = ["img", "pre", "ul", "ol", "table", "blockquote", "figure", "video", "audio", "h2", "h3"]
    static let watched: Set<String> = ["img", "video", "audio", "source", "/video", "/audio", "/source"]

    /// Calls `body` with the name of every tag (`/name` for an end tag) until it returns false.
    static func eachTagName(_ html: String, _ body: (String) -> Bool) {
        var html = html
        html.withUTF8 { b in
            var i = 0
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
                var j = i + 1
                if j < b.count && b[j] == UInt8(ascii: "/") { j += 1 }
                let start = j
                while j < b.count, isNameByte(b[j]) { j += 1 }
                if j > start, !body(String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<j]), as: UTF8.self)) { return }
                i = j
            }
        }
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A)
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

    /// Calls `replace` with every tag of `html` that matters here (`watched`: name lower-case,
    /// `/name` for an end tag) and its attributes; a non-nil answer replaces the tag. Returns
    /// the text with replacements. Bytewise: posts are most of the text of a large site.
    @discardableResult
    static func scan(_ html: String, _ replace: (Substring, [Attribute]) -> String?) -> String {
        var html = html
        // Where each watched tag starts and ends (bytes), found in one pass.
        var tags: [(start: Int, nameEnd: Int, end: Int)] = []
        var unterminated: Int?
        html.withUTF8 { b in
            var i = 0
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
                var j = i + 1
                if j < b.count && b[j] == UInt8(ascii: "/") { j += 1 }
                let start = j
                while j < b.count, isNameByte(b[j]) { j += 1 }
                let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<j]), as: UTF8.self)
                guard j > start, watched.contains(name) else { i = max(j, i + 1); continue }
                var k = j
                while k < b.count, b[k] != UInt8(ascii: ">") { k += 1 }
                guard k < b.count else { unterminated = i; return }
                tags.append((i, j, k))
                i = k + 1
            }
        }
        guard !tags.isEmpty || unterminated != nil else { return html }
        let u = html.utf8
        func index(_ n: Int) -> String.Index { u.index(u.startIndex, offsetBy: n) }
        var out = ""
        out.reserveCapacity(u.count)
        var copied = 0
        for tag in tags {
            out += html[index(copied)..<index(tag.start)]
            let name = html[index(tag.start + 1)..<index(tag.nameEnd)]
            if let replacement = replace(name, attributes(html[index(tag.nameEnd)..<index(tag.end)])) {
                out += replacement
            } else {
                out += html[index(tag.start)...index(tag.end)]
            }
            copied = tag.end + 1
        }
        if let unterminated {
            out += html[index(copied)..<index(unterminated)]
            // A tag left open at the end (not the sanitizer's output): text, not markup.
            out += html[index(unterminated)...].replacingOccurrences(of: "<", with: "&lt;")
        } else {
            out += html[index(copied)...]
        }
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
            // A stray `=` (an unquoted value, `<img src=x>`: not the sanitizer's output, but a
            // stored description may be anything) starts no name: skipped, so the walk moves on
            // (it read an empty name there forever, appending until memory ran out).
            guard nameEnd > rest.startIndex else { rest = rest.dropFirst(); continue }
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
