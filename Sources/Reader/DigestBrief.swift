import FeedModel
import Markup
import Storage

/// `feeds read --brief`: one line a card, as `sfeed_plain` or newsboat's article list.
///
///     N 2026-11-29 17:42  Local     Café au lait  #42
///
/// `N` marks an unread card; date and time are the card's (its first sighting when undated) in
/// the reader's zone; then the source (padded to one column, at most 20 wide), the title and the
/// id `feeds mark` takes. On a terminal the title is cut to the width and styled (bold when
/// unread); piped, lines are whole and plain.
public struct BriefList {
    public var style: DigestStyle
    public var zone: TimeZoneOffset

    public init(style: DigestStyle, zone: TimeZoneOffset = .utc) {
        self.style = style
        self.zone = zone
    }

    static let sourceWidthLimit = 20

    public func layout(_ cards: [StoredCard], grouping: Digest.Grouping = .none) -> RenderedCards {
        var out = RenderedCards()
        let sourceWidth = min(Self.sourceWidthLimit, cards.map { DisplayWidth.of(oneLine($0.sourceName)) }.max() ?? 0)
        for (heading, members) in Digest.groups(cards, grouping, zone: zone) {
            if let heading {
                if out.byteCount > 0 { out.append("\n") }
                out.append(style.styled("== " + TerminalText.line(heading) + " (\(members.count))", .header) + "\n")
            }
            for index in members { out.append(line(cards[index], sourceWidth: sourceWidth) + "\n", card: index) }
        }
        return out
    }

    func line(_ stored: StoredCard, sourceWidth: Int) -> String {
        let flag = stored.isRead ? " " : "N"
        let when = Age.minute(stored.sortDate, zone: zone)
        let source = Self.fit(oneLine(stored.sourceName), to: sourceWidth, pad: true)
        let id = "#\(stored.id.rawValue)"
        var title = oneLine(stored.card.displayTitle(plainText: { HTMLText.plainText($0) }))
        if style.mode != .plain {
            // Everything but the title is ASCII or already fitted: what is left is the title's.
            let used = 2 + when.count + 2 + sourceWidth + 2 + 2 + id.count
            title = Self.fit(title, to: max(10, style.width - used), pad: false)
        }
        return flag + " " + style.styled(when, .meta) + "  " + style.styled(source, .link) + "  "
            + (stored.isRead ? title : style.styled(title, .title)) + "  " + style.styled(id, .meta)
    }

    /// One card's row for a full-screen list (`feeds browse`) of `style.width` columns: the brief
    /// line without the id, plain (the screen styles it), its title cut to fit.
    public func screenRow(_ stored: StoredCard, sourceWidth: Int) -> String {
        let flag = stored.isRead ? " " : "N"
        let source = Self.fit(oneLine(stored.sourceName), to: sourceWidth, pad: true)
        let head = flag + " " + Age.minute(stored.sortDate, zone: zone) + "  " + source + "  "
        let title = oneLine(stored.card.displayTitle(plainText: { HTMLText.plainText($0) }))
        return head + Self.fit(title, to: max(1, style.width - DisplayWidth.of(head)), pad: false)
    }

    /// The width of the source column for `cards`: the widest name, at most 20.
    public static func sourceWidth(_ cards: some Sequence<StoredCard>) -> Int {
        var names = Set<String>()
        for card in cards { names.insert(card.sourceName) }
        return min(sourceWidthLimit, names.map { DisplayWidth.of(TerminalText.line(TextRules.collapseWhitespace($0))) }.max() ?? 0)
    }

    /// One line of text from outside: white space folded, controls neutralised (TerminalText).
    private func oneLine(_ s: String) -> String { TerminalText.line(TextRules.collapseWhitespace(s)) }

    /// `s` cut to `width` display columns (an ellipsis where cut), padded with spaces if asked.
    public static func fit(_ s: String, to width: Int, pad: Bool) -> String {
        guard width > 0 else { return "" }
        var out = ""
        var used = 0
        let total = DisplayWidth.of(s)
        if total <= width {
            return pad ? s + String(repeating: " ", count: width - total) : s
        }
        for c in s {
            let w = DisplayWidth.of(character: c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        out += "…"
        used += 1
        return pad && used < width ? out + String(repeating: " ", count: width - used) : out
    }
}
