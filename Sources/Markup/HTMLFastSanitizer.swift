import FeedModel

/// A pure-Swift sanitizer for the common, simple subset of feed HTML, producing exactly what the
/// libxml2 path of `HTMLSanitizer` produces for it, much faster.
///
/// It accepts only: text without control characters (other than tab and line feed) or C1
/// characters; the references `&amp;`, `&lt;`, `&gt;`, `&quot;`, numeric references to plain
/// characters, and a few HTML 4 names (`safeNames`); start tags of the elements in `fastElements`
/// with lower-case attribute names and quoted values (or none), well nested, with their end
/// tags, never an element that libxml2 would close implicitly. On anything else it gives up
/// (returns nil) and the caller uses libxml2. (libxml2 keeps white space between tags:
/// its `areBlanks` only decides about implied paragraphs, which the fragment wrapper never gets.)
enum FastSanitizer {
    /// Elements handled here: kept elements that libxml2 parses without special rules (no tables,
    /// no `pre`, no elements libxml2 2.9 does not know).
    static let fastElements: Set<String> = [
        "p", "br", "hr", "div", "span", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
        "ul", "ol", "li", "dl", "dt", "dd", "a", "em", "strong", "b", "i", "u", "s", "code", "kbd",
        "samp", "var", "small", "big", "sub", "sup", "abbr", "dfn", "q", "cite", "del", "ins", "img",
        "strike", "tt", "address", "pre",
    ]

    /// `ElementRule.table` for `fastElements`.
    static let fastRules: [String: ElementRule] = ElementRule.table.filter { fastElements.contains($0.key) }

    /// HTML 4 names whose character is the same in libxml2 and HTML5.
    static let safeNames: [String: [UInt8]] = {
        let names = ["nbsp", "copy", "reg", "mdash", "ndash", "hellip", "rsquo", "lsquo", "rdquo", "ldquo",
                     "laquo", "raquo", "middot", "bull", "trade", "euro", "deg", "times", "eacute", "egrave",
                     "aacute", "agrave", "uuml", "ouml", "auml", "szlig", "ccedil", "pound", "sect", "para"]
        var t: [String: [UInt8]] = [:]
        for n in names { if let v = HTMLEntities.characters(named: n) { t[n] = Array(v.utf8) } }
        return t
    }()

    private struct Open {
        var name: String
    }

    /// The sanitized HTML of `html` (already cut to the input limit), or nil to use libxml2.
    static func sanitize(_ html: String, base: String?) -> String? {
        var html = html
        return html.withUTF8 { run($0, base: base) }
    }

    private static func run(_ p: UnsafeBufferPointer<UInt8>, base: String?) -> String? {
        let n = p.count
        var out = [UInt8]()
        out.reserveCapacity(n + n / 8)
        var stack: [Open] = []
        var top = Open(name: HTMLDocument.fragmentWrapper)
        var parsedBase = ParsedBase(base)
        var i = 0
        while i < n {
            let b = p[i]
            if b != UInt8(ascii: "<") && b != UInt8(ascii: "&") {
                // A run of text up to the next tag or reference.
                let start = i
                while i < n {
                    let c = p[i]
                    if c == UInt8(ascii: "<") || c == UInt8(ascii: "&") { break }
                    if c < 0x20 {
                        guard c == 0x09 || c == 0x0A else { return nil }
                    } else if c == 0x7F {
                        return nil
                    } else if c == 0xC2 {
                        guard i + 1 < n, p[i + 1] >= 0xA0 else { return nil }
                    } else if c == 0xEF {
                        // U+F000...U+FFFF: BOM and non-characters are libxml2's business.
                        return nil
                    }
                    i += 1
                }
                HTMLEscaping.append(UnsafeBufferPointer(rebasing: p[start..<i]), to: &out, attribute: false)
                continue
            }
            if b == UInt8(ascii: "&") {
                guard let (bytes, next) = reference(p, i, inAttribute: false) else { return nil }
                bytes.withUnsafeBufferPointer { HTMLEscaping.append($0, to: &out, attribute: false) }
                i = next
                continue
            }
            // A tag.
            i += 1
            guard i < n else { return nil }
            if p[i] == UInt8(ascii: "/") {
                i += 1
                let nameStart = i
                while i < n && isNameByte(p[i]) { i += 1 }
                guard i < n, p[i] == UInt8(ascii: ">"), i > nameStart else { return nil }
                let name = String(decoding: UnsafeBufferPointer(rebasing: p[nameStart..<i]), as: UTF8.self)
                i += 1
                guard name == top.name, let parent = stack.popLast() else { return nil }
                out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
                out.append(contentsOf: name.utf8)
                out.append(UInt8(ascii: ">"))
                top = parent
                continue
            }
            let nameStart = i
            while i < n && isNameByte(p[i]) { i += 1 }
            guard i > nameStart, i < n else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: p[nameStart..<i]), as: UTF8.self)
            guard let rule = fastRules[name] else { return nil }
            if HTMLStructure.closes(name, top.name) { return nil }
            // Attributes.
            var attributes: [(String, String?)] = []
            var selfClosing = false
            while true {
                guard i < n else { return nil }
                let c = p[i]
                if c == UInt8(ascii: ">") { i += 1; break }
                if c == UInt8(ascii: "/") {
                    guard i + 1 < n, p[i + 1] == UInt8(ascii: ">") else { return nil }
                    selfClosing = true
                    i += 2
                    break
                }
                // At least one space before each attribute.
                guard c == 0x20 || c == 0x0A || c == 0x09 else { return nil }
                while i < n && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x09) { i += 1 }
                guard i < n else { return nil }
                if p[i] == UInt8(ascii: ">") || p[i] == UInt8(ascii: "/") { continue }
                let attrStart = i
                while i < n && isNameByte(p[i]) { i += 1 }
                guard i > attrStart, i < n else { return nil }
                let attrName = String(decoding: UnsafeBufferPointer(rebasing: p[attrStart..<i]), as: UTF8.self)
                guard !attributes.contains(where: { $0.0 == attrName }), attributes.count < 32 else { return nil }
                if p[i] != UInt8(ascii: "=") {
                    attributes.append((attrName, nil))
                    continue
                }
                i += 1
                guard i < n, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else { return nil }
                let quote = p[i]
                i += 1
                var value = [UInt8]()
                while true {
                    guard i < n else { return nil }
                    let c = p[i]
                    if c == quote { i += 1; break }
                    if c < 0x20 || c == 0x7F || c == 0xEF || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") { return nil }
                    if c == 0xC2 { guard i + 1 < n, p[i + 1] >= 0xA0 else { return nil } }
                    if c == UInt8(ascii: "&") {
                        guard let (bytes, next) = reference(p, i, inAttribute: true) else { return nil }
                        value.append(contentsOf: bytes)
                        i = next
                        continue
                    }
                    value.append(c)
                    i += 1
                }
                attributes.append((attrName, String(decoding: value, as: UTF8.self)))
            }
            if selfClosing && !rule.isVoid { return nil }
            if !rule.isVoid {
                guard stack.count < 100 else { return nil }
            }
            // The element as the libxml2 path writes it.
            if let kept = keptAttributes(attributes, name, rule.attributes, &parsedBase) {
                out.append(UInt8(ascii: "<"))
                out.append(contentsOf: name.utf8)
                for (attr, value) in kept {
                    out.append(UInt8(ascii: " "))
                    out.append(contentsOf: attr.utf8)
                    if let value {
                        out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
                        HTMLEscaping.append(value, to: &out, attribute: true)
                        out.append(UInt8(ascii: "\""))
                    }
                }
                out.append(UInt8(ascii: ">"))
            } else if !rule.isVoid {
                // A dropped element with content (only `img` and `source` can go, both void).
                return nil
            }
            if !rule.isVoid {
                stack.append(top)
                top = Open(name: name)
            }
        }
        guard stack.isEmpty else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == UInt8(ascii: "-")
    }

    private static let amp: [UInt8] = [UInt8(ascii: "&")]

    /// The characters of the reference at `p[i] == "&"` and the index after it, when it is one
    /// of the simple kinds this path handles.
    static func reference(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, inAttribute: Bool) -> ([UInt8], Int)? {
        let n = p.count
        var i = start + 1
        guard i < n else { return nil }
        if p[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < n && (p[i] == UInt8(ascii: "x") || p[i] == UInt8(ascii: "X")) { hex = true; i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < n, digits < 7 {
                let c = p[i]
                if c >= 48 && c <= 57 { value = value * (hex ? 16 : 10) + UInt32(c - 48) }
                else if hex && (c | 0x20) >= 97 && (c | 0x20) <= 102 { value = value * 16 + UInt32((c | 0x20) - 87) }
                else { break }
                digits += 1
                i += 1
            }
            guard digits > 0, i < n, p[i] == UInt8(ascii: ";") else { return nil }
            guard (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0xD800) || (value >= 0xE000 && value < 0xF000)
                    || (value >= 0x10000 && value <= 0x10FFFF), let scalar = Unicode.Scalar(value) else { return nil }
            var bytes: [UInt8] = []
            UTF8.encode(scalar) { bytes.append($0) }
            return (bytes, i + 1)
        }
        let nameStart = i
        while i < n && i - nameStart < 10 && ((p[i] | 0x20) >= 97 && (p[i] | 0x20) <= 122) { i += 1 }
        guard i < n, p[i] == UInt8(ascii: ";"), i > nameStart else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: p[nameStart..<i]), as: UTF8.self)
        switch name {
        case "amp": return (amp, i + 1)
        case "lt" where !inAttribute: return ([UInt8(ascii: "<")], i + 1)
        case "gt" where !inAttribute: return ([UInt8(ascii: ">")], i + 1)
        case "quot" where !inAttribute: return ([UInt8(ascii: "\"")], i + 1)
        default:
            guard !inAttribute, let v = safeNames[name] else { return nil }
            return (v, i + 1)
        }
    }

    /// The attributes the libxml2 path keeps for `element` (see `SanitizingWriter.keepAttributes`),
    /// or nil when the element goes.
    private static func keptAttributes(_ attributes: [(String, String?)], _ element: String, _ allowed: Set<String>,
                                       _ base: inout ParsedBase) -> [(String, String?)]? {
        var kept: [(String, String?)] = []
        var width: String?, height: String?, src: String?
        var hasSrc = false
        for (name, value) in attributes {
            if name == "src" { hasSrc = true }
            guard HTMLPolicy.isAllowed(attribute: name, in: allowed) else { continue }
            if HTMLPolicy.urlAttributes.contains(name) {
                guard let v = value,
                      let url = HTMLPolicy.safeURL(v, allowDataImage: element == "img" && name == "src", resolve: { base.resolve($0) })
                else { continue }
                if name == "src" { src = url }
                kept.append((name, url))
            } else if name == "width" || name == "height" || name == "span" || name == "colspan" || name == "rowspan" {
                guard let v = value, let number = SanitizingWriter.dimension(v) else { continue }
                if name == "width" { width = number } else if name == "height" { height = number }
                kept.append((name, number))
            } else {
                kept.append((name, value))
            }
        }
        switch element {
        case "img":
            if src == nil {
                guard !hasSrc, kept.contains(where: { $0.0 == "alt" }) else { return nil }
            } else if HTMLPolicy.isTrackingPixel(src: src!, width: width, height: height) {
                return nil
            }
        default:
            break
        }
        return kept
    }
}
