import Foundation
import TestSupport
import XCTest

/// `feeds browse` on a real pseudo-terminal against a real PostgreSQL (`--database`), the home's
/// SQLite database copied into it with `feeds migrate`: the same keys typed on both, the same
/// screens at every step (list, open, back, search, mark read, end of the search, quit), and
/// the marks saved in PostgreSQL while browse still runs (issue 22).
final class BrowseOnPostgresTests: PostgresCLITestCase {
    private var home: CardHome!

    override func tearDown() { home = nil }

    /// The screens of one run of the keys, after each step settled.
    private func screens(_ base: [String], unread: () throws -> Int) throws -> [String] {
        let terminal = try PseudoTerminal(rows: 24, columns: 80)
        let modes = terminal.modes()
        try terminal.start([FeedsCommand.binary.path] + base + ["browse"],
                           environment: PseudoTerminal.environment(home: home.path, ["TZ": "UTC"]))
        var screens: [String] = []
        func step(_ keys: String, _ what: String, until condition: @escaping (TerminalScreen) -> Bool) {
            if !keys.isEmpty { terminal.send(keys) }
            XCTAssertTrue(terminal.wait(timeout: 10, for: condition), "\(base) \(what):\n\(terminal.screen.text)")
            terminal.pump(0.2)
            screens.append(terminal.screen.text)
        }
        step("", "the list") { $0.lines.first?.hasPrefix("feeds browse · 1/60") ?? false }
        step("jj\r", "card 2 open") { $0.lines.count > 1 && $0.lines[1] == "Card 2" }
        XCTAssertEqual(try unread(), 58, "\(base): marked read as it was opened, while browse runs")
        step("q", "back on the list") { $0.lines.contains { $0.hasPrefix("  ") && $0.hasSuffix("Local  Card 2") } }
        step("/zeppelin\r", "the search") { $0.lines.first?.contains("search: zeppelin") ?? false }
        step("r", "the match marked") { $0.text.contains("marked read") }
        XCTAssertEqual(try unread(), 57, "\(base): the mark saved at once")
        step("\u{1B}", "the search ended") { $0.lines.first?.hasPrefix("feeds browse · 8/60 · newest first") ?? false }
        step("G", "the end") { $0.lines.first?.hasPrefix("feeds browse · 60/60") ?? false }
        step("p", "the previous unread card") { $0.lines.first?.hasPrefix("feeds browse · 59/60") ?? false }
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 5), 0, "\(base): ends at once, status 0:\n\(terminal.screen.text)")
        XCTAssertTrue(PseudoTerminal.sameModes(terminal.modes(), modes), "\(base): terminal modes as before")
        XCTAssertFalse(terminal.screen.onAlternateScreen, "\(base): back on the main screen")
        return screens
    }

    private func unreadCount(_ base: [String]) throws -> Int {
        let r = try FeedsCommand.run(base + ["read", "--unread", "--keep-unread", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any])?.count ?? -1
    }

    func testBrowseOnPostgreSQLShowsWhatItShowsOnSQLite() throws {
        let database = try server().makeDatabase()
        // Card 7's title has a word no other card has; card 59 (the oldest) is read, so `p`
        // from the end goes to card 58.
        home = try CardHome(count: 60, title: { $0 == 7 ? "Card 7 zeppelin" : "Card \($0)" })
        XCTAssertEqual(try FeedsCommand.run(["--home", home.path, "mark", "read", "--before", "3540m"]).stdout, "1 card marked read\n")
        let migrated = try FeedsCommand.run(["--home", home.path, "migrate", "--to", database])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let sqlite = ["--home", home.path], postgres = ["--home", home.path, "--database", database]
        let onPostgres = try screens(postgres) { try unreadCount(postgres) }
        let onSQLite = try screens(sqlite) { try unreadCount(sqlite) }
        XCTAssertEqual(onPostgres.count, 8)
        for (index, (a, b)) in zip(onSQLite, onPostgres).enumerated() {
            XCTAssertEqual(b, a, "screen \(index) on PostgreSQL, then on SQLite")
        }
        XCTAssertTrue(onPostgres[3].contains("Card 7 zeppelin") && onPostgres[3].contains("1/1 · best search match first"), onPostgres[3])
    }

    /// An update saved by another process while browse shows the list comes in at the next
    /// key, as on SQLite: the data version of migration 7 seen changed.
    func testCardsAnotherProcessSavesShowAtTheNextKey() throws {
        let database = try server().makeDatabase()
        home = try CardHome(count: 5)
        XCTAssertEqual(try FeedsCommand.run(["--home", home.path, "migrate", "--to", database]).status, 0)
        let base = ["--home", home.path, "--database", database]
        let terminal = try PseudoTerminal(rows: 24, columns: 80)
        try terminal.start([FeedsCommand.binary.path] + base + ["browse"],
                           environment: PseudoTerminal.environment(home: home.path, ["TZ": "UTC"]))
        XCTAssertTrue(terminal.wait { $0.lines.first?.hasPrefix("feeds browse · 1/5") ?? false }, terminal.screen.text)
        // A sixth card, newer than the others, saved by `feeds update` on PostgreSQL.
        let feed = try String(contentsOf: home.directory.file("feed.rss"), encoding: .utf8)
        let item = "<item><guid>card-new</guid><title>Fresh card</title><link>https://local.example/new</link>"
            + "<pubDate>\(Self.rfc822(Date()))</pubDate><description>new</description></item>"
        try feed.replacingOccurrences(of: "<item>", with: item + "<item>", options: [], range: feed.range(of: "<item>"))
            .write(to: home.directory.file("feed.rss"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(base + ["update", "--all"])
        XCTAssertEqual(update.status, 0, update.stderr)
        terminal.send("j")
        XCTAssertTrue(terminal.wait { $0.text.contains("updated: 6 cards (+1)") && $0.text.contains("Fresh card") },
                      "the saved card shows at the next key:\n\(terminal.screen.text)")
        terminal.send("q")
        XCTAssertEqual(terminal.waitForExit(timeout: 5), 0)
    }

    private static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
