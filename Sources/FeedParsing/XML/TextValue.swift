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
    var kind: TextKind
    var base: String?
    /// The text, or its UTF-8 as captured: bodies and titles stay bytes until the card is made,
    /// so that with `ParseOptions.concurrentCards` the String is built on the second thread.
    private var storage: Storage

    private enum Storage {
        case string(String)
        case utf8([UInt8])
    }

    init(text: String, kind: TextKind, base: String?) {
        self.kind = kind
        self.base = base
        storage = .string(text)
    }

    init(utf8: [UInt8], kind: TextKind, base: String?) {
        self.kind = kind
        self.base = base
        storage = .utf8(utf8)
    }

    var text: String {
        switch storage {
        case .string(let s): return s
        case .utf8(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The length of the UTF-8 (exact for captured bytes).
    var byteCount: Int {
        switch storage {
        case .string(let s): return s.utf8.count
        case .utf8(let bytes): return bytes.count
        }
    }

    /// Plain text for titles, names and the like.
    var plain: String? {
        let text = self.text
        let s: String
        switch kind {
        case .text: s = text
        case .html, .xhtml, .guess:
            // Only markup needs the HTML parser; entities alone are decoded in place (titles
            // are mostly plain text, and this runs for every one of them).
            var text = text
            let (markup, reference) = text.withUTF8 { b -> (Bool, Bool) in
                var amp = false
                for c in b {
                    if c == UInt8(ascii: "<") { return (true, true) }
                    if c == UInt8(ascii: "&") { amp = true }
                }
                return (false, amp)
            }
            if markup { s = HTMLText.plainText(text) }
            else if reference { s = HTMLEntities.decode(text) }
            else { s = text }
        }
        let collapsed = FastText.collapseWhitespace(s)
        return collapsed.isEmpty ? nil : collapsed
    }

    /// Sanitized HTML for descriptions.
    var html: String? { htmlText?.string }

    /// `html` as the sanitizer wrote it: bytes stay bytes (see `UTF8Text`).
    var htmlText: UTF8Text? {
        var mayHoldImage = false
        return htmlText(mayHoldImage: &mayHoldImage)
    }

    /// `htmlText`, and whether it may hold an `<img>` (false when it surely holds none: see
    /// `HTMLSanitizer.sanitizedText(utf8:base:mayHoldImage:)`).
    func htmlText(mayHoldImage: inout Bool) -> UTF8Text? {
        let out: UTF8Text
        switch (kind, storage) {
        case (.text, _):
            out = UTF8Text(HTMLEscaping.text(text))
            mayHoldImage = false
        case (_, .utf8(let bytes)): out = HTMLSanitizer.sanitizedText(utf8: bytes, base: base, mayHoldImage: &mayHoldImage)
        case (_, .string(let text)):
            out = UTF8Text(HTMLSanitizer.sanitize(text, base: base))
            mayHoldImage = true
        }
        return FastText.nonBlank(out)
    }

    /// A URL written as element text, resolved against the element's base.
    var url: String? {
        guard let t = FastText.nonBlank(text) else { return nil }
        return CardURL.resolve(t, against: base)
    }
}

/// `TextRules.nonBlank` and `TextRules.collapseWhitespace` with a byte-level test for the common
/// case where they change nothing (they run for several fields of every item; the general
/// versions are generic over `StringProtocol` and walk the string's views).
enum FastText {
    static func nonBlank(_ s: String?) -> String? {
        guard var s else { return nil }
        // Printable ASCII at both ends: nothing to trim (as `WebAddress.trimmed` decides).
        let plainEnds = s.withUTF8 { b in
            guard let f = b.first, let l = b.last else { return false }
            return f > 0x20 && f < 0x7F && l > 0x20 && l < 0x7F
        }
        return plainEnds ? s : TextRules.nonBlank(s)
    }

    /// `nonBlank` of a text held as bytes, without a String when nothing is trimmed.
    static func nonBlank(_ t: UTF8Text) -> UTF8Text? {
        let plainEnds = t.withUTF8 { b in
            guard let f = b.first, let l = b.last else { return false }
            return f > 0x20 && f < 0x7F && l > 0x20 && l < 0x7F
        }
        return plainEnds ? t : nonBlank(t.string).map(UTF8Text.init)
    }

    static func collapseWhitespace(_ s: String) -> String {
        var s = s
        // Unchanged when every white space byte is a single space between two other characters.
        let unchanged = s.withUTF8 { b -> Bool in
            var previousSpace = true
            for c in b {
                let space = c == 0x20 || (c >= 0x09 && c <= 0x0D)
                if space && (previousSpace || c != 0x20) { return false }
                previousSpace = space
            }
            return !previousSpace
        }
        return unchanged ? s : TextRules.collapseWhitespace(s)
    }
}
