import CLibXML2
import FeedModel

/// OpenSearch 1.1 (https://github.com/dewitt/opensearch): a description document names URL
/// templates such as `https://example.org/search?q={searchTerms}&n={count?}&format=rss`; the
/// results are RSS or Atom with `opensearch:` elements (`totalResults`, `startIndex`,
/// `itemsPerPage`, `Query`). Results go through the feed parser; this reads the rest.
public enum OpenSearch {
    /// The namespaces of OpenSearch 1.1 and of the older OpenSearch RSS 1.0.
    static let namespaces: Set<String> = ["http://a9.com/-/spec/opensearch/1.1/", "http://a9.com/-/spec/opensearchrss/1.0/"]

    /// Expands a URL template: `{searchTerms}` becomes the percent-encoded query, `{count?}`
    /// `count`, `{startPage?}` 1, `{startIndex?}` 1 (or the document's `indexOffset`/`pageOffset`
    /// when given), `{language?}` `*`, `{inputEncoding?}`/`{outputEncoding?}` UTF-8; any other
    /// optional parameter is left empty; a required one other than these is left empty too (the
    /// engine then says what it wants).
    public static func expand(_ template: String, query: String, count: Int? = nil,
                              startIndex: Int = 1, startPage: Int = 1) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { out += rest[open...]; return out }
            var name = rest[rest.index(after: open)..<close]
            if name.hasSuffix("?") { name = name.dropLast() }
            // Namespaced parameters (`{time:start?}`): unknown, left empty.
            switch name {
            case "searchTerms": out += percentEncodeQuery(query)
            case "count": out += count.map(String.init) ?? ""
            case "startIndex": out += String(startIndex)
            case "startPage": out += String(startPage)
            case "language": out += "*"
            case "inputEncoding", "outputEncoding": out += "UTF-8"
            default: break
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// RFC 3986 unreserved characters stay; everything else (space included) is %XX.
    public static func percentEncodeQuery(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 0xF)])
            }
        }
        return out
    }

    /// Whether the document is an OpenSearch description (its root is `OpenSearchDescription`).
    static func isDescription(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return head.contains("<OpenSearchDescription")
    }

    /// The results template of a description document: the first `<Url>` whose type is RSS or
    /// Atom (`rel` absent or `results`), resolved against `base`; nil when it has none.
    static func resultsTemplate(inDescription bytes: [UInt8], base: String?) -> (template: String, indexOffset: Int, pageOffset: Int)? {
        guard let tree = XMLTree(bytes) else { return nil }
        var found: (String, Int, Int)?
        tree.walk { node in
            guard found == nil, XMLTree.localName(node) == "Url" else { return }
            let type = (XMLTree.attribute(node, "type") ?? "").lowercased()
            let rel = (XMLTree.attribute(node, "rel") ?? "results").lowercased()
            guard rel.split(separator: " ").contains("results"),
                  type.contains("rss") || type.contains("atom"),
                  let template = XMLTree.attribute(node, "template").flatMap(TextRules.nonBlank) else { return }
            found = (WebAddress.resolve(template, against: base),
                     XMLTree.attribute(node, "indexOffset").flatMap { OutsideNumber.int($0, in: offsetRange) } ?? 1,
                     XMLTree.attribute(node, "pageOffset").flatMap { OutsideNumber.int($0, in: offsetRange) } ?? 1)
        }
        return found
    }

    /// The first index or page number a description may ask for (the spec's are 0 and 1).
    static let offsetRange: ClosedRange<Int64> = 0...1_000_000

    /// `opensearch:totalResults` of a results feed, when it has one (a negative or overflowing
    /// count is none).
    static func totalResults(_ bytes: [UInt8]) -> Int? {
        // Only documents that mention the element are parsed a second time.
        let marker = Array("totalResults".utf8)
        guard bytes.count >= marker.count,
              (0...(bytes.count - marker.count)).contains(where: { i in bytes[i] == marker[0] && Array(bytes[i..<(i + marker.count)]) == marker }),
              let tree = XMLTree(bytes) else { return nil }
        var total: Int?
        tree.walk { node in
            guard total == nil, XMLTree.localName(node) == "totalResults",
                  let ns = XMLTree.namespace(node), namespaces.contains(ns) else { return }
            total = OutsideNumber.int(XMLTree.text(node), in: 0...Int64.max)
        }
        return total
    }
}

/// A small XML document tree (libxml2's) for the short documents OpenSearch reads in full: never
/// loads a DTD or external entity, never substitutes entities, never touches the network.
final class XMLTree {
    private let doc: xmlDocPtr
    static let maxBytes = 4 << 20

    /// Decoded and prepared as the feed parser does (encoding sniffed, DOCTYPE removed and its
    /// internal entities expanded within a budget), then parsed by libxml2 as UTF-8.
    init?(_ bytes: [UInt8]) {
        let slice = bytes.prefix(Self.maxBytes)
        let sniffed = EncodingSniffer.sniff(slice, hint: nil)
        var decoded: [UInt8] = []
        Array(slice.dropFirst(sniffed.bomLength)).withUnsafeBufferPointer {
            Transcoder(encoding: sniffed.encoding).decode($0, final: true, into: &decoded)
        }
        var prepared: [UInt8] = []
        decoded.withUnsafeBufferPointer { XMLPrepass().process($0, final: true, into: &prepared) }
        guard !prepared.isEmpty else { return nil }
        let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        cxml_silence_errors()
        let parsed = prepared.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { xmlReadMemory($0, Int32(b.count), nil, "UTF-8", options) }
        }
        guard let parsed else { return nil }
        doc = parsed
    }

    deinit { xmlFreeDoc(doc) }

    /// Every element, in document order.
    func walk(_ visit: (xmlNodePtr) -> Void) {
        func go(_ first: xmlNodePtr?, depth: Int) {
            var node = first
            while let n = node {
                if n.pointee.type == XML_ELEMENT_NODE {
                    visit(n)
                    if depth < 64 { go(n.pointee.children, depth: depth + 1) }
                }
                node = n.pointee.next
            }
        }
        go(xmlDocGetRootElement(doc), depth: 0)
    }

    static func localName(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    static func namespace(_ node: xmlNodePtr) -> String? {
        node.pointee.ns?.pointee.href.map { String(cString: $0) }
    }

    static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { cxml_free(value) }
        return String(cString: value)
    }

    static func text(_ node: xmlNodePtr) -> String {
        guard let value = xmlNodeGetContent(node) else { return "" }
        defer { cxml_free(value) }
        return String(cString: value)
    }
}
