import Browse
import FeedModel
import Reader
import Storage
import XCTest

/// The screen of `feeds browse` as text, from states built by hand: no terminal, no store.
final class BrowseDrawingTests: XCTestCase {
    /// 2026-11-29 12:00 UTC, card i an hour older than card i-1.
    static let noon = Timestamp(year: 2026, month: 11, day: 29, hour: 12)!

    static func card(_ i: Int, title: String? = nil, source: String = "Local", read: Bool = false,
                     description: String? = nil, link: String? = nil) -> StoredCard {
        let date = noon.adding(Int64(-3_600 * i))
        let card = Card(id: "card-\(i)", title: title ?? "Card \(i)", description: description,
                        link: link ?? "https://local.example/\(i)", published: date)
        return StoredCard(id: CardID(rawValue: Int64(i + 1)), card: card, key: CardKey(for: card), sourceID: SourceID(rawValue: 1),
                          sourceName: source, isRead: read, firstSeenAt: date, changedAt: date, lastSeenAt: date, sortDate: date)
    }

    static func state(cards: Int, width: Int = 60, height: Int = 8, order: CardOrder = .newest) -> BrowseState {
        var state = BrowseState(width: width, height: height, order: order)
        state.setCards((0..<cards).map { card($0, read: $0 % 3 == 1) }, keep: nil)
        return state
    }

    /// The screen's lines without the blanks that pad reverse-video lines across the screen.
    private func texts(_ state: BrowseState) -> [String] {
        BrowseDrawing.lines(state).map { String($0.text.reversed().drop(while: { $0 == " " }).reversed()) }
    }

    func testTheListScreen() {
        var state = Self.state(cards: 10)
        state.move(1)
        let lines = BrowseDrawing.lines(state)
        XCTAssertEqual(texts(state), [
            "feeds browse · 2/10 · newest first; cards without a date la…",
            "N 2026-11-29 12:00  Local  Card 0",
            "  2026-11-29 11:00  Local  Card 1",
            "N 2026-11-29 10:00  Local  Card 2",
            "N 2026-11-29 09:00  Local  Card 3",
            "  2026-11-29 08:00  Local  Card 4",
            "N 2026-11-29 07:00  Local  Card 5",
            "j/k move  Enter open  o browser  r read  n/p unread  / sear…",
        ])
        XCTAssertEqual(lines.count, 8, "exactly the screen's rows")
        XCTAssertTrue(lines[0].reverse, "the title bar")
        XCTAssertEqual(lines[0].text.count, 60, "reverse lines are padded across the screen")
        XCTAssertEqual(lines.indices.filter { lines[$0].reverse }, [0, 2], "the bar and the selected row")
        XCTAssertEqual(lines[1...6].map(\.bold), [true, false, true, true, false, true], "unread rows in bold")
    }

    func testMovingPastTheScreenScrollsByAsLittleAsNeeded() {
        var state = Self.state(cards: 10)
        state.move(7)
        XCTAssertEqual(state.top, 2)
        XCTAssertEqual(texts(state)[1], "N 2026-11-29 10:00  Local  Card 2")
        XCTAssertEqual(texts(state)[6], "  2026-11-29 05:00  Local  Card 7")
        XCTAssertTrue(BrowseDrawing.lines(state)[6].reverse)
        state.move(Int.max)
        XCTAssertEqual(state.selected, 9)
        XCTAssertEqual(texts(state)[6], "N 2026-11-29 03:00  Local  Card 9")
        state.move(Int.min)
        XCTAssertEqual([state.selected, state.top], [0, 0])
        XCTAssertEqual(texts(state)[0], "feeds browse · 1/10 · newest first; cards without a date la…")
    }

    func testKeepingACardAfterTheListChangesCentresIt() {
        var state = Self.state(cards: 40)
        let wanted = Self.card(30).id
        state.setCards((0..<40).reversed().map { Self.card($0) }, keep: wanted)
        XCTAssertEqual(state.selectedCard?.id, wanted, "the same card stays selected")
        XCTAssertTrue((state.top..<(state.top + state.bodyRows)).contains(state.selected), "and in view")
        XCTAssertEqual(texts(state)[0], "feeds browse · 10/40 · newest first; cards without a date l…")
    }

    func testASliceOfALongListingShowsItsPlaceInTheWhole() {
        var state = BrowseState(width: 60, height: 8, order: .newest)
        state.setSlice((100..<140).map { Self.card($0) }, offset: 100, total: 100_000, select: 120, top: 118)
        XCTAssertEqual(state.selectedCard?.card.title, "Card 120")
        XCTAssertEqual(state.position, 120)
        XCTAssertEqual(texts(state)[0], "feeds browse · 121/100000 · newest first; cards without a d…")
        XCTAssertEqual(texts(state)[1], "N 2026-11-24 14:00  Local  Card 118", "the row on top stays on top")
        XCTAssertTrue(BrowseDrawing.lines(state)[3].reverse)
    }

    func testAnOpenCard() {
        var state = Self.state(cards: 3, width: 50, height: 8)
        let card = Self.card(2, description: "<p>A short text with <a href=\"https://other.example/x\">a link</a>.</p>")
        let view = CardView.render(card, width: 50, now: Self.noon, zone: .utc)
        state.move(2)
        state.cardLines = view.lines
        state.links = view.links
        state.mode = .card
        XCTAssertEqual(view.links, ["https://local.example/2", "https://other.example/x"])
        XCTAssertEqual(texts(state), [
            "feeds browse · 3/3 · Local · unread · lines 1-6 o…",
            "Card 2",
            "  Local · 2h ago · #3",
            "  https://local.example/2",
            "",
            "  A short text with a link [2].",
            "",
            "j/k scroll  1-9 link  o browser  r read  n/p unre…",
        ])
        state.scrollCard(Int.max)
        XCTAssertEqual(texts(state)[1...6], [
            "",
            "  A short text with a link [2].",
            "",
            "  Links:",
            "  [1] https://local.example/2",
            "  [2] https://other.example/x",
        ])
        XCTAssertEqual(texts(state)[0], "feeds browse · 3/3 · Local · unread · lines 4-9 o…")
    }

    func testTheChooserListsTheRegistrysLabelsAndMarksTheCurrentOne() {
        var state = Self.state(cards: 3, width: 70, height: 10, order: .oldest)
        state.chooserIndex = 2
        state.mode = .chooser
        let lines = BrowseDrawing.lines(state)
        XCTAssertEqual(texts(state)[1...6], [
            "Sort order (* the current one):",
            "",
            "   newest  " + CardOrder.newest.label,
            " * oldest  " + CardOrder.oldest.label,
            "   source  " + CardOrder.source.label,
            "   title   " + CardOrder.title.label,
        ])
        XCTAssertFalse(lines.contains { $0.text.contains("relevance") }, "relevance only while searching")
        XCTAssertTrue(lines[5].reverse, "the row the chooser is on")
        state.search = "copper"
        XCTAssertEqual(texts(state)[7], "   relevance  " + CardOrder.relevance.label)
        XCTAssertEqual(state.orders, CardOrder.all)
    }

    func testPromptHelpAndEmptyLists() {
        var state = Self.state(cards: 2)
        state.mode = .prompt(.search)
        state.typed = "café\u{1B}[2J"
        XCTAssertEqual(texts(state).last, "/café\\x1b[2J_", "what is typed is drawn neutralised")
        state.mode = .help
        XCTAssertEqual(texts(state)[0], "feeds browse · keys")
        XCTAssertTrue(texts(state).contains { $0.contains("Enter        open the card") })
        var empty = BrowseState(width: 40, height: 5, order: .newest)
        XCTAssertEqual(texts(empty)[1], "  no cards")
        empty.search = "zzz"
        XCTAssertEqual(texts(empty)[1], "  no card matches zzz")
        XCTAssertEqual(texts(empty)[0], "feeds browse · 0 cards · newest first; …")
    }

    /// Hostile values of every class in every field a screen shows: no control character, no
    /// bidi override reaches the screen, and no line is wider than the screen.
    func testHostileTextNeverReachesTheScreenAndNoLineIsWider() {
        let hostile = ["\u{1B}[2J\u{1B}]0;pwned\u{07}", "\u{9B}31m", "abc\u{202E}fed", "tab\there\nnew\rline",
                       "漢字の見出しがとても長い漢字の見出しがとても長い漢字の見出し", "👩‍👩‍👧‍👦 family 🇫🇷", "e\u{301}\u{301}\u{301}",
                       String(repeating: "x", count: 500), "\u{0}\u{7F}\u{85}", "\u{2028}\u{2029}\u{200F}"]
        for (i, text) in hostile.enumerated() {
            for width in [12, 40, 80] {
                let cards = [Self.card(0, title: text), Self.card(1, source: text),
                             Self.card(2, description: text, link: "https://x.example/" + text)]
                var state = BrowseState(width: width, height: 6, order: .newest)
                state.setCards(cards, keep: nil)
                state.search = text
                state.tag = text
                state.message = i % 2 == 0 ? text : nil
                var screens = [BrowseDrawing.lines(state)]
                state.move(2)
                let view = CardView.render(state.selectedCard!, width: width, now: Self.noon, zone: .utc)
                state.cardLines = view.lines
                state.mode = .card
                screens.append(BrowseDrawing.lines(state))
                state.mode = .prompt(.tag)
                state.typed = text
                screens.append(BrowseDrawing.lines(state))
                for line in screens.joined() {
                    XCTAssertFalse(line.text.unicodeScalars.contains(where: TerminalText.isNeutralised), "\(i) at \(width): \(line.text)")
                    XCTAssertLessThanOrEqual(DisplayWidth.of(line.text), width, "\(i) at \(width): \(line.text)")
                }
            }
        }
    }

    func testTheFrameDrawsEveryLineAtItsRow() {
        let frame = BrowseDrawing.frame([ScreenLine("bar", bold: true, reverse: true), ScreenLine("row")])
        XCTAssertEqual(frame, "\u{1B}[H\u{1B}[1;1H\u{1B}[2K\u{1B}[1;7mbar\u{1B}[0m\u{1B}[2;1H\u{1B}[2Krow\u{1B}[?25l")
    }
}
