import Foundation
import TestSupport
import XCTest

/// `feeds browse` on a real pseudo-terminal: keys typed, the screen read through the screen
/// model, the store looked at from outside while it runs, and the terminal as it was after.
/// Every wait has a deadline; a program still running at the end is killed with its group.
final class BrowseTerminalTests: XCTestCase {
    private var home: CardHome!
    /// The terminal's modes before the last `start` (a fresh pseudo-terminal's: cooked, echo).
    private var before = termios()

    override func tearDown() { home = nil }

    /// Card 7's title has a word no other card has (the search test looks for it).
    private func makeHome(cards: Int = 60) throws {
        home = try CardHome(count: cards, title: { $0 == 7 ? "Card 7 zeppelin" : "Card \($0)" })
    }

    private func start(_ args: [String] = [], rows: Int = 24, columns: Int = 80,
                       environment: [String: String] = [:]) throws -> PseudoTerminal {
        if home == nil { try makeHome() }
        let terminal = try PseudoTerminal(rows: rows, columns: columns)
        before = terminal.modes()
        try terminal.start([FeedsCommand.binary.path, "--home", home.path, "browse"] + args,
                           environment: PseudoTerminal.environment(home: home.path, ["TZ": "UTC"].merging(environment) { $1 }))
        XCTAssertTrue(terminal.wait(timeout: 10) { $0.lines.first?.hasPrefix("feeds browse · 1/") ?? false },
                      "the list shows:\n\(terminal.screen.text)")
        return terminal
    }

    /// The rows of cards on the screen, by title ("Card 3"), top to bottom.
    private func titles(_ screen: TerminalScreen) -> [String] {
        screen.lines.dropFirst().compactMap { line in line.range(of: "Local  ").map { String(line[$0.upperBound...]) } }
    }

    private func row(_ screen: TerminalScreen, title: String) -> String? {
        screen.lines.first { $0.hasSuffix("Local  " + title) }
    }

    private func assertQuits(_ terminal: PseudoTerminal, with keys: String = "q", modes before: termios,
                             file: StaticString = #filePath, line: UInt = #line) {
        terminal.send(keys)
        XCTAssertEqual(terminal.waitForExit(timeout: 2), 0, "ends at once, status 0:\n\(terminal.screen.text)", file: file, line: line)
        XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), before), "terminal modes as before", file: file, line: line)
        XCTAssertFalse(terminal.screen.onAlternateScreen, "back on the main screen", file: file, line: line)
        XCTAssertTrue(terminal.screen.cursorVisible, "cursor shown", file: file, line: line)
    }

    func testOpeningTheThirdCardShowsItsTextAndMarksItReadAtOnce() throws {
        let terminal = try start()
        XCTAssertTrue(terminal.screen.onAlternateScreen)
        XCTAssertFalse(terminal.screen.cursorVisible, "the cursor is hidden on the list")
        XCTAssertEqual(Array(titles(terminal.screen).prefix(3)), ["Card 0", "Card 1", "Card 2"])
        XCTAssertEqual(titles(terminal.screen).count, 22, "a screen of rows between the title bar and the status line")
        XCTAssertTrue(terminal.screen.lines.last?.hasPrefix("j/k move  Enter open") ?? false, terminal.screen.text)

        terminal.send("jj\r")
        XCTAssertTrue(terminal.wait(forText: "Local · 2h ago · #3"), terminal.screen.text)
        let lines = terminal.screen.lines
        XCTAssertEqual(lines[1], "Card 2")
        XCTAssertTrue(lines.contains("  https://local.example/2"), terminal.screen.text)
        XCTAssertTrue(lines.contains("  [1] https://local.example/2"), "links numbered:\n\(terminal.screen.text)")
        XCTAssertTrue(lines[0].contains("3/60") && lines[0].contains("read"), lines[0])
        XCTAssertEqual(try home.unreadCount(), 59, "marked read as it was opened, while browse still runs")

        terminal.send("q")
        XCTAssertTrue(terminal.wait { self.row($0, title: "Card 2")?.hasPrefix("  ") ?? false }, "the list shows it read:\n\(terminal.screen.text)")
        XCTAssertTrue(row(terminal.screen, title: "Card 3")?.hasPrefix("N ") ?? false)
        assertQuits(terminal, modes: before)
    }

    func testOOpensTheLinkInBrowserWithoutBlockingOrWritingOnTheScreen() throws {
        try makeHome()
        let record = home.directory.file("opened").path
        let script = home.directory.file("browser.sh").path
        try """
            #!/bin/sh
            echo "$@" >> '\(record)'
            echo noise-from-the-browser; echo more-noise >&2
            sleep 30
            """.write(toFile: script, atomically: false, encoding: .utf8)
        chmod(script, 0o755)
        let terminal = try start(environment: ["BROWSER": script])
        terminal.send("jjo")
        XCTAssertTrue(waitForFile(record, containing: "https://local.example/2\n"), "the card's link is recorded")
        XCTAssertTrue(terminal.wait(forText: "opened https://local.example/2"), terminal.screen.text)
        terminal.send("j")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 4/60") ?? false },
                      "keys still work while the browser runs:\n\(terminal.screen.text)")
        terminal.send("\r1")
        XCTAssertTrue(waitForFile(record, containing: "https://local.example/2\nhttps://local.example/3\n"), "link [1] of the open card")
        terminal.send("9")
        XCTAssertTrue(terminal.wait(forText: "no link [9]"), terminal.screen.text)
        XCTAssertFalse(terminal.outputText.contains("noise"), "the browser's output never lands on the screen")
        assertQuits(terminal, with: "qq", modes: before)
    }

    /// `$BROWSER` a list: a command not found is passed over, one that fails is followed by the
    /// next, each as soon as its failure is seen.
    func testBrowserListTriesEachCommandInTurn() throws {
        try makeHome()
        let record = home.directory.file("opened").path
        let failing = home.directory.file("failing.sh").path
        let recorder = home.directory.file("recorder.sh").path
        try "#!/bin/sh\necho \"failed $1\" >> '\(record)'\nexit 3\n".write(toFile: failing, atomically: false, encoding: .utf8)
        try "#!/bin/sh\necho \"$@\" >> '\(record)'\n".write(toFile: recorder, atomically: false, encoding: .utf8)
        chmod(failing, 0o755)
        chmod(recorder, 0o755)
        let terminal = try start(columns: 250, environment: ["BROWSER": home.directory.file("missing").path + ":\(failing):\(recorder) --url=%s"])
        terminal.send("jo")
        XCTAssertTrue(waitForFile(record, containing: "failed https://local.example/1\n--url=https://local.example/1\n"),
                      "the missing one passed over, the failing one followed by the next")
        XCTAssertTrue(terminal.wait(forText: "the browser (\(failing)) ended with status 3; trying \(recorder)"), terminal.screen.text)
        assertQuits(terminal, modes: before)
    }

    func testRTogglesReadAndTheStoreFollows() throws {
        let terminal = try start()
        terminal.send("r")
        XCTAssertTrue(terminal.wait { self.row($0, title: "Card 0")?.hasPrefix("  ") ?? false }, terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("marked read"))
        XCTAssertEqual(try home.unreadCount(), 59)
        terminal.send("r")
        XCTAssertTrue(terminal.wait { self.row($0, title: "Card 0")?.hasPrefix("N ") ?? false }, terminal.screen.text)
        XCTAssertEqual(try home.unreadCount(), 60)
        // n skips to the next unread card: mark cards 1 and 2, then n from card 0 lands on card 3.
        terminal.send("jrjrgn")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 4/60") ?? false }, terminal.screen.text)
        assertQuits(terminal, modes: before)
    }

    func testSearchFindsAndEscapeClearsIt() throws {
        let terminal = try start()
        terminal.send("/zeppel")
        XCTAssertTrue(terminal.wait { $0.lines.last == "/zeppel_" }, "the prompt shows what is typed:\n\(terminal.screen.text)")
        terminal.send("in\r")
        XCTAssertTrue(terminal.wait { $0.lines.first?.contains("search: zeppelin") ?? false }, terminal.screen.text)
        XCTAssertEqual(titles(terminal.screen), ["Card 7 zeppelin"])
        XCTAssertTrue(terminal.screen.lines[0].contains("1/1 · best search match first"), terminal.screen.lines[0])
        terminal.send("/\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\"unbalanced\r")
        XCTAssertTrue(terminal.wait { !($0.lines.last?.hasPrefix("j/k") ?? true) && !($0.lines.last?.hasPrefix("/") ?? true) },
                      "a query SQLite refuses is a message:\n\(terminal.screen.text)")
        XCTAssertEqual(titles(terminal.screen), ["Card 7 zeppelin"], "and the search stays as it was")
        terminal.send("\u{1B}")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 8/60 · newest first") ?? false },
                      "Escape ends the search, the card found stays selected:\n\(terminal.screen.text)")
        assertQuits(terminal, modes: before)
    }

    /// An arrow key whose bytes come in two reads (ESC, then `[B` a moment later, as over a
    /// slow link) is one key, not Escape (which would end the search) then `[` and `B`.
    func testAnEscapeSequenceSplitAcrossReadsIsOneKey() throws {
        let terminal = try start()
        terminal.send("jjjjj/river\r")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 1/60 · best search match first") ?? false },
                      "a search starts at its best match:\n\(terminal.screen.text)")
        for position in 2...4 {
            terminal.send("\u{1B}")
            usleep(10_000)
            terminal.send("[B")
            XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · \(position)/60 · best search match first") ?? false },
                          "moved down, the search still on:\n\(terminal.screen.text)")
        }
        terminal.send("\u{1B}")
        XCTAssertTrue(terminal.wait { $0.lines.first?.contains("newest first") ?? false }, "a lone Escape ends the search:\n\(terminal.screen.text)")
        assertQuits(terminal, modes: before)
    }

    func testReadsOptionsStartTheList() throws {
        let terminal = try start(["--sort", "title", "--unread", "--since", "30d", "--source", "Local"], columns: 110)
        XCTAssertEqual(terminal.screen.lines[0],
                       "feeds browse · 1/60 · by title A to Z; untitled cards last · source: Local · since 30d · unread only")
        XCTAssertEqual(Array(titles(terminal.screen).prefix(3)), ["Card 0", "Card 1", "Card 10"])
        assertQuits(terminal, modes: before)
        let unknown = try FeedsCommand.run(["--home", home.path, "browse", "--sort", "random"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown sort order \"random\""), unknown.stderr)
    }

    /// More cards than the first slice (256): the first screen reads only it, and counts the rest.
    func testALongListingIsReadInSlices() throws {
        try makeHome(cards: 600)
        let terminal = try start()
        XCTAssertTrue(terminal.screen.lines[0].hasPrefix("feeds browse · 1/600 · "), terminal.screen.lines[0])
        terminal.send("G")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 600/600") ?? false }, terminal.screen.text)
        XCTAssertEqual(titles(terminal.screen).last, "Card 599")
        terminal.send("S")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 1/600 · oldest first") ?? false },
                      "the oldest card stays selected, first now:\n\(terminal.screen.text)")
        XCTAssertEqual(titles(terminal.screen).first, "Card 599")
        terminal.send("\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 265/600") ?? false }, "past the first slice:\n\(terminal.screen.text)")
        XCTAssertTrue(titles(terminal.screen).contains("Card 335"), terminal.screen.text)
        terminal.send("rn")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 266/600") ?? false }, terminal.screen.text)
        terminal.send("p")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 264/600") ?? false }, "p skips the card just read:\n\(terminal.screen.text)")
        assertQuits(terminal, modes: before)
    }

    func testTagAndSourceFilters() throws {
        let terminal = try start()
        terminal.send("sNope\r")
        XCTAssertTrue(terminal.wait(forText: "no source named 'Nope'"), terminal.screen.text)
        XCTAssertEqual(titles(terminal.screen).count, 22, "the list as it was")
        terminal.send("sLocal\r")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasSuffix("· source: Local") ?? false }, terminal.screen.text)
        terminal.send("tnews\r")
        XCTAssertTrue(terminal.wait { $0.lines.contains("  no cards") }, "no source has the tag:\n\(terminal.screen.text)")
        XCTAssertTrue(terminal.screen.lines[0].contains("0 cards") && terminal.screen.lines[0].contains("tag: news"), terminal.screen.lines[0])
        terminal.send("t\u{7F}\u{7F}\u{7F}\u{7F}\r")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 1/60") ?? false }, "an empty answer clears the tag")
        assertQuits(terminal, modes: before)
    }

    func testSwitchingTheSortOrderKeepsTheCardAndTheChooserShowsTheLabels() throws {
        let terminal = try start()
        terminal.send("jjjjj")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 6/60") ?? false })
        terminal.send("S")
        XCTAssertTrue(terminal.wait { $0.lines.first?.contains("oldest first") ?? false }, terminal.screen.text)
        XCTAssertTrue(terminal.screen.lines[0].hasPrefix("feeds browse · 55/60"), "Card 5 still selected:\n\(terminal.screen.text)")
        XCTAssertTrue(titles(terminal.screen).contains("Card 5"), "and in view")
        XCTAssertEqual(titles(terminal.screen).last, "Card 0", "the list changed: the newest card last")

        terminal.send("O")
        XCTAssertTrue(terminal.wait(forText: "Sort order (* the current one):"), terminal.screen.text)
        let text = terminal.screen.text
        for line in ["   newest  newest first; cards without a date last", " * oldest  oldest first; cards without a date last",
                     "   source  by source name, newest first within each source", "   title   by title A to Z; untitled cards last"] {
            XCTAssertTrue(terminal.screen.lines.contains(line), "\(line) in:\n\(text)")
        }
        XCTAssertFalse(text.contains("relevance"), "relevance only while searching")
        terminal.send("jj\r")
        XCTAssertTrue(terminal.wait { $0.lines.first?.contains("by title A to Z") ?? false }, terminal.screen.text)
        XCTAssertTrue(titles(terminal.screen).contains("Card 5"))
        terminal.send("g")
        XCTAssertTrue(terminal.wait { Array(self.titles($0).prefix(4)) == ["Card 0", "Card 1", "Card 10", "Card 11"] }, terminal.screen.text)
        assertQuits(terminal, modes: before)
    }

    func testResizeRedrawsTheListAndTheCard() throws {
        let terminal = try start()
        terminal.resize(rows: 30, columns: 100)
        XCTAssertTrue(terminal.wait { self.titles($0).count == 28 }, "more rows:\n\(terminal.screen.text)")
        XCTAssertTrue(terminal.screen.lines.last?.contains("t/s filter  S/O sort  ? keys  q quit") ?? false, terminal.screen.text)
        terminal.resize(rows: 8, columns: 40)
        XCTAssertTrue(terminal.wait { self.titles($0).count == 6 && $0.lines.last == "j/k move  Enter open  o browser  r read…" },
                      "fewer rows, lines cut to the width:\n\(terminal.screen.text)")
        terminal.send("\r")
        XCTAssertTrue(terminal.wait(forText: "Card 0"))
        terminal.resize(rows: 12, columns: 30)
        XCTAssertTrue(terminal.wait { $0.lines.contains("  river lantern copper meadow") }, "the card rewrapped:\n\(terminal.screen.text)")
        assertQuits(terminal, with: "qq", modes: before)
    }

    func testCtrlCQuitsAndFatalSignalsRestoreTheTerminal() throws {
        let interrupted = try start()
        assertQuits(interrupted, with: "j\u{3}", modes: before)

        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP"), (SIGSEGV, "SIGSEGV")] {
            let terminal = try start()
                XCTAssertFalse(PseudoTerminal.sameModes(before, terminal.modes()), "\(name): raw mode while it runs")
            terminal.signal(signal)
            XCTAssertEqual(terminal.waitForExit(timeout: 2), 128 + signal, "\(name) ends it as that signal")
            XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), before), "\(name): modes as before")
            XCTAssertFalse(terminal.screen.onAlternateScreen, name)
            XCTAssertTrue(terminal.screen.cursorVisible, name)
        }
    }

    func testAnUpdateMeanwhileIsNotBlockedAndRShowsItsCards() throws {
        let terminal = try start()
        let fresh = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Local feed</title><link>https://local.example/</link>
            <item><guid>fresh</guid><title>Fresh card</title><link>https://local.example/fresh</link>
            <pubDate>\(httpDate(Date()))</pubDate><description>new</description></item>
            </channel></rss>
            """
        try fresh.write(to: home.directory.file("feed.rss"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", home.path, "update", "--all"], timeout: 20)
        XCTAssertEqual(update.status, 0, update.stderr)
        terminal.send("R")
        XCTAssertTrue(terminal.wait { self.titles($0).first == "Fresh card" }, terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("reloaded: 61 cards"), terminal.screen.text)
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 2), 0)
    }

    /// An update from outside (a new source on the loopback server) while browse runs: nothing
    /// changes until a key, then the next draw lists its card, the selected card kept.
    func testCardsAnUpdateSavesAppearAtTheNextDraw() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/fresh.xml", .text("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Fresh feed</title><link>https://fresh.example/</link>
            <item><guid>fresh</guid><title>Fresh card</title><link>https://fresh.example/1</link>
            <pubDate>\(httpDate(Date()))</pubDate><description>new</description></item>
            </channel></rss>
            """, contentType: "application/rss+xml"))
        let terminal = try start()
        terminal.send("j")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 2/60") ?? false }, terminal.screen.text)
        let sources = home.directory.file("sources")
        try (String(contentsOf: sources, encoding: .utf8) + "\(server.url("/fresh.xml")) name=Fresh\n")
            .write(to: sources, atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", home.path, "update", "--all"], timeout: 20)
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(server.requests(path: "/fresh.xml").count, 1)
        terminal.pump(0.3)
        XCTAssertFalse(terminal.screen.text.contains("Fresh card"), "no draw without a key:\n\(terminal.screen.text)")

        terminal.send("j")
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 4/61") ?? false },
                      "j moved to Card 2, now the fourth:\n\(terminal.screen.text)")
        let lines = terminal.screen.lines
        XCTAssertTrue(lines[1].hasSuffix("Fresh  Fresh card"), "the new card first, in view:\n\(terminal.screen.text)")
        XCTAssertTrue(lines[4].hasSuffix("Local  Card 2"), "the selected card on the fourth row:\n\(terminal.screen.text)")
        XCTAssertTrue(terminal.screen.text.contains("updated: 61 cards (+1)"), terminal.screen.text)
        terminal.send("\r")
        XCTAssertTrue(terminal.wait(forText: "Local · 2h ago · #3"), "Enter opens the card kept:\n\(terminal.screen.text)")
        assertQuits(terminal, with: "qq", modes: before)
    }

    func testNotATerminalIsOneLineAndStatus2() throws {
        try makeHome(cards: 3)
        let result = try FeedsCommand.run(["--home", home.path, "browse"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("browse needs a terminal"), result.stderr)
        XCTAssertEqual(result.stdout, "", "nothing drawn")
        XCTAssertEqual(try home.unreadCount(), 3)
    }

    private func waitForFile(_ path: String, containing text: String, timeout: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let s = try? String(contentsOfFile: path, encoding: .utf8), s == text { return true }
            usleep(20_000)
        }
        return false
    }

    private func httpDate(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }
}
