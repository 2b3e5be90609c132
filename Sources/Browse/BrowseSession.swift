#if canImport(Glibc)
import Glibc
#endif
import Console
import FeedModel
import Reader
import Storage

/// What `feeds browse` was asked for on its command line.
public struct BrowseOptions {
    public var query: CardQuery
    public var order: CardOrder
    public var tag: String?
    public var sourceName: String?
    public var sinceText: String?
    public var zone: TimeZoneOffset
    public var environment: [String: String]

    public init(query: CardQuery, order: CardOrder, tag: String?, sourceName: String?, sinceText: String?,
                zone: TimeZoneOffset, environment: [String: String]) {
        self.query = query
        self.order = order
        self.tag = tag
        self.sourceName = sourceName
        self.sinceText = sinceText
        self.zone = zone
        self.environment = environment
    }
}

/// The key loop of `feeds browse`: reads keys, changes the `BrowseState`, asks the store
/// (short reads, one write a mark: an update running meanwhile never waits for the screen),
/// starts the browser, and draws `BrowseDrawing`'s screen after every batch of keys.
public final class BrowseSession {
    private let store: any BrowseStore
    private var state: BrowseState
    private var query: CardQuery
    private let environment: [String: String]
    private let resolveSource: (String) throws -> SourceID
    private let clock: () -> Timestamp
    /// A search's listing, as ids (at most the relevance window, or the matches; on SQLite
    /// relevance's order found as slices are read: `SearchListing`); nil without a search, when
    /// the state's slice is read from the order's index (`BrowseStore.listingWindow`): no key
    /// reads every id of a listing.
    private var searchIDs: (any SearchListingWindow)?
    /// The browsers started and not yet reaped: each with its program's name and the commands
    /// of `$BROWSER` after it (tried when it fails).
    private var browsers: [(child: ChildProcess, name: String, rest: ArraySlice<[String]>)] = []
    /// The store's `dataVersion` when the listing was last read: another value at a draw
    /// means an update saved meanwhile, and the list is read anew (`showUpdates`).
    private var seenVersion: Int64?
    private var running = true

    public init(store: any BrowseStore, options: BrowseOptions, size: (columns: Int, rows: Int),
                resolveSource: @escaping (String) throws -> SourceID, clock: @escaping () -> Timestamp) {
        self.store = store
        self.query = options.query
        self.environment = options.environment
        self.resolveSource = resolveSource
        self.clock = clock
        state = BrowseState(width: size.columns, height: size.rows, order: options.order, zone: options.zone)
        state.tag = options.tag
        state.sourceName = options.sourceName
        state.sinceText = options.sinceText
        state.unreadOnly = options.query.unreadOnly
    }

    /// Loads the first cards (before the terminal is taken: a bad query is a plain error).
    /// The first screen reads only the first slice (its text) and counts the listing: start-up
    /// stays a few milliseconds whatever the database holds.
    public func load() throws {
        seenVersion = try store.dataVersion()
        let cards = try store.listingWindow(query, order: listingOrder, offset: 0, limit: sliceSize)
        let total = cards.count < sliceSize ? cards.count : try store.listingCount(query)
        state.setSlice(cards, offset: 0, total: total, select: 0, top: nil)
    }

    /// The order listed: relevance ranks a search only; without one, the newest order.
    private var listingOrder: CardOrder {
        state.search == nil && state.order == .relevance ? CardOrder.newest : state.order
    }

    /// The screen now, for the first frame and the tests.
    public var screen: [ScreenLine] { BrowseDrawing.lines(state) }

    /// Runs on `terminal` until `q` (or Ctrl-C).
    public func run(on terminal: RawTerminal) {
        // A resize between the first read of the size and the handler's installation is seen here.
        let size = terminal.size()
        if size.columns != state.width || size.rows != state.height { resize(columns: size.columns, rows: size.rows) }
        terminal.write(BrowseDrawing.frame(screen))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while running {
            var watch = [pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: terminal.resizeDescriptor, events: Int16(POLLIN), revents: 0)]
            // A second at most between looks at the browsers started (their exit is reported).
            let ready = poll(&watch, 2, browsers.isEmpty ? -1 : 1000)
            if ready < 0 && errno != EINTR { break }
            var changed = reapBrowsers()
            if watch[1].revents != 0 && terminal.takeResize() {
                let size = terminal.size()
                resize(columns: size.columns, rows: size.rows)
                terminal.write("\u{1B}[2J")
                changed = true
            }
            if watch[0].revents & Int16(POLLIN) != 0 {
                let n = read(terminal.input, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }   // the terminal went away
                state.message = nil
                for key in Key.decode(completingEscape(Array(buffer[0..<n]), from: terminal.input)) where running { handle(key) }
                changed = true
            } else if watch[0].revents != 0 {
                break   // POLLHUP, POLLERR: no terminal any more
            }
            if changed && running {
                showUpdates()
                terminal.write(BrowseDrawing.frame(screen))
            }
        }
        for browser in browsers where browser.child.exited() == nil { browser.child.disown() }
    }

    /// How long a read ending inside an escape sequence waits for the rest (an arrow key's
    /// bytes split by a slow link or an ssh hop), before a lone ESC is taken as Escape.
    static let escapeWaitMilliseconds: Int32 = 40

    /// `bytes` with the rest of an escape sequence they end inside, read from `input` when it
    /// comes within `escapeWaitMilliseconds` (else `bytes` as they are: a lone Escape).
    private func completingEscape(_ bytes: [UInt8], from input: Int32) -> [UInt8] {
        var bytes = bytes
        var more = [UInt8](repeating: 0, count: 64)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Int64(deadline.tv_sec) * 1000 + Int64(deadline.tv_nsec) / 1_000_000 + Int64(Self.escapeWaitMilliseconds)
        while Key.unfinishedEscape(bytes) > 0 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
            guard left > 0 else { break }
            var watch = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, watch.revents & Int16(POLLIN) != 0 else { break }
            let n = read(input, &more, more.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += more[0..<n]
        }
        return bytes
    }

    // MARK: keys

    /// Does what `key` means in the current mode (public for the tests, which drive it without a terminal).
    public func handle(_ key: Key) {
        if key == .interrupt { running = false; return }
        switch state.mode {
        case .list: listKey(key)
        case .card: cardKey(key)
        case .chooser: chooserKey(key)
        case .help: state.mode = state.previousMode
        case .prompt(let prompt): promptKey(key, prompt)
        }
    }

    private func listKey(_ key: Key) {
        switch key {
        case .character("j"), .down: move(1)
        case .character("k"), .up: move(-1)
        case .pageDown, .character(" "), .character("f"): move(state.bodyRows)
        case .pageUp, .character("b"): move(-state.bodyRows)
        case .home, .character("g"): move(Int.min)
        case .end, .character("G"): move(Int.max)
        case .enter, .right, .character("l"): openSelected()
        case .character("o"): openInBrowser(state.selectedCard?.card.link)
        case .character("r"): toggleRead()
        case .character("n"): jumpToUnread(forward: true, open: false)
        case .character("p"): jumpToUnread(forward: false, open: false)
        case .character("/"): startPrompt(.search, state.search)
        case .character("t"): startPrompt(.tag, state.tag)
        case .character("s"): startPrompt(.source, state.sourceName)
        case .character("S"): cycleOrder()
        case .character("O"): openChooser()
        case .character("R"): reloadKeepingSelection()
        case .character("?"): showHelp()
        case .character("q"): running = false
        case .escape where state.search != nil: applySearch(nil)
        default: break
        }
    }

    private func cardKey(_ key: Key) {
        switch key {
        case .character("j"), .down, .enter: state.scrollCard(1)
        case .character("k"), .up: state.scrollCard(-1)
        case .pageDown, .character(" "), .character("f"): state.scrollCard(state.bodyRows)
        case .pageUp, .character("b"): state.scrollCard(-state.bodyRows)
        case .home, .character("g"): state.scrollCard(Int.min)
        case .end, .character("G"): state.scrollCard(Int.max)
        case .character("o"): openInBrowser(state.selectedCard?.card.link)
        case .character(let c) where ("1"..."9").contains(c):
            let n = Int(String(c))!
            if state.links.indices.contains(n - 1) { openInBrowser(state.links[n - 1]) } else { state.message = "no link [\(n)]" }
        case .character("r"): toggleRead()
        case .character("n"): jumpToUnread(forward: true, open: true)
        case .character("p"): jumpToUnread(forward: false, open: true)
        case .character("?"): showHelp()
        case .character("q"), .escape, .left, .character("h"): state.mode = .list; state.scrollToSelection(center: false)
        default: break
        }
    }

    private func chooserKey(_ key: Key) {
        let orders = state.orders
        switch key {
        case .character("j"), .down: state.chooserIndex = min(orders.count - 1, state.chooserIndex + 1)
        case .character("k"), .up: state.chooserIndex = max(0, state.chooserIndex - 1)
        case .enter:
            state.mode = .list
            setOrder(orders[state.chooserIndex])
        case .character("q"), .escape, .character("O"): state.mode = .list
        default: break
        }
    }

    private func promptKey(_ key: Key, _ prompt: BrowseState.Prompt) {
        switch key {
        case .character(let c):
            if state.typed.count < 500 { state.typed.append(c) }
        case .backspace:
            if !state.typed.isEmpty { state.typed.removeLast() }
        case .escape:
            state.mode = .list
        case .enter:
            state.mode = .list
            let text = state.typed.trimmingBlanks()
            switch prompt {
            case .search: applySearch(text.isEmpty ? nil : text)
            case .tag: applyTag(text.isEmpty ? nil : text)
            case .source: applySource(text.isEmpty ? nil : text)
            }
        default: break
        }
    }

    // MARK: actions

    private func move(_ delta: Int) {
        let (sum, overflow) = state.position.addingReportingOverflow(delta)
        go(to: overflow ? (delta < 0 ? 0 : Int.max) : sum)
    }

    /// Selects the card at `target` of the listing (clamped), reading a new slice around it when
    /// it is within two screens of the slice's end (the rows in view are always read).
    private func go(to target: Int) {
        guard state.total > 0 else { return }
        let index = min(max(0, target), state.total - 1)
        let margin = state.bodyRows * 2
        let start = state.offset, end = state.offset + state.cards.count
        if (index < start + margin && start > 0) || (index >= end - margin && end < state.total) {
            attempt { try loadSlice(around: index, top: state.offset + state.top) }
        }
        state.selected = index - state.offset
        state.scrollToSelection(center: false)
    }

    /// How many cards a slice reads (their text): a few screens, whatever the listing's length.
    private var sliceSize: Int { max(256, state.height * 8) }

    /// Reads the cards around `index` of the listing of `total` cards (one short read: by id
    /// in a search, else with OFFSET on the order's index).
    private func loadSlice(around index: Int, total: Int, top: Int?) throws {
        let size = sliceSize
        let start = max(0, min(index - size / 2, total - size))
        let cards: [StoredCard]
        if let searchIDs {
            cards = try store.cards(ids: searchIDs.ids(start..<(start + size)))
        } else {
            cards = try store.listingWindow(query, order: listingOrder, offset: start, limit: size)
        }
        state.setSlice(cards, offset: start, total: total, select: index, top: top)
    }

    private func loadSlice(around index: Int, top: Int?) throws {
        try loadSlice(around: index, total: state.total, top: top)
    }

    /// Lists anew (short reads, so an update meanwhile never waits): the listing counted, the
    /// place of the card with `keep` found (one count over the order's index), the slice around
    /// it read; it stays selected and in view when it is still listed (switching the order,
    /// ending a search, `R`); else the card at the same place is, or the first with `elseFirst`
    /// (a new filter). A search reads its matches' ids (at most its window, or the matches).
    private func relist(keep: CardID?, elseFirst: Bool = false) throws {
        // Read first: a commit during the reads below is seen at the next draw.
        seenVersion = try store.dataVersion()
        let total: Int
        let found: Int?
        if let search = state.search {
            let ids = try store.searchListingWindow(search, query: query, order: listingOrder)
            total = ids.count
            found = try keep.flatMap { id in try ids.position(of: id) }
            searchIDs = ids
        } else {
            searchIDs = nil
            // The cards before and after the kept one counted: the listing's length and its place.
            if let keep, let place = try store.listingPlace(of: keep, query, order: listingOrder, counting: true) {
                (found, total) = (place.position, place.total)
            } else {
                (found, total) = (nil, try store.listingCount(query))
            }
        }
        if searchIDs == nil, let keep, let found {
            // The slice by keyset reads from the kept card's key (no OFFSET walk of `found` cards).
            let half = sliceSize / 2
            let cards = try store.listingAround(keep, query, order: listingOrder, before: half, after: sliceSize - half - 1)
            if let at = cards.firstIndex(where: { $0.id == keep }), found >= at {
                state.setSlice(cards, offset: found - at, total: total, select: found, top: nil)
                return
            }
        }
        let index = found ?? (elseFirst ? 0 : min(state.position, max(0, total - 1)))
        try loadSlice(around: index, total: total, top: nil)
    }

    /// Lists anew when another connection committed since the listing was read (a `feeds
    /// update` from cron): the cards it saved show at this draw, no key needed. The selected
    /// card stays selected on its row; a list shown from its first card still is (new cards
    /// come in above). Only where the list is drawn: an open card stays as it is until `q`.
    public func showUpdates() {
        switch state.mode {
        case .list, .chooser, .prompt: break
        case .card, .help: return
        }
        guard let version = try? store.dataVersion(), version != seenVersion else { return }
        let (firstShown, row, before) = (state.offset + state.top, state.selected - state.top, state.total)
        attempt { try relist(keep: state.selectedCard?.id) }
        state.top = (firstShown == 0 ? 0 : state.position - row) - state.offset
        state.scrollToSelection(center: false)
        if state.message == nil && state.total != before {
            state.message = "updated: \(state.total) cards (\(state.total > before ? "+" : "")\(state.total - before))"
        }
    }

    private func reloadKeepingSelection() {
        attempt { try relist(keep: state.selectedCard?.id) }
        if state.message == nil { state.message = "reloaded: \(state.total) cards" }
    }

    private func openSelected() {
        guard let card = state.selectedCard else { return }
        let view = CardView.render(card, width: state.width, now: clock(), zone: state.zone)
        state.cardLines = view.lines
        state.links = view.links
        state.cardScroll = 0
        state.mode = .card
        if !card.isRead { setRead(true) }
    }

    /// Marks the selected card, written at once (killing the terminal loses no mark).
    private func setRead(_ read: Bool) {
        guard let card = state.selectedCard else { return }
        let index = state.selected
        attempt {
            try store.setRead(read, .cards([card.id]))
            state.setRead(read, at: index)
        }
    }

    private func toggleRead() {
        guard let card = state.selectedCard else { return }
        setRead(!card.isRead)
        if state.message == nil { state.message = card.isRead ? "marked unread" : "marked read" }
    }

    /// The next or previous unread card of the whole listing: in the slice read, else one
    /// read of the order's index from the slice's edge (or of the search's ids past it).
    private func jumpToUnread(forward: Bool, open: Bool) {
        let cards = state.cards
        var found = (forward ? cards.indices.dropFirst(state.selected + 1).first { !cards[$0].isRead }
                             : cards.indices.prefix(max(0, state.selected)).last { !cards[$0].isRead })
            .map { state.offset + $0 }
        let edge = forward ? cards.last : cards.first
        let beyond = forward ? state.offset + cards.count < state.total : state.offset > 0
        if found == nil, beyond, let edge {
            attempt {
                if let searchIDs {
                    found = try firstUnread(in: searchIDs, forward: forward, from: forward ? state.offset + cards.count : state.offset)
                } else {
                    found = try store.unreadPosition(from: edge.id, forward: forward, query, order: listingOrder)
                }
            }
        }
        guard let found else {
            state.message = forward ? "no unread card below" : "no unread card above"
            return
        }
        go(to: found)
        if open { openSelected() }
    }

    /// The place of the first unread card of a search's listing from `from` on (or the last
    /// before it), read a slice at a time: only the slices read have their order settled.
    private func firstUnread(in listing: any SearchListingWindow, forward: Bool, from: Int) throws -> Int? {
        let step = sliceSize
        var start = forward ? from : max(0, from - step)
        var end = forward ? min(listing.count, from + step) : from
        while start < end {
            let ids = try listing.ids(start..<end)
            if let found = try store.firstUnread(among: ids[...], last: !forward) { return start + found }
            if forward { (start, end) = (end, min(listing.count, end + step)) } else { (start, end) = (max(0, start - step), start) }
        }
        return nil
    }

    private func startPrompt(_ prompt: BrowseState.Prompt, _ current: String?) {
        state.typed = current ?? ""
        state.mode = .prompt(prompt)
    }

    private func applySearch(_ text: String?) {
        let before = (state.search, state.order)
        state.search = text
        if text != nil && before.0 == nil { state.order = .relevance }
        if text == nil && state.order == .relevance { state.order = .newest }
        // A search starts at its first match (the best one); its end keeps the card selected.
        relist(keep: text == nil ? state.selectedCard?.id : nil) { self.state.search = before.0; self.state.order = before.1 }
    }

    private func applyTag(_ tag: String?) {
        let before = (query.tag, state.tag)
        query.tag = tag
        state.tag = tag
        relist(keep: state.selectedCard?.id) { self.query.tag = before.0; self.state.tag = before.1 }
    }

    private func applySource(_ name: String?) {
        let before = (query.sourceID, state.sourceName)
        if let name {
            do { query.sourceID = try resolveSource(name) } catch {
                state.message = describe(error)
                return
            }
        } else {
            query.sourceID = nil
        }
        state.sourceName = name
        relist(keep: state.selectedCard?.id) { self.query.sourceID = before.0; self.state.sourceName = before.1 }
    }

    /// Lists anew, the card `keep` selected if listed, else the first; on an error (a search
    /// SQLite cannot parse) `undo` puts the listing's settings back, and says why.
    private func relist(keep: CardID?, undo: () -> Void) {
        do {
            try relist(keep: keep, elseFirst: true)
        } catch {
            undo()
            state.message = describe(error)
        }
    }

    private func cycleOrder() {
        let orders = state.orders
        let next = orders[((orders.firstIndex(of: state.order) ?? -1) + 1) % orders.count]
        setOrder(next)
    }

    private func setOrder(_ order: CardOrder) {
        guard order != state.order else { return }
        let before = state.order
        state.order = order
        // The selected card stays selected, in view.
        do { try relist(keep: state.selectedCard?.id) } catch {
            state.order = before
            state.message = describe(error)
            return
        }
        state.message = "sorted: " + order.label
    }

    private func openChooser() {
        state.chooserIndex = state.orders.firstIndex(of: state.order) ?? 0
        state.mode = .chooser
    }

    private func showHelp() {
        state.previousMode = state.mode
        state.mode = .help
    }

    /// Opens `url` in `$BROWSER` (else xdg-open) without waiting: in a process group of its own,
    /// its input and output on /dev/null, so it neither takes the terminal nor writes on the
    /// screen. `$BROWSER`'s commands are tried in turn (`Browser.commands`): the next when one
    /// cannot be started (not found), or when it ends in failure (seen by `reapBrowsers`).
    private func openInBrowser(_ url: String?) {
        guard let url, WebAddress(parsing: url).isWebURL else {
            state.message = "this card has no web link"
            return
        }
        if startBrowser(Browser.commands(url: url, environment: environment)[...]) {
            state.message = "opened " + TerminalText.line(url)
        }
    }

    /// Starts the first of `commands` that starts; whether one did (else the message says why).
    private func startBrowser(_ commands: ArraySlice<[String]>) -> Bool {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        var rest = commands
        var failure = "no browser command"
        while let command = rest.popFirst() {
            do {
                let child = try ChildProcess(command, stdin: null, stdout: null, stderr: null, ownGroup: true, environment: environment)
                browsers.append((child, command[0], rest))
                return true
            } catch {
                failure = "cannot open the link with \(TerminalText.line(command[0])): \(error)"
            }
        }
        state.message = failure
        return false
    }

    /// Reaps the browsers that ended; one that failed is followed by the next of `$BROWSER`'s
    /// commands, and the last one failing says so. Whether the screen changed.
    private func reapBrowsers() -> Bool {
        var changed = false
        var failed: [(name: String, status: Int32, rest: ArraySlice<[String]>)] = []
        browsers.removeAll { browser in
            guard let status = browser.child.exited() else { return false }
            if status != 0 { failed.append((browser.name, status, browser.rest)) }
            return true
        }
        for failure in failed {
            changed = true
            let why = "the browser (\(TerminalText.line(failure.name))) ended with status \(failure.status)"
            if failure.rest.isEmpty || !startBrowser(failure.rest) {
                if failure.rest.isEmpty { state.message = why }
            } else {
                state.message = why + "; trying " + TerminalText.line(failure.rest.first![0])
            }
        }
        return changed
    }

    private func resize(columns: Int, rows: Int) {
        state.width = columns
        state.height = rows
        state.scrollToSelection(center: false)
        if state.mode == .card, let card = state.selectedCard {
            let view = CardView.render(card, width: columns, now: clock(), zone: state.zone)
            state.cardLines = view.lines
            state.links = view.links
            state.scrollCard(0)
        }
    }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch { state.message = describe(error) }
    }

    private func describe(_ error: Error) -> String {
        String(describing: error)
    }
}

extension String {
    func trimmingBlanks() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
