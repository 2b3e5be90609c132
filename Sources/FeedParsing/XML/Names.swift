/// Namespaces are matched by URI, never by prefix: `<foo:title xmlns:foo="http://purl.org/dc/elements/1.1/">`
/// is Dublin Core whatever the prefix says.
enum Namespace: UInt8 {
    case none, atom10, atom03, rdf, rss10, rss090, dc, dcterms, content, media, itunes, xhtml, sy,
         opensearch, xml, unknown

    static func from(uri: String) -> Namespace {
        var u = uri.lowercased()
        if u.hasSuffix("/") || u.hasSuffix("#") { u.removeLast() }
        switch u {
        case "http://www.w3.org/2005/atom": return .atom10
        case "http://purl.org/atom/ns", "http://example.com/newformat", "http://purl.org/echo",
             "http://purl.org/pie", "http://example.com/necho":
            return .atom03   // Atom 0.3 and its pre-release names
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns": return .rdf
        case "http://purl.org/rss/1.0": return .rss10
        case "http://my.netscape.com/rdf/simple/0.9": return .rss090
        case "http://purl.org/dc/elements/1.1", "http://purl.org/dc/elements/1.0": return .dc
        case "http://purl.org/dc/terms": return .dcterms
        case "http://purl.org/rss/1.0/modules/content": return .content
        case "http://search.yahoo.com/mrss", "http://tools.search.yahoo.com/mrss": return .media
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "http://example.com/dtds/podcast-1.0.dtd": return .itunes
        case "http://www.w3.org/1999/xhtml": return .xhtml
        case "http://purl.org/rss/1.0/modules/syndication": return .sy
        case "http://a9.com/-/spec/opensearch/1.1", "http://a9.com/-/spec/opensearchrss/1.0": return .opensearch
        case "http://www.w3.org/xml/1998/namespace": return .xml
        // RSS 2.0 with a default namespace on <rss>: its elements are plain RSS.
        case "http://backend.userland.com/rss2", "http://blogs.law.harvard.edu/tech/rss",
             "http://backend.userland.com/rss", "http://purl.org/net/rss2", "http://purl.org/rss/2.0":
            return .none
        default: return .unknown
        }
    }

    /// RSS-family namespaces whose elements mean the same as un-namespaced RSS elements.
    var isRSS: Bool { self == .none || self == .rss10 || self == .rss090 }
    var isAtom: Bool { self == .atom10 || self == .atom03 }
}

/// The local names the parser acts on; everything else is `.other`.
enum Tag: UInt8 {
    case other
    case rss, channel, item, feed, entry, RDF
    case title, link, description, summary, content, encoded, subtitle, tagline, info
    case id, guid, about
    case pubDate, published, issued, created, updated, modified, date
    case author, creator, contributor, name, email, uri
    case url, enclosure, image, logo, icon, thumbnail, group, body
    case ttl, updatePeriod, updateFrequency, textinput, source
    case html, head, opml, fullitem

    static let byName: [String: Tag] = {
        var m: [String: Tag] = [:]
        let all: [Tag] = [.rss, .channel, .item, .feed, .entry, .RDF, .title, .link, .description, .summary,
                          .content, .encoded, .subtitle, .tagline, .info, .id, .guid, .about, .pubDate,
                          .published, .issued, .created, .updated, .modified, .date, .author, .creator,
                          .contributor, .name, .email, .uri, .url, .enclosure, .image, .logo, .icon,
                          .thumbnail, .group, .body, .ttl, .updatePeriod, .updateFrequency, .textinput,
                          .source, .html, .head, .opml, .fullitem]
        for t in all { m["\(t)".lowercased()] = t }
        return m
    }()

    /// Case-insensitive, as iTunes reads feeds (`<Title>` is a title).
    static func from(localName: String) -> Tag { byName[localName.lowercased()] ?? .other }
}
