import Foundation
import TestSupport
import XCTest

/// Issue 19: `feeds remove NAME` on a terminal shows what goes and asks (y/N); `--yes` and a
/// standard input that is no terminal remove without asking, as rm does. On a real pty.
final class RemoveConfirmationTests: XCTestCase {
    func home() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("feeds-cli-remove")
        let items = (0..<3).map { "<item><guid>\($0)</guid><title>Card \($0)</title></item>" }.joined()
        try "<rss version=\"2.0\"><channel><title>Local</title>\(items)</channel></rss>"
            .write(to: dir.file("local.rss"), atomically: false, encoding: .utf8)
        try "local.rss\nother.rss\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        try "<rss version=\"2.0\"><channel><title>Other</title></channel></rss>".write(to: dir.file("other.rss"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        // One card read: 3 cards, 2 unread.
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "mark", "read", "1"]).status, 0)
        return dir
    }

    func listed(_ dir: TemporaryDirectory) throws -> String { try String(contentsOf: dir.file("sources"), encoding: .utf8) }

    func onTerminal(_ dir: TemporaryDirectory, _ args: [String]) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(rows: 24, columns: 100)
        try terminal.start([FeedsCommand.binary.path, "--home", dir.path] + args, environment: PseudoTerminal.environment(home: dir.path))
        return terminal
    }

    func testOnATerminalItShowsWhatGoesAndOnlyYesRemoves() throws {
        let dir = try home()
        for answer in ["\r", "n\r", "whatever\r"] {
            let terminal = try onTerminal(dir, ["remove", "Local"])
            XCTAssertTrue(terminal.wait(forText: "[y/N]"), terminal.screen.text)
            XCTAssertTrue(terminal.screen.text.contains("Local (local.rss): 3 cards, 2 unread"), terminal.screen.text)
            XCTAssertTrue(terminal.screen.text.contains("Remove this source and its cards, 2 unread cards among them? [y/N]"), terminal.screen.text)
            terminal.send(answer)
            XCTAssertEqual(terminal.waitForExit(), 0, terminal.screen.text)
            XCTAssertTrue(terminal.screen.text.contains("feeds: nothing removed"), terminal.screen.text)
            XCTAssertEqual(try listed(dir), "local.rss\nother.rss\n", "answer \(answer.debugDescription) keeps it")
        }
        let terminal = try onTerminal(dir, ["remove", "Local"])
        XCTAssertTrue(terminal.wait(forText: "[y/N]"), terminal.screen.text)
        terminal.send("y\r")
        XCTAssertEqual(terminal.waitForExit(), 0, terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("removed local.rss"), terminal.screen.text)
        XCTAssertEqual(try listed(dir), "other.rss\n")
        let read = try FeedsCommand.run(["--home", dir.path, "read", "--brief", "--keep-unread"])
        XCTAssertFalse(read.stdout.contains("Card"), "its cards went too: " + read.stdout)
    }

    func testYesOrNoTerminalRemovesWithoutAsking() throws {
        let dir = try home()
        let terminal = try onTerminal(dir, ["remove", "--yes", "Other"])
        XCTAssertEqual(terminal.waitForExit(), 0, terminal.screen.text)
        XCTAssertFalse(terminal.screen.text.contains("[y/N]"), terminal.screen.text)
        XCTAssertEqual(try listed(dir), "local.rss\n")
        // A script: standard input a pipe, no question, as rm.
        let piped = try FeedsCommand.run(["--home", dir.path, "remove", "Local"], stdin: Data("n\n".utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "removed local.rss\n")
        XCTAssertEqual(try listed(dir), "")
    }
}
