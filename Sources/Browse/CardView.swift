import FeedModel
import Markup
import Reader
import Storage

/// An open card as `feeds browse` shows it: its text as the reader renders it (`Digest`, plain:
/// the screen styles nothing inside it), then its links numbered for the keys 1-9. Images and
/// enclosures are in the reader's text already ([image], [audio] lines).
public enum CardView {
    /// At most this many links are listed (a page of hundreds of links stays one screen of them).
    public static let linkLimit = 99

    public static func render(_ stored: StoredCard, width: Int, now: Timestamp, zone: TimeZoneOffset) -> (lines: [String], links: [String]) {
        var digest = Digest(style: DigestStyle(width: width, mode: .plain), now: now)
        digest.zone = zone
        var lines = digest.block(stored).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        let links = self.links(stored.card)
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
    public static func links(_ card: Card) -> [String] {
        var found: [String] = []
        var seen = Set<String>()
        func add(_ url: String) {
            guard found.count < linkLimit, WebAddress(parsing: url).isWebURL, !seen.contains(url) else { return }
            seen.insert(url)
            found.append(url)
        }
        if let link = card.link { add(link) }
        if let description = card.description {
            // HTMLText writes a link as "text <url>": the URLs are what sits between < and >.
            let text = HTMLText.plainText(description)
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "<") {
                let after = rest[rest.index(after: open)...]
                guard let close = after.firstIndex(of: ">") else { break }
                let candidate = String(after[..<close])
                if !candidate.contains(" ") && !candidate.contains("\n") { add(candidate) }
                rest = after[after.index(after: close)...]
            }
        }
        return found.map(TerminalText.line)
    }
}
