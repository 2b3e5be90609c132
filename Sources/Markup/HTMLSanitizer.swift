import CLibXML2
import FeedModel

/// An allow-list HTML sanitizer on libxml2's HTML parser.
///
/// The fragment is parsed (recovering from any error, never fetching anything), walked, and the
/// kept nodes are written out again by this module, so the output is well-formed HTML whatever
/// the input was:
/// - elements in `HTMLPolicy.allowedElements` are kept with their allowed attributes only
///   (never `on*` or `style`);
/// - elements in `HTMLPolicy.droppedElements` (script, style, frames, objects, forms, head, SVG,
///   MathML, ...) are removed with everything inside them;
/// - any other element (`font`, `blink`, `center`, custom elements) is unwrapped: its content stays;
/// - URL attributes keep only http, https and mailto URLs (and `data:image/*` in `img src`),
///   relative ones resolved against `base`;
/// - tracking pixels (`HTMLPolicy.isTrackingPixel`) and images without a usable source are removed;
/// - comments, processing instructions and doctype go; text is escaped.
///
/// `sanitize(sanitize(x)) == sanitize(x)`. Inputs over `MarkupLimits.maxInputBytes` are cut,
/// elements deeper than `MarkupLimits.maxDepth` are unwrapped.
public enum HTMLSanitizer {
    /// Allow-list sanitized HTML of `html`, relative URLs resolved against `base`.
    public static func sanitize(_ html: String, base: String?) -> String {
        let text = MarkupLimits.truncated(html)
        var bytes = text
        var mayHoldImage = false
        return bytes.withUTF8 { sanitize($0, base: base, text: text, array: nil, mayHoldImage: &mayHoldImage) }.string
    }

    /// `sanitize` of UTF-8 bytes, as a feed parser captures them: the same output, without
    /// first making a String of the input (a copy and a validation of every description).
    /// Invalid UTF-8 is repaired as `String(decoding:as:)` does.
    public static func sanitize(utf8 html: [UInt8], base: String?) -> String {
        sanitizedText(utf8: html, base: base).string
    }

    /// `sanitize(utf8:base:)` without making a String of the output either: the fast path's
    /// bytes are handed over as they are (see `UTF8Text`).
    public static func sanitizedText(utf8 html: [UInt8], base: String?) -> UTF8Text {
        var mayHoldImage = false
        return sanitizedText(utf8: html, base: base, mayHoldImage: &mayHoldImage)
    }

    /// `sanitizedText(utf8:base:)`, telling whether the output may hold an `<img>`: false when
    /// it surely holds none (the fast path wrote none, or there was no markup), so that looking
    /// for the card's image in it (`HTMLImages.firstImageInSanitized`) can be skipped.
    public static func sanitizedText(utf8 html: [UInt8], base: String?, mayHoldImage: inout Bool) -> UTF8Text {
        guard html.count <= MarkupLimits.maxInputBytes else {
            mayHoldImage = true
            return UTF8Text(sanitize(String(decoding: html, as: UTF8.self), base: base))
        }
        return html.withUnsafeBufferPointer { sanitize($0, base: base, text: nil, array: html, mayHoldImage: &mayHoldImage) }
    }

    /// Both entries: `text` is the input as a String when the caller has one, `array` the same
    /// bytes as `b` when the caller has them as an array.
    private static func sanitize(_ b: UnsafeBufferPointer<UInt8>, base: String?, text: String?, array: [UInt8]?,
                                 mayHoldImage: inout Bool) -> UTF8Text {
        mayHoldImage = false
        // Fast path: plain text without markup or references only needs `>` escaped. (C2 and EF
        // lead the characters libxml2 rewrites or drops, C1 controls and U+F000...U+FFFF: such
        // text goes the long way, as `FastSanitizer` does, found by its random tests.)
        var plain = true, hasGreater = false
        for c in b {
            if c == UInt8(ascii: "<") || c == UInt8(ascii: "&") || c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xEF {
                plain = false
                break
            }
            if c == UInt8(ascii: ">") { hasGreater = true }
        }
        let string = { text ?? String(decoding: b, as: UTF8.self) }
        if plain {
            guard hasGreater else {
                if let text { return UTF8Text(text) }
                return UTF8Text(validating: array ?? Array(b))
            }
            var out = ""
            HTMLEscaping.appendText(string(), to: &out)
            return UTF8Text(out)
        }
        if let fast = FastSanitizer.run(b, base: base, wroteImage: &mayHoldImage) { return UTF8Text(validating: fast) }
        mayHoldImage = true
        return UTF8Text(sanitizeWithLibXML(string(), base: base))
    }

    /// The sanitizer on libxml2, for any input (`sanitize` uses `FastSanitizer` first when it can).
    static func sanitizeWithLibXML(_ html: String, base: String?) -> String {
        let html = MarkupLimits.truncated(html)
        guard let document = HTMLDocument(html, fragment: true) else { return "" }
        var writer = SanitizingWriter(base: base)
        writer.write(from: document.firstNode)
        return String(decoding: writer.out, as: UTF8.self)
    }
}

/// What the writer needs to know about a kept element, looked up once per element.
struct ElementRule {
    let attributes: Set<String>
    let isVoid: Bool
    let selfClosing: Bool

    static let table: [String: ElementRule] = {
        var t: [String: ElementRule] = [:]
        for (name, attributes) in HTMLPolicy.allowedElements {
            t[name] = ElementRule(attributes: attributes, isVoid: HTMLPolicy.voidElements.contains(name),
                                  selfClosing: HTMLStructure.selfClosing.contains(name))
        }
        return t
    }()
}

/// A base URL parsed once for all the relative references of one fragment.
struct ParsedBase {
    let raw: String?
    private var parsed: WebAddress?

    init(_ raw: String?) { self.raw = raw }

    /// `WebAddress.resolve(reference, against: raw)`, parsing `raw` on first use only.
    mutating func resolve(_ reference: String) -> String {
        let ref = WebAddress(parsing: reference)
        guard !ref.isAbsolute, let raw, !raw.isEmpty else { return ref.description }
        if parsed == nil { parsed = WebAddress(parsing: raw) }
        return ref.resolved(against: parsed!).description
    }
}

/// One attribute to write: its name and either a computed value, the libxml2 attribute whose
/// text is written as is, or no value at all.
struct KeptAttribute {
    var name: String
    var value: String?
    var attr: xmlAttrPtr?
}

struct SanitizingWriter {
    var base: ParsedBase
    var out: [UInt8] = []
    /// One entry per element entered: the serial number of its written start tag, or nil when
    /// the element was unwrapped.
    var entered: [Int?] = []
    /// The written elements still open, as libxml2 will see them on reading `out` back.
    var open: [(name: String, serial: Int)] = []
    var serial = 0
    var kept: [KeptAttribute] = []
    var seen: [String] = []

    init(base: String?) {
        self.base = ParsedBase(base)
        out.reserveCapacity(1024)
    }

    mutating func write(from first: xmlNodePtr?) {
        Node.walk(from: first, enter: { node, _ in enter(node) }, leave: { _, _ in leave() })
    }

    mutating func appendASCII(_ s: String) {
        out.append(contentsOf: s.utf8)
    }

    mutating func enter(_ node: xmlNodePtr) -> Bool {
        if Node.isText(node) {
            if let c = node.pointee.content {
                HTMLEscaping.append(UnsafeBufferPointer(start: c, count: Int(xmlStrlen(c))), to: &out, attribute: false)
            }
            return false
        }
        guard Node.isElement(node) else { return false }
        let name = Node.name(node)
        let rule = ElementRule.table[name]
        var disposition: HTMLPolicy.Disposition
        if let _ = rule { disposition = name == HTMLDocument.fragmentWrapper ? .unwrap : .keep }
        else { disposition = name == HTMLDocument.fragmentWrapper ? .unwrap : HTMLPolicy.disposition(of: name) }
        if disposition == .keep && open.count >= MarkupLimits.maxDepth { disposition = .unwrap }
        switch disposition {
        case .drop:
            return false
        case .unwrap:
            entered.append(nil)
            return true
        case .keep:
            let rule = rule!
            guard keepAttributes(node, name, rule.attributes) else { return false }
            // Close what the parser would close on reading this start tag.
            while let top = open.last, HTMLStructure.closes(name, top.name) {
                closeTag(top.name)
                open.removeLast()
            }
            out.append(UInt8(ascii: "<"))
            appendASCII(name)
            for attribute in kept {
                out.append(UInt8(ascii: " "))
                appendASCII(attribute.name)
                if let value = attribute.value {
                    out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
                    HTMLEscaping.append(value, to: &out, attribute: true)
                    out.append(UInt8(ascii: "\""))
                } else if let a = attribute.attr {
                    out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
                    appendValue(of: a)
                    out.append(UInt8(ascii: "\""))
                }
            }
            if rule.isVoid {
                if rule.selfClosing { out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: ">")]) }
                else { out.append(UInt8(ascii: ">")) }
                // Whatever libxml2 hung below a void element follows it in the source.
                entered.append(nil)
                return true
            }
            out.append(UInt8(ascii: ">"))
            serial += 1
            open.append((name, serial))
            entered.append(serial)
            return true
        }
    }

    mutating func closeTag(_ name: String) {
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        appendASCII(name)
        out.append(UInt8(ascii: ">"))
    }

    /// Writes the escaped value of an attribute that has one (its text children, joined).
    mutating func appendValue(of attr: xmlAttrPtr) {
        guard let child = attr.pointee.children else { return }
        if child.pointee.next == nil {
            if let c = child.pointee.content {
                HTMLEscaping.append(UnsafeBufferPointer(start: c, count: Int(xmlStrlen(c))), to: &out, attribute: true)
            }
            return
        }
        HTMLEscaping.append(Node.value(of: attr) ?? "", to: &out, attribute: true)
    }

    mutating func leave() {
        // `leave` pairs with the `enter` calls that returned true, so the stacks match. An
        // element closed early (see `HTMLStructure`) is no longer on `open`.
        guard let entry = entered.popLast(), let serial = entry, let top = open.last, top.serial == serial else { return }
        closeTag(top.name)
        open.removeLast()
    }

    /// Fills `kept` with the attributes to write for a kept element; false when the element
    /// itself must go (an image without a safe source, a tracking pixel, a `source` without `src`).
    mutating func keepAttributes(_ node: xmlNodePtr, _ element: String, _ allowed: Set<String>) -> Bool {
        kept.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        var width: String?, height: String?, src: String?
        var hasSrc = false
        var attr = node.pointee.properties
        while let a = attr {
            attr = a.pointee.next
            guard let raw = a.pointee.name else { continue }
            let name = Node.attributeName(raw)
            if name == "src" { hasSrc = true }
            guard HTMLPolicy.isAllowed(attribute: name, in: allowed), !seen.contains(name) else { continue }
            seen.append(name)
            if HTMLPolicy.urlAttributes.contains(name) {
                guard let v = Node.value(of: a),
                      let url = HTMLPolicy.safeURL(v, allowDataImage: element == "img" && name == "src", resolve: { base.resolve($0) })
                else { continue }
                if name == "src" { src = url }
                kept.append(KeptAttribute(name: name, value: url, attr: nil))
            } else if name == "width" || name == "height" || name == "span" || name == "colspan" || name == "rowspan" {
                guard let v = Node.value(of: a), let number = Self.dimension(v) else { continue }
                if name == "width" { width = number } else if name == "height" { height = number }
                kept.append(KeptAttribute(name: name, value: number, attr: nil))
            } else {
                kept.append(KeptAttribute(name: name, value: nil, attr: a.pointee.children == nil ? nil : a))
            }
        }
        switch element {
        case "img":
            // An image with no source at all still shows its alt text; one whose source was
            // unsafe, or a tracking pixel, goes.
            if src == nil {
                guard !hasSrc, kept.contains(where: { $0.name == "alt" }) else { return false }
            } else if HTMLPolicy.isTrackingPixel(src: src!, width: width, height: height) {
                return false
            }
        case "source":
            guard src != nil else { return false }
        default:
            break
        }
        return true
    }
    /// A width/height/span value as digits with an optional `%`, or nil.
    static func dimension(_ value: String) -> String? {
        // The usual value, a few digits, without the Substring work below.
        var v = value
        if v.withUTF8({ b in b.count > 0 && b.count <= 6 && b.allSatisfy { $0 >= 48 && $0 <= 57 } }) { return value }
        var s = Substring(value)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        if s.hasSuffix("px") { s = s.dropLast(2) }
        let digits = s.hasSuffix("%") ? s.dropLast() : s
        guard !digits.isEmpty, digits.count <= 6, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return String(s)
    }
}
