/// The feeds a web page announces in its head: `<link rel="alternate" type="application/rss+xml"
/// href=…>` (and Atom, JSON Feed), the way browsers and feed readers find a site's feed.
public enum HTMLFeedLinks {
    public struct Link: Sendable, Hashable {
        /// The absolute http(s) URL (resolved against `<base href>`, else the page's URL).
        public var url: String
        /// The `type` attribute, lower-cased, parameters dropped.
        public var type: String
        /// The `title` attribute, if any (text from outside: for a terminal through the neutraliser).
        public var title: String?
    }

    /// Types that name a feed.
    public static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/feed+json",
                                                "application/json+feed", "application/rdf+xml"]
    /// Links kept at most: a page is hostile, and no site announces more than a handful.
    public static let maxLinks = 32

    /// The announced feeds of `html`, in page order, each URL once.
    public static func alternates(_ html: String, base: String?) -> [Link] {
        guard html.utf8.contains(UInt8(ascii: "<")), let document = HTMLDocument(html, fragment: false) else { return [] }
        var found: [(href: String, type: String, title: String?)] = []
        let effectiveBase = HTMLPageWalk.elements(of: document, base: base) { node, name in
            guard name == "link" else { return }
            let rel = ((Node.attribute(node, "rel") ?? nil) ?? "").lowercased()
            guard rel.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("alternate"),
                  let href = Node.attribute(node, "href") ?? nil, !href.trimmingSpaces.isEmpty else { return }
            let type = ((Node.attribute(node, "type") ?? nil) ?? "").split(separator: ";").first.map {
                String($0).trimmingSpaces.lowercased() } ?? ""
            guard feedTypes.contains(type), found.count < maxLinks * 4 else { return }
            let title = (Node.attribute(node, "title") ?? nil).map { String($0.trimmingSpaces) }
            found.append((href, type, title?.isEmpty == false ? title : nil))
        }
        var seen = Set<String>()
        var links: [Link] = []
        for f in found where links.count < maxLinks {
            guard let url = HTMLPolicy.webURL(f.href, base: effectiveBase), seen.insert(url).inserted else { continue }
            links.append(Link(url: url, type: f.type, title: f.title))
        }
        return links
    }
}
