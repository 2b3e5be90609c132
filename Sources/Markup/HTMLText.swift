import CLibXML2
import FeedModel

/// Readable plain text from HTML, for a terminal reader (which wraps it) and for titles.
///
/// - block elements start a new line; paragraphs, headings, lists, tables, quotes and `pre`
///   are separated by one blank line; `<br>` breaks the line;
/// - list items start with "• " (ordered lists: "1. ", honouring `start`), nested lists are
///   indented by two spaces per level; table cells of a row are joined by " | ";
/// - entities are decoded; script, style, head, forms and the other dropped elements of
///   `HTMLPolicy` give no text; images give none either;
/// - links read `text <url>` when the (absolute http, https or mailto) URL differs from the text;
/// - runs of white space (including no-break spaces) collapse to one space inside lines, except
///   in `pre`; lines carry no trailing spaces; at most one blank line in a row; no leading or
///   trailing blank lines.
public enum HTMLText {
    /// The readable text of an HTML fragment.
    /// With `linkURLs` false, a link gives its text only (an excerpt on a page, where a URL in
    /// angle brackets reads as noise: HN's `Comments <https://...>`).
    public static func plainText(_ html: String, linkURLs: Bool = true) -> String {
        // A `<` that starts no tag, comment or declaration ("x < y", "a <3") is text to libxml2
        // too: such titles need no parse.
        if !startsMarkup(html) { return plainTextWithoutMarkup(html) }
        return plainTextWithLibXML(html, linkURLs: linkURLs)
    }

    static func plainTextWithLibXML(_ html: String, linkURLs: Bool = true) -> String {
        guard let document = HTMLDocument(html, fragment: true) else { return "" }
        var writer = TextWriter()
        writer.linkURLs = linkURLs
        Node.walk(from: document.firstNode, enter: { node, _ in writer.enter(node) }, leave: { node, _ in writer.leave(node) })
        return writer.finish()
    }

    /// Whether some `<` in `html` is followed by what makes libxml2's HTML parser read markup:
    /// a letter (a start tag), `/` (an end tag), `!` or `?` (comments, declarations).
    static func startsMarkup(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { b in
            guard b.count > 1 else { return false }
            for i in 0..<(b.count - 1) where b[i] == UInt8(ascii: "<") {
                let c = b[i + 1]
                if (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == UInt8(ascii: "/") || c == UInt8(ascii: "!") || c == UInt8(ascii: "?") {
                    return true
                }
            }
            return false
        }
    }

    /// The fast path for text without tags: references decoded; blank lines separate
    /// paragraphs, other white space collapses to single spaces (as HTML would render it, but
    /// keeping the paragraphs of text that was written as plain text).
    static func plainTextWithoutMarkup(_ text: String) -> String {
        let decoded = HTMLEntities.decode(MarkupLimits.truncated(text))
        var writer = TextWriter()
        var newlines = 0
        for scalar in decoded.unicodeScalars {
            if scalar == "\n" { newlines += 1; writer.space(); continue }
            if scalar == "\r" { continue }
            if newlines >= 2 { writer.requestBreak(2) }
            if !TextWriter.isSpace(scalar) { newlines = 0 }
            writer.append(scalar)
        }
        return writer.finish()
    }
}

/// Builds the text line by line.
struct TextWriter {
    private var out: [Unicode.Scalar] = []
    /// Line breaks owed before the next visible character (1: new line, 2: blank line).
    private var pendingBreak = 0
    private var pendingSpace = false
    private var pendingSeparator: String?
    /// Open lists: ordered?, next number.
    private var lists: [(ordered: Bool, next: Int)] = []
    /// Inside `pre` (depth).
    private var preformatted = 0
    /// Whether a link's URL follows its text (`text <url>`).
    var linkURLs = true
    /// Open links: href, and where their text starts in `out`.
    private var links: [(href: String?, start: Int)] = []
    private var lineIsEmpty: Bool { out.isEmpty || out.last == "\n" }

    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0C}" }
        return s == "\u{A0}" || s.properties.isWhitespace
    }

    mutating func requestBreak(_ n: Int) {
        pendingBreak = max(pendingBreak, n)
        pendingSpace = false
        pendingSeparator = nil
    }

    mutating func space() { if !lineIsEmpty || pendingBreak > 0 { pendingSpace = true } }

    /// Writes what is owed, then `scalar`.
    mutating func append(_ scalar: Unicode.Scalar) {
        if TextWriter.isSpace(scalar) { space(); return }
        if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) { return }
        flushPending()
        out.append(scalar)
    }

    private mutating func flushPending() {
        if pendingBreak > 0 {
            if !out.isEmpty {
                trimTrailingSpaces()
                let have = out.last == "\n" ? (out.count >= 2 && out[out.count - 2] == "\n" ? 2 : 1) : 0
                for _ in 0..<max(0, pendingBreak - have) { out.append("\n") }
            }
            pendingBreak = 0
            pendingSpace = false
            writeIndent()
        } else if let sep = pendingSeparator, !lineIsEmpty {
            out.append(contentsOf: sep.unicodeScalars)
            pendingSpace = false
        } else if pendingSpace && !lineIsEmpty {
            out.append(" ")
        }
        pendingSeparator = nil
        pendingSpace = false
    }

    private mutating func writeIndent() {
        if lists.count > 1 { out.append(contentsOf: String(repeating: "  ", count: lists.count - 1).unicodeScalars) }
    }

    private mutating func trimTrailingSpaces() {
        while let last = out.last, last == " " || last == "\t" { out.removeLast() }
    }

    /// A line break from `<br>`: always a new line (at most one blank line in a row).
    mutating func lineBreak() {
        pendingSpace = false
        pendingSeparator = nil
        trimTrailingSpaces()
        if out.isEmpty { return }
        if out.count >= 2 && out.last == "\n" && out[out.count - 2] == "\n" { return }
        if pendingBreak > 0 { flushPending() } else { out.append("\n") }
    }

    mutating func text(_ s: String) {
        if preformatted > 0 {
            for scalar in s.unicodeScalars {
                if scalar == "\n" { lineBreakInPre(); continue }
                if scalar == "\r" { continue }
                if scalar == " " || scalar == "\t" { flushPending(); out.append(scalar); continue }
                append(scalar)
            }
        } else {
            for scalar in s.unicodeScalars { append(scalar) }
        }
    }

    private mutating func lineBreakInPre() {
        flushPending()
        out.append("\n")
    }

    /// `<ol start>` and `<li value>` read from a feed: list numbers people write (the rest is
    /// no number, and counting on from the last one saturates).
    static let listNumbers: ClosedRange<Int64> = -1_000_000_000...1_000_000_000

    static let blankLineBlocks: Set<String> = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "figure", "dl", "hr",
        "ul", "ol", "address", "details", "section", "article", "aside", "header", "footer", "center",
    ]
    static let lineBlocks: Set<String> = [
        "div", "li", "dt", "dd", "tr", "caption", "figcaption", "summary", "thead", "tbody", "tfoot",
        "main", "nav", "form", "fieldset", "legend", "body", "html",
    ]

    mutating func enter(_ node: xmlNodePtr) -> Bool {
        if Node.isText(node) {
            if let c = node.pointee.content { text(String(cString: c)) }
            return false
        }
        guard Node.isElement(node) else { return false }
        let name = Node.name(node)
        if HTMLPolicy.droppedElements.contains(name) { return false }
        switch name {
        case "br":
            lineBreak()
        case "li":
            requestBreak(1)
            flushPending()
            if var list = lists.popLast() {
                if list.ordered {
                    if case let .some(.some(v)) = Node.attribute(node, "value"), let n = OutsideNumber.int(v, in: TextWriter.listNumbers) { list.next = n }
                    out.append(contentsOf: "\(list.next). ".unicodeScalars)
                    list.next = list.next.saturatingAdd(1)
                } else {
                    out.append(contentsOf: "• ".unicodeScalars)
                }
                lists.append(list)
            } else {
                out.append(contentsOf: "• ".unicodeScalars)
            }
        case "ul", "ol", "menu", "dir":
            requestBreak(lists.isEmpty ? 2 : 1)
            var start = 1
            if name == "ol", case let .some(.some(v)) = Node.attribute(node, "start"), let n = OutsideNumber.int(v, in: TextWriter.listNumbers) { start = n }
            lists.append((name == "ol", start))
        case "td", "th":
            if !lineIsEmpty || pendingSpace { pendingSeparator = " | " }
        case "pre":
            requestBreak(2)
            preformatted += 1
        case "a":
            var href: String?
            if case let .some(.some(v)) = Node.attribute(node, "href"), let url = HTMLPolicy.safeURL(v, base: nil),
               HTMLPolicy.scheme(of: url) != nil {
                href = url
            }
            links.append((href, out.count))
        case "img":
            break
        default:
            if TextWriter.blankLineBlocks.contains(name) { requestBreak(2) }
            else if TextWriter.lineBlocks.contains(name) { requestBreak(1) }
        }
        return true
    }

    mutating func leave(_ node: xmlNodePtr) {
        let name = Node.name(node)
        switch name {
        case "ul", "ol", "menu", "dir":
            lists.removeLast()
            requestBreak(lists.isEmpty ? 2 : 1)
        case "pre":
            preformatted -= 1
            requestBreak(2)
        case "li":
            requestBreak(1)
        case "a":
            guard let link = links.popLast(), let href = link.href, linkURLs else { return }
            let start = min(link.start, out.count)
            var same = false
            // Only a text about as long as the URL can be the URL (and copying stays cheap).
            if out.count - start <= href.unicodeScalars.count + 16 {
                var text = ""
                text.unicodeScalars.append(contentsOf: out[start...])
                same = TextWriter.comparable(text) == TextWriter.comparable(href)
            }
            if !same {
                if out[start...].contains(where: { !TextWriter.isSpace($0) }) { space() }
                for s in "<\(href)>".unicodeScalars { append(s) }
            }
        default:
            if TextWriter.blankLineBlocks.contains(name) { requestBreak(2) }
            else if TextWriter.lineBlocks.contains(name) { requestBreak(1) }
        }
    }

    /// A link text and its URL are "the same" when they match without scheme, `www.`,
    /// `mailto:` and trailing slash, ignoring case.
    static func comparable(_ s: String) -> String {
        var t = Substring(s.trimmingSpaces.lowercased())
        for prefix in ["mailto:", "https://", "http://", "www."] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        while t.hasSuffix("/") { t = t.dropLast() }
        return String(t)
    }

    mutating func finish() -> String {
        trimTrailingSpaces()
        while out.last == "\n" || out.last == " " { out.removeLast() }
        var bytes = [UInt8]()
        bytes.reserveCapacity(out.count + out.count / 4)
        for scalar in out.drop(while: { $0 == "\n" }) { UTF8.encode(scalar) { bytes.append($0) } }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return s
    }
}
