import FeedModel
import Markup
import Reader
import Storage

/// An open card as `feeds browse` shows it: its text as the reader renders it (`Digest`, plain:
/// the screen styles nothing inside it), its links numbered for the keys 1-9: `[1]` the card's
/// own link, then those of its text, where the reader writes `text <url>` written `text [2]`,
/// and listed with their URLs after the text. Images and enclosures are in the reader's text
/// already ([image], [audio] lines).
public enum CardView {
    /// At most this many links are listed (a page of hundreds of links stays one screen of them).
    public static let linkLimit = 99

    public static func render(_ stored: StoredCard, width: Int, now: Timestamp, zone: TimeZoneOffset) -> (lines: [String], links: [String]) {
        var digest = Digest(style: DigestStyle(width: width, mode: .plain), now: now)
        digest.zone = zone
        let (links, text) = numbered(stored.card)
        var lines = digest.block(stored, plainText: text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        if !links.isEmpty {
            lines += ["", "  Links:"]
            for (index, link) in links.enumerated() {
                lines += TextWrap.wrap("[\(index + 1)] " + link, width: width, indent: "  ")
            }
        }
        return (lines, links)
    }

    /// The card's web links: its own link first, then those of its text in their order, each
    /// once, neutralised for the terminal. Only http(s) URLs: nothing else is handed to a browser
    /// (a `-flag` or `file:` from a feed is never an argument of one).
    public static func links(_ card: Card) -> [String] { numbered(card).links }

    /// The links (as `links`) and the card's plain text with each listed link's `<url>` written
    /// as its number, `[n]` (a link past the limit, or not a web link, stays as it was).
    static func numbered(_ card: Card) -> (links: [String], text: String?) {
        var found: [String] = []
        var number: [String: Int] = [:]
        func add(_ url: String) -> Int? {
            if let known = number[url] { return known }
            guard found.count < linkLimit, WebAddress(parsing: url).isWebURL else { return nil }
            found.append(url)
            number[url] = found.count
            return found.count
        }
        if let link = card.link { _ = add(link) }
        guard let description = card.description else { return (found.map(TerminalText.line), nil) }
        // HTMLText writes a link as "text <url>": the URLs are what sits between < and >.
        let text = HTMLText.plainText(description)
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: ">") else { break }
            let candidate = String(after[..<close])
            out += rest[..<open]
            if !candidate.contains(" ") && !candidate.contains("\n"), let n = add(candidate) {
                out += "[\(n)]"
            } else {
                out += rest[open...close]
            }
            rest = after[after.index(after: close)...]
        }
        return (found.map(TerminalText.line), out + rest)
    }
}
