import FeedModel
import Markup
import Storage

/// Cards as a digest for the terminal: one block per card, wrapped to the width by display
/// columns, optionally under group headings. Pure: it reads cards and returns text.
///
///     Title of the card (bold on a terminal)
///       Source name · 3h ago · #42
///       https://example.org/link
///
///       The description as plain text, wrapped, with paragraphs, lists (• and 1.) and
///       links (text <url>) kept readable.
///       [image] https://example.org/picture.jpg
///       [audio] https://example.org/episode.mp3 (30.0 MB)
///
/// A card without a title is shown by the start of its text (else its link). Blocks are
/// separated by one blank line.
public struct Digest {
    public enum Grouping: String, CaseIterable, Sendable {
        case none, source, day
    }

    public var style: DigestStyle
    /// What "3h ago" counts from.
    public var now: Timestamp
    /// Words of a search to highlight (styled modes only).
    public var highlight: SearchHighlight?
    /// The zone of dates and `--group day` (UTC unless the caller gives the local one).
    public var zone: TimeZoneOffset = .utc

    public init(style: DigestStyle, now: Timestamp, highlight: SearchHighlight? = nil) {
        self.style = style
        self.now = now
        self.highlight = highlight
    }

    static let indent = "  "

    /// The whole digest. Groups come in the order their first card has in `cards`, and keep the
    /// cards' order inside.
    public func render(_ cards: [StoredCard], grouping: Grouping = .none) -> String {
        layout(cards, grouping: grouping).text
    }

    /// One card's lines, each ending in "\n".
    /// Every string from the card goes through `TerminalText` here, before any styling.
    public func block(_ stored: StoredCard) -> String {
        block(stored, plainText: stored.card.description.map { HTMLText.plainText($0) })
    }

    /// `block` with the card's description as plain text already (`HTMLText.plainText`, then
    /// changed by the caller: `feeds browse` numbers its links).
    public func block(_ stored: StoredCard, plainText: String?) -> String {
        let card = stored.card
        let text = plainText.map { TerminalText.lines($0) } ?? ""
        var lines: [String] = []
        let title: String
        if let t = card.title, !t.isEmpty {
            title = TerminalText.line(t)
        } else if !text.isEmpty {
            title = TextRules.truncate(TextRules.collapseWhitespace(text), to: 80)
        } else {
            title = TerminalText.line(card.link ?? "(untitled)")
        }
        for line in TextWrap.wrap(mark(title), width: style.width) { lines.append(style.styled(line, .title)) }

        var meta = [TerminalText.line(stored.sourceName)]
        if let date = card.published ?? card.updated { meta.append(Age.describe(date, now: now, zone: zone)) } else { meta.append("undated") }
        if let author = card.author, !author.isEmpty { meta.append(TerminalText.line(author)) }
        meta.append("#\(stored.id.rawValue)")
        if stored.isRead { meta.append("read") }
        for line in TextWrap.wrap(meta.joined(separator: " · "), width: style.width, indent: Self.indent) {
            lines.append(style.styled(line, .meta))
        }
        if let link = card.link.map(TerminalText.line), link != title {
            for line in TextWrap.wrap(link, width: style.width, indent: Self.indent) { lines.append(style.styled(line, .link)) }
        }
        if !text.isEmpty {
            lines.append("")
            lines += TextWrap.wrap(mark(text), width: style.width, indent: Self.indent)
        }
        if let image = card.image.map(TerminalText.line) {
            if text.isEmpty { lines.append("") }
            for line in TextWrap.wrap("[image] " + image, width: style.width, indent: Self.indent) {
                lines.append(style.styled(line, .image))
            }
        }
        let enclosures = DigestEnclosures.lines(card)
        if !enclosures.isEmpty && text.isEmpty && card.image == nil { lines.append("") }
        for enclosure in enclosures {
            for line in TextWrap.wrap(enclosure, width: style.width, indent: Self.indent) { lines.append(style.styled(line, .image)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func mark(_ text: String) -> String {
        guard let highlight, style.mode != .plain else { return text }
        return highlight.apply(to: text) { style.styled($0, .match) }
    }
}
