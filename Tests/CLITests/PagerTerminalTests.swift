import Foundation
import TestSupport
import XCTest

/// `feeds read` and `feeds search` on a real pseudo-terminal with the real `less` (Debian's
/// `less` package, which `make test` installs): what a person sees, what the keys do, and the
/// terminal as it was afterwards. Every wait has a deadline; a program still running at the end
/// of a test is killed with its process group.
final class PagerTerminalTests: XCTestCase {
    private var home: CardHome!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/less") else {
            // A failure, not a skip: these are the only tests of the pager a person uses.
            throw PseudoTerminal.Failure(description: "less is not installed: 'make test' installs it (Debian's less package)")
        }
    }

    override func tearDown() { home = nil }

    /// Starts `feeds --home HOME ARGS` on a terminal of `rows` x `columns`.
    private func start(_ args: [String], cards: Int = 60, rows: Int = 24, columns: Int = 80,
                       environment: [String: String] = [:], resizeTo: (rows: Int, columns: Int)? = nil) throws -> PseudoTerminal {
        if home == nil { home = try CardHome(count: cards) }
        let terminal = try PseudoTerminal(rows: rows, columns: columns)
        if let resizeTo { terminal.resize(rows: resizeTo.rows, columns: resizeTo.columns) }
        try terminal.start([FeedsCommand.binary.path, "--home", home.path] + args,
                           environment: PseudoTerminal.environment(home: home.path, environment))
        return terminal
    }

    /// Whether `less` is showing: the screen's last line is its prompt.
    private func pagerPrompt(_ screen: TerminalScreen) -> Bool {
        let last = screen.lines.last ?? ""
        return screen.onAlternateScreen && (last.hasPrefix(":") || last.contains("(END)"))
    }

    private func assertQuitsCleanly(_ terminal: PseudoTerminal, modes before: termios, file: StaticString = #filePath, line: UInt = #line) {
        terminal.send("q")
        let status = terminal.waitForExit(timeout: 1.0)
        XCTAssertEqual(status, 0, "q ends feeds within a second, status 0; screen:\n\(terminal.screen.text)", file: file, line: line)
        XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), before), "terminal modes as before", file: file, line: line)
        XCTAssertFalse(terminal.screen.onAlternateScreen, "back on the main screen", file: file, line: line)
        XCTAssertTrue(terminal.screen.cursorVisible, "cursor shown", file: file, line: line)
    }

    func testALongDigestShowsItsFirstScreenAndQReturnsAtOnce() throws {
        let terminal = try start(["read"])
        let before = terminal.modes()
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), "less shows a screen; got:\n\(terminal.screen.text)")
        let lines = terminal.screen.lines
        XCTAssertEqual(lines.first, "Card 0", lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Local · ") && $0.hasSuffix("#1") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("  [audio] https://local.example/ep0.mp3 (30.0 MB)"), lines.joined(separator: "\n"))
        XCTAssertFalse(terminal.screen.text.contains("Card 59"), "only the first screen")
        XCTAssertTrue(terminal.isRunning, "less waits for the reader")
        terminal.send(" ")
        XCTAssertTrue(terminal.wait(timeout: 5) { !$0.lines.contains("Card 0") && self.pagerPrompt($0) }, "space pages down:\n\(terminal.screen.text)")
        assertQuitsCleanly(terminal, modes: before)
    }

    func testCtrlCInLessThenQLeavesTheTerminalSane() throws {
        let terminal = try start(["read", "--keep-unread"])
        let before = terminal.modes()
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), terminal.screen.text)
        terminal.send("\u{3}")
        terminal.pump(0.3)
        XCTAssertTrue(terminal.isRunning, "Ctrl-C is the pager's: feeds ignores it while less runs")
        assertQuitsCleanly(terminal, modes: before)
    }

    func testCtrlCKillingAPagerThatChangedTheModesRestoresThem() throws {
        // A pager that changes the terminal's modes and dies of SIGINT without putting them back.
        let terminal = try start(["read", "--keep-unread"],
                                 environment: ["PAGER": "stty -echo -icanon; echo pager-ready; sleep 30"])
        let before = terminal.modes()
        XCTAssertTrue(terminal.wait(forText: "pager-ready"), terminal.screen.text)
        terminal.send("\u{3}")
        XCTAssertEqual(terminal.waitForExit(timeout: 2), 0, "feeds outlives Ctrl-C and ends:\n\(terminal.screen.text)")
        XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), before), "echo and canonical mode are back")
    }

    func testAScreenfulIsPagedAndShorterOutputIsPrintedDirectly() throws {
        // Four cards of six lines (title, meta, link, blank, text, blank), the first with an
        // enclosure line too: 25 lines.
        home = try CardHome(count: 4, words: 3)
        let screenful = try start(["read", "--keep-unread", "--utc"], rows: 25)
        let before = screenful.modes()
        XCTAssertTrue(screenful.wait(timeout: 10, for: pagerPrompt), "25 lines on 25 rows are paged:\n\(screenful.screen.text)")
        assertQuitsCleanly(screenful, modes: before)

        let shorter = try start(["read", "--keep-unread"], rows: 26)
        XCTAssertEqual(shorter.waitForExit(timeout: 10), 0, "25 lines on 26 rows need no key:\n\(shorter.screen.text)")
        XCTAssertFalse(shorter.outputText.contains("\u{1B}[?1049h"), "no pager (no alternate screen)")
        XCTAssertTrue(shorter.screen.text.contains("Card 3"), shorter.screen.text)
    }

    func testEmptyPagerPrintsDirectly() throws {
        let terminal = try start(["read", "--keep-unread"], environment: ["PAGER": ""])
        XCTAssertEqual(terminal.waitForExit(timeout: 10), 0, terminal.screen.text)
        XCTAssertTrue(terminal.outputText.contains("Card 59"), "all of it written")
        XCTAssertFalse(terminal.outputText.contains("\u{1B}[?1049h"))
    }

    func testPagerWithArguments() throws {
        for pager in ["less -RS", "less  -R -S", "more"] {
            let terminal = try start(["read", "--keep-unread"], environment: ["PAGER": pager])
            let before = terminal.modes()
            XCTAssertTrue(terminal.wait(forText: "Card 0"), "\(pager): \(terminal.screen.text)")
            XCTAssertFalse(terminal.screen.text.contains("Card 59"), "\(pager) shows one screen")
            XCTAssertTrue(terminal.isRunning, pager)
            terminal.send("q")
            XCTAssertEqual(terminal.waitForExit(timeout: 1), 0, pager)
            XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), before), pager)
        }
    }

    func testMissingPagerWarnsOnceAndPrintsPlainly() throws {
        for pager in ["no-such-pager-here -R", "/nowhere/pager"] {
            let terminal = try start(["read", "--keep-unread"], environment: ["PAGER": pager])
            XCTAssertEqual(terminal.waitForExit(timeout: 10), 0, "\(pager): \(terminal.screen.text)")
            let text = terminal.outputText
            let warnings = text.components(separatedBy: "\n").filter { $0.contains("feeds: warning:") }
            XCTAssertEqual(warnings.count, 1, text)
            XCTAssertTrue(warnings.first?.contains("not found") ?? false, warnings.first ?? "")
            XCTAssertTrue(text.contains("Card 59"), "the digest, printed")
        }
    }

    func testNoColorKeepsBoldDropsColors() throws {
        let colored = try start(["read", "--keep-unread"])
        XCTAssertTrue(colored.wait(timeout: 10, for: pagerPrompt))
        XCTAssertTrue(colored.outputText.contains("\u{1B}[36m"), "links in cyan through less -R")
        colored.send("q")
        XCTAssertEqual(colored.waitForExit(timeout: 1), 0)

        let plain = try start(["read", "--keep-unread"], environment: ["NO_COLOR": "1"])
        XCTAssertTrue(plain.wait(timeout: 10, for: pagerPrompt))
        XCTAssertTrue(plain.outputText.contains("\u{1B}[1mCard 0"), "titles still bold")
        for color in ["\u{1B}[36m", "\u{1B}[2m", "\u{1B}[35m", "\u{1B}[1;33m"] {
            XCTAssertFalse(plain.outputText.contains(color), "no color under NO_COLOR")
        }
        plain.send("q")
        XCTAssertEqual(plain.waitForExit(timeout: 1), 0)
    }

    func testAResizeBeforeStartIsTheSizeUsed() throws {
        home = try CardHome(count: 60, words: 30)
        let terminal = try start(["read", "--keep-unread"], rows: 24, columns: 80, resizeTo: (40, 120))
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), terminal.screen.text)
        let lines = terminal.screen.lines
        XCTAssertEqual(lines.count, 40)
        XCTAssertTrue(lines.last?.hasPrefix(":") ?? false, "less's prompt on row 40")
        let widest = lines.map(\.count).max() ?? 0
        XCTAssertGreaterThan(widest, 80, "wrapped to 120 columns, not 80")
        XCTAssertLessThanOrEqual(widest, 120)
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 1), 0)
    }

    func testAResizeWhilePagingReachesThePager() throws {
        // SIGWINCH goes to the terminal's foreground group: only a pager in it redraws.
        let terminal = try start(["read", "--keep-unread"], rows: 24, columns: 80)
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), terminal.screen.text)
        terminal.resize(rows: 30, columns: 80)
        XCTAssertTrue(terminal.wait(timeout: 5) { $0.lines.count == 30 && self.pagerPrompt($0) && !$0.lines[23].hasPrefix(":") },
                      "less redrew for 30 rows:\n\(terminal.screen.lines.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "\n"))")
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 1), 0)
    }

    func testSearchIsPagedTheSameWayAndMarksNothing() throws {
        let terminal = try start(["search", "river"])
        let before = terminal.modes()
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("Card "), terminal.screen.text)
        terminal.send("/Card 30\r")
        XCTAssertTrue(terminal.wait(timeout: 5) { $0.lines.first == "Card 30" && self.pagerPrompt($0) },
                      "less's search moved to the match:\n\(terminal.screen.text)")
        assertQuitsCleanly(terminal, modes: before)
        XCTAssertEqual(try home.unreadCount(), 60, "searching marks nothing read")
    }

    func testQuittingOnTheFirstScreenMarksOnlyWhatThePagerRead() throws {
        home = try CardHome(count: 400, words: 60)
        let terminal = try start(["read"], rows: 24)
        XCTAssertTrue(terminal.wait(timeout: 10, for: pagerPrompt), terminal.screen.text)
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 2), 0)
        let read = 400 - (try home.unreadCount())
        XCTAssertGreaterThanOrEqual(read, 1, "the cards on the screen were delivered")
        XCTAssertLessThan(read, 100, "a first screen is not the whole digest (\(read) of 400 marked)")
    }
}
