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
        let html = MarkupLimits.truncated(html)
        // Fast path: plain text without markup or references only needs `>` escaped.
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 < 0x20 || $0 == 0x7F }) {
            guard html.utf8.contains(UInt8(ascii: ">")) else { return html }
            var out = ""
            HTMLEscaping.appendText(html, to: &out)
            return out
        }
        guard let document = HTMLDocument(html, fragment: true) else { return "" }
        var writer = SanitizingWriter(base: base)
        writer.write(from: document.firstNode)
        return writer.out
    }
}

private struct SanitizingWriter {
    let base: String?
    var out = ""
    /// One entry per element entered: the serial number of its written start tag, or nil when
    /// the element was unwrapped.
    var entered: [Int?] = []
    /// The written elements still open, as libxml2 will see them on reading `out` back.
    var open: [(name: String, serial: Int)] = []
    var serial = 0

    init(base: String?) { self.base = base }

    mutating func write(from first: xmlNodePtr?) {
        Node.walk(from: first, enter: { node, _ in enter(node) }, leave: { _, _ in leave() })
    }

    mutating func enter(_ node: xmlNodePtr) -> Bool {
        if Node.isText(node) {
            if let c = node.pointee.content { HTMLEscaping.appendText(String(cString: c), to: &out) }
            return false
        }
        guard Node.isElement(node) else { return false }
        let name = Node.name(node)
        var disposition = name == HTMLDocument.fragmentWrapper ? .unwrap : HTMLPolicy.disposition(of: name)
        if disposition == .keep && open.count >= MarkupLimits.maxDepth { disposition = .unwrap }
        switch disposition {
        case .drop:
            return false
        case .unwrap:
            entered.append(nil)
            return true
        case .keep:
            guard let attributes = keptAttributes(node, name) else { return false }
            // Close what the parser would close on reading this start tag.
            while let top = open.last, HTMLStructure.closes(name, top.name) {
                out += "</" + top.name + ">"
                open.removeLast()
            }
            out += "<" + name
            for (attr, value) in attributes {
                out += " " + attr
                if let value {
                    out += "=\""
                    HTMLEscaping.appendAttribute(value, to: &out)
                    out += "\""
                }
            }
            if HTMLPolicy.voidElements.contains(name) {
                out += HTMLStructure.selfClosing.contains(name) ? " />" : ">"
                // Whatever libxml2 hung below a void element follows it in the source.
                entered.append(nil)
                return true
            }
            out += ">"
            serial += 1
            open.append((name, serial))
            entered.append(serial)
            return true
        }
    }

    mutating func leave() {
        // `leave` pairs with the `enter` calls that returned true, so the stacks match. An
        // element closed early (see `HTMLStructure`) is no longer on `open`.
        guard let entry = entered.popLast(), let serial = entry, let top = open.last, top.serial == serial else { return }
        out += "</" + top.name + ">"
        open.removeLast()
    }

    /// The attributes to write for a kept element, or nil when the element itself must go
    /// (an image without a safe source, a tracking pixel, a `source` without `src`).
    mutating func keptAttributes(_ node: xmlNodePtr, _ element: String) -> [(String, String?)]? {
        var kept: [(String, String?)] = []
        var seen: [String] = []
        var width: String?, height: String?, src: String?
        let allowed = HTMLPolicy.allowedElements[element]
        for (name, value) in Node.attributes(node) {
            guard HTMLPolicy.isAllowed(attribute: name, in: allowed), !seen.contains(name) else { continue }
            seen.append(name)
            var value = value
            if HTMLPolicy.urlAttributes.contains(name) {
                guard let v = value,
                      let url = HTMLPolicy.safeURL(v, base: base, allowDataImage: element == "img" && name == "src")
                else { continue }
                value = url
                if name == "src" { src = url }
            } else if name == "width" || name == "height" || name == "span" || name == "colspan" || name == "rowspan" {
                guard let v = value, let number = Self.dimension(v) else { continue }
                value = number
                if name == "width" { width = number } else if name == "height" { height = number }
            }
            kept.append((name, value))
        }
        switch element {
        case "img":
            // An image with no source at all still shows its alt text; one whose source was
            // unsafe, or a tracking pixel, goes.
            if src == nil {
                guard !Node.attributes(node).contains(where: { $0.0 == "src" }), kept.contains(where: { $0.0 == "alt" }) else { return nil }
            } else if HTMLPolicy.isTrackingPixel(src: src!, width: width, height: height) {
                return nil
            }
        case "source":
            guard src != nil else { return nil }
        default:
            break
        }
        return kept
    }

    /// A width/height/span value as digits with an optional `%`, or nil.
    static func dimension(_ value: String) -> String? {
        var s = Substring(value)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        if s.hasSuffix("px") { s = s.dropLast(2) }
        let digits = s.hasSuffix("%") ? s.dropLast() : s
        guard !digits.isEmpty, digits.count <= 6, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return String(s)
    }
}
