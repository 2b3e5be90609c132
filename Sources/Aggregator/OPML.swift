import Foundation
import Markup

/// OPML 2.0 subscription lists: import (`feeds import`) and export (`feeds export`).
///
/// Reading is a small scanner for `<outline>` elements, not a general XML parser: it never
/// expands entities beyond the five predefined ones and numeric references, and refuses any
/// document with a DOCTYPE (the door to XXE and billion-laughs attacks).
/// Nested outlines without `xmlUrl` are folders; their titles become tags of the feeds inside.
public enum OPML {
    public static func parse(_ text: String) throws -> [SourceEntry] {
        if text.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil || text.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            throw AggregatorError.opml("the file has a DOCTYPE or entity declarations, which feeds refuses (they can read local files); remove them")
        }
        guard text.range(of: "<opml", options: .caseInsensitive) != nil else {
            throw AggregatorError.opml("not an OPML file (no <opml> element)")
        }
        var entries: [SourceEntry] = []
        var seen = Set<String>()
        var folders: [String?] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { break }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { throw AggregatorError.opml("unterminated tag") }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") {
                if tag.dropFirst().trimmingCharacters(in: .whitespaces) == "outline", !folders.isEmpty { folders.removeLast() }
                continue
            }
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            guard name == "outline" else { continue }
            let selfClosing = tag.hasSuffix("/")
            let attributes = try parseAttributes(tag.dropFirst(name.count))
            if let url = attributes["xmlUrl"] ?? attributes["xmlurl"], !url.isEmpty {
                if seen.insert(url).inserted {
                    var entry = SourceEntry(url: url)
                    let title = attributes["title"] ?? attributes["text"]
                    entry.name = title.flatMap { $0.isEmpty ? nil : $0 }
                    var tags = folders.compactMap { $0 }
                    for c in (attributes["category"] ?? "").split(separator: ",") {
                        let t = c.split(separator: "/").last.map(String.init) ?? ""
                        if !t.isEmpty { tags.append(t) }
                    }
                    entry.tags = tags.compactMap(SourcesFile.tagWord).uniqued()
                    entries.append(entry)
                }
                if !selfClosing { folders.append(nil) }
            } else if !selfClosing {
                folders.append(attributes["text"] ?? attributes["title"])
            }
        }
        return entries
    }

    static func parseAttributes(_ s: Substring) throws -> [String: String] {
        var out: [String: String] = [:]
        var rest = s
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            guard let eq = rest.firstIndex(of: "=") else { return out }
            let key = rest[..<eq].trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: eq)...].drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                throw AggregatorError.opml("attribute \(key) has an unquoted value")
            }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { throw AggregatorError.opml("attribute \(key) is not closed") }
            out[key] = decodeEntities(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
    }

    static func decodeEntities(_ s: Substring) -> String {
        guard s.contains("&") else { return String(s) }
        var out = ""
        var rest = s
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += "&"; rest = rest.dropFirst(); continue
            }
            let name = rest[rest.index(after: amp)..<semi]
            var replacement: String?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                    replacement = String(Character(u))
                } else if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let u = Unicode.Scalar(v) {
                    replacement = String(Character(u))
                }
            }
            if let replacement {
                out += replacement
                rest = rest[rest.index(after: semi)...]
            } else {
                out += "&"; rest = rest.dropFirst()
            }
        }
        return out + rest
    }

    /// One outline per source, with its title, feed URL, site URL and tags as `category`; an
    /// empty `url` writes no `xmlUrl` (a local file on the published site: its name only).
    public struct ExportItem: Sendable {
        public var url: String
        public var title: String
        public var siteURL: String?
        public var tags: [String]
        public init(url: String, title: String, siteURL: String? = nil, tags: [String] = []) {
            self.url = url
            self.title = title
            self.siteURL = siteURL
            self.tags = tags
        }
    }

    public static func export(_ items: [ExportItem], title: String = "feeds subscriptions") -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>\(escape(title))</title>\n  </head>\n  <body>\n"
        for item in items {
            s += "    <outline" + (item.url.isEmpty ? "" : " type=\"rss\"") + " text=\"\(escape(item.title))\" title=\"\(escape(item.title))\""
            if !item.url.isEmpty { s += " xmlUrl=\"\(escape(item.url))\"" }
            if let site = item.siteURL { s += " htmlUrl=\"\(escape(site))\"" }
            if !item.tags.isEmpty { s += " category=\"\(escape(item.tags.joined(separator: ",")))\"" }
            s += "/>\n"
        }
        return s + "  </body>\n</opml>\n"
    }

    /// An attribute value: the one XML text escaping (`HTMLEscaping`, which drops what XML 1.0
    /// forbids), with line feeds as `&#10;` so that they survive attribute-value normalization.
    static func escape(_ s: String) -> String {
        let escaped = HTMLEscaping.attribute(s)
        return escaped.contains("\n") ? escaped.replacingOccurrences(of: "\n", with: "&#10;") : escaped
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
