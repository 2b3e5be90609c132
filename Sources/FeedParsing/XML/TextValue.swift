import FeedModel
import Markup

/// How a text element's content is to be read (Atom's text constructs, RSS conventions).
enum TextKind {
    /// Plain text: shown as is.
    case text
    /// HTML source (escaped in the XML, or CDATA).
    case html
    /// Inline XHTML markup, serialized back from the XML tree.
    case xhtml
    /// RSS titles: plain text that may nevertheless carry entities or tags.
    case guess

    /// Atom 1.0 `type`, Atom 0.3 `type` + `mode`.
    static func atom(type: String?, mode: String?) -> TextKind {
        let t = (type ?? "text").lowercased()
        switch t {
        case "text", "text/plain": return mode == "escaped" ? .text : .text
        case "html", "text/html": return .html
        case "xhtml", "application/xhtml+xml": return mode == "escaped" ? .html : .xhtml
        default: return t.hasPrefix("text/") ? .text : .html
        }
    }
}

/// The content of one text element with how to read it and the base URL in force there.
struct TextValue {
    var text: String
    var kind: TextKind
    var base: String?

    /// Plain text for titles, names and the like.
    var plain: String? {
        let s: String
        switch kind {
        case .text: s = text
        case .html, .xhtml, .guess:
            // Only markup needs the HTML parser; entities alone are decoded in place (titles
            // are mostly plain text, and this runs for every one of them).
            if text.utf8.contains(UInt8(ascii: "<")) { s = HTMLText.plainText(text) }
            else if text.utf8.contains(UInt8(ascii: "&")) { s = HTMLEntities.decode(text) }
            else { s = text }
        }
        let collapsed = TextRules.collapseWhitespace(s)
        return collapsed.isEmpty ? nil : collapsed
    }

    /// Sanitized HTML for descriptions.
    var html: String? {
        let out: String
        switch kind {
        case .text: out = HTMLEscaping.text(text)
        case .html, .xhtml, .guess: out = HTMLSanitizer.sanitize(text, base: base)
        }
        return TextRules.nonBlank(out)
    }

    /// A URL written as element text, resolved against the element's base.
    var url: String? {
        guard let t = TextRules.nonBlank(text) else { return nil }
        return CardURL.resolve(t, against: base)
    }
}
