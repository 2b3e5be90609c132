import CLibXML2

/// Limits that keep every function of this module linear and bounded on hostile input.
public enum MarkupLimits {
    /// Inputs longer than this many UTF-8 bytes are cut (at a character boundary) before parsing.
    public static let maxInputBytes = 1 << 20
    /// Elements nested deeper than this are unwrapped (their text is kept, their tags are not).
    public static let maxDepth = 128
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
    /// stops or errs on them; browsers ignore them in markup).
    static func appendCleaned(_ html: String, to bytes: inout [UInt8]) {
        var budget = MarkupLimits.maxInputBytes
        for scalar in html.unicodeScalars {
            let v = scalar.value
            if v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0C && v != 0x0D { continue }
            if v == 0x7F { continue }
            let len = v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4
            budget -= len
            if budget < 0 { break }
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }
}

/// Helpers over libxml2 nodes.
enum Node {
    /// The lower-cased local name of an element (`html:script` -> "script").
    static func name(_ node: xmlNodePtr) -> String {
        guard let raw = node.pointee.name else { return "" }
        var name = String(cString: raw)
        if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
        if name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) { name = name.lowercased() }
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
                var name = String(cString: raw).lowercased()
                if let colon = name.lastIndex(of: ":"), !name.hasPrefix("xml") {
                    name = String(name[name.index(after: colon)...])
                }
                out.append((name, value(of: a)))
            }
            attr = a.pointee.next
        }
        return out
    }

    /// One attribute's value, or nil when the element has no such attribute.
    static func attribute(_ node: xmlNodePtr, _ wanted: String) -> String?? {
        var attr = node.pointee.properties
        while let a = attr {
            if let raw = a.pointee.name, String(cString: raw).lowercased() == wanted { return .some(value(of: a)) }
            attr = a.pointee.next
        }
        return .none
    }

    private static func value(of attr: xmlAttrPtr) -> String? {
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
