import CLibXML2

/// Limits that keep every function of this module linear and bounded on hostile input.
public enum MarkupLimits {
    /// Inputs longer than this many UTF-8 bytes are cut (at a character boundary) before parsing.
    public static let maxInputBytes = 1 << 20
    /// Elements nested deeper than this are unwrapped (their text is kept, their tags are not).
    public static let maxDepth = 128
    /// Attributes after this many in one tag are ignored.
    public static let maxAttributes = 256

    /// `text` cut to at most `maxInputBytes` UTF-8 bytes, at a character boundary.
    static func truncated(_ text: String) -> String {
        guard text.utf8.count > maxInputBytes else { return text }
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: maxInputBytes)
        while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(Substring(utf8[..<end]))
    }
}

/// Calls `xmlInitParser()` exactly once (a `static let` is initialised once, thread-safely),
/// and silences libxml2's default error printer.
enum LibXML {
    private static let initialised: Bool = {
        xmlInitParser()
        cxml_silence_errors()
        return true
    }()

    static func ensureInitialised() { _ = initialised }
}

/// One parsed HTML document: owns the `htmlDocPtr` and frees it in `deinit`. Not `Sendable`;
/// use it on one thread.
final class HTMLDocument {
    let doc: htmlDocPtr

    /// The name of the element wrapped around fragments. The wrapper keeps libxml2 from wrapping
    /// top-level text in an implied `<p>` and, being unknown to libxml2, it is not closed by a stray
    /// `</div>` in the fragment. Walkers treat it as transparent.
    static let fragmentWrapper = "feeds-fragment"

    /// Parses `html` with libxml2's HTML parser: recover from errors, report nothing, never touch
    /// the network, no implied `<html>`/`<body>`, always as UTF-8 (a `<meta charset>` inside is
    /// ignored). A fragment is parsed inside a wrapper element (see `fragmentWrapper`).
    init?(_ html: String, fragment: Bool) {
        LibXML.ensureInitialised()
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(html.utf8.count, MarkupLimits.maxInputBytes) + 40)
        if fragment { bytes.append(contentsOf: "<\(HTMLDocument.fragmentWrapper)>".utf8) }
        HTMLDocument.appendCleaned(html, to: &bytes)
        if fragment { bytes.append(contentsOf: "</\(HTMLDocument.fragmentWrapper)>".utf8) }
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_COMPACT.rawValue)
        let parsed: htmlDocPtr? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { p in
                htmlReadMemory(p, Int32(buf.count), nil, "UTF-8", options)
            }
        }
        guard let parsed else { return nil }
        doc = parsed
    }

    deinit { xmlFreeDoc(doc) }

    /// The first top-level node (the DTD node, if any, is skipped by walkers: it is no element).
    var firstNode: xmlNodePtr? { doc.pointee.children }

    /// The UTF-8 of `html`, cut to `MarkupLimits.maxInputBytes` at a character boundary, without
    /// NUL and the C0 controls other than tab, line feed, form feed and carriage return (libxml2
    /// stops or errs on them; browsers ignore them in markup), and with at most
    /// `MarkupLimits.maxAttributes` attributes per tag: libxml2 checks each new attribute against
    /// all earlier ones of the tag, which is quadratic (20 000 attributes took seconds).
    static func appendCleaned(_ html: String, to bytes: inout [UInt8]) {
        var html = MarkupLimits.truncated(html)
        html.withUTF8 { input in
            let n = input.count
            guard n > 0, let src = input.baseAddress else { return }
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: n))
            let written: Int = bytes.withUnsafeMutableBufferPointer { buffer in
                let dst = buffer.baseAddress! + start
                var scanner = TagScanner()
                var previous: UInt8 = 0
                var k = 0
                var i = 0
                while i < n {
                    let b = src[i]
                    i += 1
                    if b < 0x80 {
                        if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0C && b != 0x0D { continue }
                        if b == 0x7F { continue }
                        // Outside tags, only `<` changes the scanner's state.
                        if !scanner.inTag && previous != UInt8(ascii: "<") && b != UInt8(ascii: "<") {
                            dst[k] = b; k += 1; previous = b
                            continue
                        }
                        if scanner.keep(b, previous: previous) { dst[k] = b; k += 1; previous = b }
                    } else if !scanner.skipping {
                        dst[k] = b; k += 1; previous = b
                    }
                }
                return k
            }
            bytes.removeLast(n - written)
        }
    }
}

/// Follows start tags well enough to count their attributes; past the limit, the rest of the
/// tag is skipped (its `>` is kept). Linear, one byte at a time.
struct TagScanner {
    private(set) var inTag = false
    private var quote: UInt8 = 0
    private var inToken = false
    private var afterEquals = false
    private var attributes = 0
    private(set) var skipping = false

    /// Whether to keep ASCII byte `b` (`previous` is the last byte kept).
    mutating func keep(_ b: UInt8, previous: UInt8) -> Bool {
        if !inTag {
            // `<` then a letter starts a tag: the letter is seen with previous == "<".
            if previous == UInt8(ascii: "<") && ((b | 0x20) >= 97 && (b | 0x20) <= 122) {
                inTag = true; quote = 0; inToken = true; afterEquals = false; attributes = 0; skipping = false
            }
            return true
        }
        if quote != 0 {
            if b == quote { quote = 0 }
            return !skipping
        }
        switch b {
        case UInt8(ascii: ">"):
            inTag = false; skipping = false
            return true
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            if afterEquals { quote = b; afterEquals = false }
            return !skipping
        case UInt8(ascii: "="):
            afterEquals = true; inToken = false
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
            inToken = false
        default:
            if afterEquals { afterEquals = false; inToken = true }
            else if !inToken {
                inToken = true
                attributes += 1
                if attributes > MarkupLimits.maxAttributes { skipping = true }
            }
        }
        return !skipping
    }
}

/// Helpers over libxml2 nodes.
enum Node {
    /// The lower-cased local name of an element (`html:script` -> "script").
    static func name(_ node: xmlNodePtr) -> String {
        guard let raw = node.pointee.name else { return "" }
        var name = String(cString: raw)
        var hasColon = false, hasUpper = false
        for b in name.utf8 {
            if b == UInt8(ascii: ":") { hasColon = true } else if b >= 65 && b <= 90 { hasUpper = true }
        }
        if hasColon, let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) {
            name = String(name[name.utf8.index(after: colon)...])
        }
        if hasUpper { name = name.lowercased() }
        return name
    }

    static func isElement(_ node: xmlNodePtr) -> Bool { node.pointee.type == XML_ELEMENT_NODE }

    static func isText(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE
    }

    /// The text of a text node.
    static func text(_ node: xmlNodePtr) -> String {
        guard let c = node.pointee.content else { return "" }
        return String(cString: c)
    }

    /// The attributes of an element in document order: lower-cased name, value (nil for a
    /// boolean attribute without value).
    static func attributes(_ node: xmlNodePtr) -> [(name: String, value: String?)] {
        var out: [(String, String?)] = []
        var attr = node.pointee.properties
        while let a = attr {
            if let raw = a.pointee.name {
                out.append((attributeName(raw), value(of: a)))
            }
            attr = a.pointee.next
        }
        return out
    }

    /// An attribute's name as `attributes` gives it: lower-cased, without a namespace prefix
    /// (other than `xml...`).
    static func attributeName(_ raw: UnsafePointer<xmlChar>) -> String {
        // libxml2's HTML parser lower-cases names already: the common case is plain ASCII
        // letters, digits and `-`, which need no work.
        var p = raw
        var plain = true
        while p.pointee != 0 {
            let b = p.pointee
            if !((b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == UInt8(ascii: "-")) { plain = false; break }
            p += 1
        }
        if plain { return String(cString: raw) }
        var name = String(cString: raw).lowercased()
        if let colon = name.lastIndex(of: ":"), !name.hasPrefix("xml") {
            name = String(name[name.index(after: colon)...])
        }
        return name
    }

    /// One attribute's value, or nil when the element has no such attribute.
    static func attribute(_ node: xmlNodePtr, _ wanted: String) -> String?? {
        var attr = node.pointee.properties
        while let a = attr {
            if let raw = a.pointee.name, nameEquals(raw, wanted) { return .some(value(of: a)) }
            attr = a.pointee.next
        }
        return .none
    }

    /// `String(cString: raw).lowercased() == wanted` for an ASCII `wanted` without upper case,
    /// without making a String.
    private static func nameEquals(_ raw: UnsafePointer<xmlChar>, _ wanted: String) -> Bool {
        var p = raw
        for w in wanted.utf8 {
            let b = p.pointee
            guard b != 0, b < 0x80, (b >= 65 && b <= 90 ? b | 0x20 : b) == w else {
                // Non-ASCII names: compare the slow way (lowercased() maps more than ASCII).
                return b >= 0x80 ? String(cString: raw).lowercased() == wanted : false
            }
            p += 1
        }
        if p.pointee >= 0x80 { return String(cString: raw).lowercased() == wanted }
        return p.pointee == 0
    }

    /// One attribute's value: its text children joined, nil when it has none.
    static func value(of attr: xmlAttrPtr) -> String? {
        guard var child = attr.pointee.children else { return nil }
        var s = ""
        while true {
            if let c = child.pointee.content { s += String(cString: c) }
            guard let next = child.pointee.next else { break }
            child = next
        }
        return s
    }

    /// Walks the nodes from `first` and its following siblings, depth first, without recursion
    /// (any depth is safe). `enter` is called for every node and returns whether to visit the
    /// node's children (asked for elements only); `leave` is called after the children of every
    /// element that `enter` allowed into. `depth` counts the element ancestors within the walk.
    static func walk(from first: xmlNodePtr?, enter: (xmlNodePtr, _ depth: Int) -> Bool, leave: (xmlNodePtr, _ depth: Int) -> Void) {
        guard let first else { return }
        let top = first.pointee.parent
        var node: xmlNodePtr? = first
        var depth = 0
        while let n = node {
            let descend = enter(n, depth)
            if descend && isElement(n) {
                if let child = n.pointee.children {
                    depth += 1
                    node = child
                    continue
                }
                leave(n, depth)
            }
            // Move to the next sibling, climbing (and leaving) parents as their children run out.
            var current = n
            while true {
                if let next = current.pointee.next { node = next; break }
                guard let parent = current.pointee.parent, parent != top, depth > 0 else { node = nil; break }
                depth -= 1
                leave(parent, depth)
                current = parent
            }
        }
    }
}
