import FeedModel
import Reader
import Storage

/// One line of the screen: its text (at most the screen's width in display columns) and how
/// it is shown.
public struct ScreenLine: Equatable, Sendable {
    public var text: String
    public var bold = false
    public var reverse = false

    public init(_ text: String, bold: Bool = false, reverse: Bool = false) {
        self.text = text
        self.bold = bold
        self.reverse = reverse
    }
}

/// The screen of `feeds browse` from its state: a pure function, tested by its text alone.
///
///     feeds browse · 3/60 · newest first; cards without a date last        (title bar)
///     N 2026-11-29 17:42  Local  Card 0                                    (one card a row;
///     N 2026-11-29 16:42  Local  Card 1                                     N: unread, bold)
///     ...
///     j/k move  Enter open  o browser  r read  n/p unread  / search ...    (status line)
///
/// Every text from outside on it went through `TerminalText` (the rows through `BriefList`,
/// the card through `Digest`, what a person typed and messages here).
public enum BrowseDrawing {
    public static func lines(_ state: BrowseState) -> [ScreenLine] {
        let width = max(1, state.width)
        var body: [ScreenLine]
        var title: String
        switch state.mode {
        case .card:
            title = cardTitle(state)
            body = state.cardLines.dropFirst(state.cardScroll).prefix(state.bodyRows).map { ScreenLine($0) }
        case .chooser:
            title = "feeds browse · sort order"
            body = chooser(state)
        case .help:
            title = "feeds browse · keys"
            body = help.map { ScreenLine($0) }
        case .list, .prompt:
            title = listTitle(state)
            body = list(state)
        }
        body = Array(body.prefix(state.bodyRows))
        while body.count < state.bodyRows { body.append(ScreenLine("")) }
        var screen = [ScreenLine(title, bold: true, reverse: true)] + body + [status(state)]
        if state.height < 2 { screen = Array(screen.prefix(max(1, state.height))) }
        return screen.map { line in
            var fitted = line
            fitted.text = BriefList.fit(line.text, to: width, pad: line.reverse)
            return fitted
        }
    }

    /// The bytes that show `lines` on an ANSI terminal: each line at its row, the row erased
    /// first (erasing after a line as wide as the screen would take its last character: the
    /// cursor stays on the last column until the next character), styles reset after it. The
    /// whole screen every time: a few kilobytes. It ends by hiding the cursor again (after a
    /// terminal reset, say), which is also what tells a reader of the bytes (the bench) that a
    /// frame is complete.
    public static func frame(_ lines: [ScreenLine]) -> String {
        var out = "\u{1B}[H"
        for (row, line) in lines.enumerated() {
            out += "\u{1B}[\(row + 1);1H\u{1B}[2K"
            var codes: [String] = []
            if line.bold { codes.append("1") }
            if line.reverse { codes.append("7") }
            if !codes.isEmpty { out += "\u{1B}[" + codes.joined(separator: ";") + "m" }
            out += line.text
            if !codes.isEmpty { out += "\u{1B}[0m" }
        }
        return out + "\u{1B}[?25l"
    }

    static func listTitle(_ state: BrowseState) -> String {
        var parts = ["feeds browse"]
        parts.append(state.cards.isEmpty ? "0 cards" : "\(state.position + 1)/\(state.total)")
        parts.append(state.order.label)
        if let search = state.search { parts.append("search: " + TerminalText.line(search)) }
        if let tag = state.tag { parts.append("tag: " + TerminalText.line(tag)) }
        if let source = state.sourceName { parts.append("source: " + TerminalText.line(source)) }
        if let since = state.sinceText { parts.append("since " + TerminalText.line(since)) }
        if state.unreadOnly { parts.append("unread only") }
        return parts.joined(separator: " · ")
    }

    static func cardTitle(_ state: BrowseState) -> String {
        guard let card = state.selectedCard else { return "feeds browse" }
        var parts = ["feeds browse", "\(state.position + 1)/\(state.total)",
                     TerminalText.line(card.sourceName), card.isRead ? "read" : "unread"]
        let last = min(state.cardLines.count, state.cardScroll + state.bodyRows)
        if state.cardLines.count > state.bodyRows { parts.append("lines \(state.cardScroll + 1)-\(last) of \(state.cardLines.count)") }
        return parts.joined(separator: " · ")
    }

    static func list(_ state: BrowseState) -> [ScreenLine] {
        guard !state.cards.isEmpty else {
            if let search = state.search { return [ScreenLine("  no card matches " + TerminalText.line(search))] }
            return [ScreenLine(state.unreadOnly ? "  no unread cards" : "  no cards")]
        }
        let brief = BriefList(style: DigestStyle(width: state.width, mode: .plain), zone: state.zone)
        let shown = state.cards.indices.dropFirst(state.top).prefix(state.bodyRows)
        return shown.map { index in
            let card = state.cards[index]
            return ScreenLine(brief.screenRow(card, sourceWidth: state.sourceWidth),
                              bold: !card.isRead, reverse: index == state.selected)
        }
    }

    static func chooser(_ state: BrowseState) -> [ScreenLine] {
        let orders = state.orders
        let nameWidth = orders.map(\.name.count).max() ?? 0
        var out = [ScreenLine("Sort order (* the current one):"), ScreenLine("")]
        for (index, order) in orders.enumerated() {
            let mark = order == state.order ? "*" : " "
            let name = order.name + String(repeating: " ", count: nameWidth - order.name.count)
            out.append(ScreenLine(" \(mark) \(name)  \(order.label)", reverse: index == state.chooserIndex))
        }
        return out
    }

    static let help = [
        "In the list                          In a card",
        "  j k, arrows  move                    j k, arrows  scroll",
        "  PgUp PgDn    a screen up, down       PgUp PgDn, space  a screen",
        "  Home End     first, last card        1-9          open link [n] in the browser",
        "  Enter        open the card           o            open the card's link",
        "  o            open its link ($BROWSER, else xdg-open)",
        "  r            read / unread           r            read / unread",
        "  n p          next, previous unread   n p          open next, previous unread",
        "  /            full-text search        q, Esc       back to the list",
        "  t s          filter by tag, source",
        "  S            next sort order         (Enter on an empty prompt clears it;",
        "  O            choose the sort order    Esc leaves it as it was)",
        "  R            reload (new cards)",
        "  ?            these keys",
        "  q            quit (Ctrl-C too)",
        "",
        "A card is marked read when it is opened. Searches: words, \"a phrase\", prefix*,",
        "AND, OR, NOT, title:word, author:word (as 'feeds search').",
    ]

    static func status(_ state: BrowseState) -> ScreenLine {
        if case .prompt(let prompt) = state.mode {
            return ScreenLine(prompt.rawValue + TerminalText.line(state.typed) + "_")
        }
        if let message = state.message { return ScreenLine(TerminalText.line(message), bold: true) }
        switch state.mode {
        case .card: return ScreenLine("j/k scroll  1-9 link  o browser  r read  n/p unread  q back  ? keys")
        case .chooser: return ScreenLine("j/k move  Enter choose  q back")
        case .help: return ScreenLine("q back")
        default: return ScreenLine("j/k move  Enter open  o browser  r read  n/p unread  / search  t/s filter  S/O sort  ? keys  q quit")
        }
    }
}
