import FeedModel
import Reader
import Storage

/// Everything `feeds browse` shows, as a value: the drawing (`BrowseDrawing`) is a pure
/// function of it, the key loop (`BrowseSession`) changes it and does what it asks of the
/// store, the terminal and the browser.
public struct BrowseState {
    public enum Mode: Equatable, Sendable {
        /// The list of cards, one line each.
        case list
        /// One card's text, scrolled by `cardScroll`.
        case card
        /// The sort orders by their labels, the current one marked.
        case chooser
        /// The keys.
        case help
        /// A line typed at the bottom (search, tag, source).
        case prompt(Prompt)
    }

    public enum Prompt: String, Sendable {
        case search = "/", tag = "tag: ", source = "source: "
    }

    public var width: Int
    public var height: Int
    public var zone: TimeZoneOffset

    /// The cards read from the store: a slice of the listing, from its `offset`-th card (the
    /// listing of any length is kept as ids by the session; only this slice has text).
    public private(set) var cards: [StoredCard] = []
    public private(set) var offset = 0
    /// How many cards the listing has.
    public private(set) var total = 0
    /// The width of the source column, from the slice (not measured at every redraw).
    public private(set) var sourceWidth = 0
    /// The selected card and the first row shown, as indices of `cards`.
    public var selected = 0
    public var top = 0
    public var mode = Mode.list
    /// Where `q`/Esc goes back to from help or the chooser.
    public var previousMode = Mode.list

    public var order: CardOrder
    /// The search text while a search is active.
    public var search: String?
    /// The filters, as the person gave them (shown in the title bar).
    public var tag: String?
    public var sourceName: String?
    public var unreadOnly = false
    public var sinceText: String?

    /// A message for the status line (an error, "marked read"), shown until the next key.
    public var message: String?
    /// What is being typed at a prompt.
    public var typed = ""

    /// The open card's lines (rendered by the session at the screen's width) and its links.
    public var cardLines: [String] = []
    public var links: [String] = []
    public var cardScroll = 0
    public var chooserIndex = 0

    public init(width: Int, height: Int, order: CardOrder, zone: TimeZoneOffset = .utc) {
        self.width = width
        self.height = height
        self.order = order
        self.zone = zone
    }

    /// Rows of the screen between the title bar and the status line.
    public var bodyRows: Int { max(1, height - 2) }

    /// The orders a person can switch between now: `relevance` only while a search is active.
    public var orders: [CardOrder] { CardOrder.all.filter { $0 != .relevance || search != nil } }

    public var selectedCard: StoredCard? { cards.indices.contains(selected) ? cards[selected] : nil }

    /// The selected card's place in the whole listing.
    public var position: Int { offset + selected }

    /// Replaces the slice: `new` are the listing's cards from `offset` on, of `total`. The card
    /// at `select` of the listing is selected; the row at `top` of the listing stays the first
    /// shown when given (a slice read anew as the selection moves), else the selection is centred.
    public mutating func setSlice(_ new: [StoredCard], offset: Int, total: Int, select: Int, top topInListing: Int?) {
        cards = new
        self.offset = offset
        self.total = max(total, offset + new.count)
        sourceWidth = BriefList.sourceWidth(new)
        selected = min(max(0, select - offset), max(0, new.count - 1))
        if let topInListing {
            top = topInListing - offset
            scrollToSelection(center: false)
        } else {
            scrollToSelection(center: true)
        }
    }

    /// The whole listing as `cards` (the tests' way), the card with `keep` selected when it is there.
    public mutating func setCards(_ new: [StoredCard], keep: CardID?) {
        let index = keep.flatMap { id in new.firstIndex { $0.id == id } } ?? selected
        setSlice(new, offset: 0, total: new.count, select: index, top: nil)
    }

    public mutating func setRead(_ read: Bool, at index: Int) {
        guard cards.indices.contains(index) else { return }
        cards[index].isRead = read
    }

    /// Moves the selection by `delta` rows (clamped), keeping it in view.
    public mutating func move(_ delta: Int) {
        guard !cards.isEmpty else { return }
        let (sum, overflow) = selected.addingReportingOverflow(delta)
        selected = overflow ? (delta < 0 ? 0 : cards.count - 1) : min(max(0, sum), cards.count - 1)
        scrollToSelection(center: false)
    }

    /// Scrolls the list so the selected row is shown: by as little as needed, or centred.
    public mutating func scrollToSelection(center: Bool) {
        let rows = bodyRows
        if center && (selected < top || selected >= top + rows) {
            top = max(0, selected - rows / 2)
        } else if selected < top {
            top = selected
        } else if selected >= top + rows {
            top = selected - rows + 1
        }
        top = max(0, min(top, max(0, cards.count - rows)))
    }

    /// Scrolls the open card by `delta` lines, clamped to its text.
    public mutating func scrollCard(_ delta: Int) {
        let last = max(0, cardLines.count - bodyRows)
        let (sum, overflow) = cardScroll.addingReportingOverflow(delta)
        cardScroll = overflow ? (delta < 0 ? 0 : last) : min(max(0, sum), last)
    }
}
