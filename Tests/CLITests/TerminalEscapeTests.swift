import Foundation
import TestSupport
import XCTest

/// Issue 15: no control character from outside reaches a terminal or standard error. Feeds
/// whose every field carries a hostile sequence (a generator over the classes: CSI, OSC 0/52/8,
/// BEL, other C0 controls, DEL, C1 controls, bidi overrides and isolates, line breaks inside
/// one-line fields), run through `update`, `read`, `search`, `sources`, `parse` and `import`
/// as the built binary, and a server whose Location header carries them.
final class TerminalEscapeTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }

    override func setUpWithError() throws { directory = TemporaryDirectory("feeds-terminal-escapes") }
    override func tearDown() { directory = nil }

    /// One sample of each class of hostile text.
    static let hostile: [String] = [
        "\u{1B}[2J\u{1B}[H", "\u{1B}]0;pwned\u{07}", "\u{1B}]52;c;cHduZWQ=\u{07}",
        "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\", "\u{07}\u{07}", "\u{00}\u{01}\u{08}\u{0B}\u{0C}\u{1F}",
        "\u{7F}", "\u{9B}31m\u{90}\u{9D}0;t\u{9C}", "\u{202E}evil\u{202C}", "\u{2066}\u{2067}\u{2068}x\u{2069}",
        "\u{202A}\u{202B}\u{202D}", "line\nfeeds: forged line", "back\rover", "tab\there", "\u{2028}\u{2029}",
    ]

    private func feeds(_ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args, environment: ["COLUMNS": "70"])
    }

    /// No scalar below U+0020 but "\n", no DEL, C1 or bidi control.
    private func assertTerminalSafe(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for s in text.unicodeScalars where s != "\n" {
            let v = s.value
            let bad = v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || v == 0x2028 || v == 0x2029
            if bad {
                XCTFail("\(what): U+\(String(v, radix: 16)) reaches the terminal in \(text.debugDescription)", file: file, line: line)
                return
            }
        }
    }

    private func jsonFeed(_ bad: String, items: Int = 2) throws -> String {
        var list: [[String: Any]] = []
        for i in 0..<items {
            list.append(["id": "\(i)\(bad)", "title": "Title \(i) \(bad) end", "url": "https://e.example/\(i)",
                         "content_html": "<p>body \(bad) end</p><pre>\(bad)</pre>", "authors": [["name": "Author \(bad)"]],
                         "image": "https://e.example/\(i).png", "date_published": "2024-01-0\(i + 1)T00:00:00Z"])
        }
        let feed: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Feed \(bad) end",
                                   "home_page_url": "https://e.example/", "items": list]
        return String(decoding: try JSONSerialization.data(withJSONObject: feed), as: UTF8.self)
    }

    func testEveryClassInEveryFieldIsNeutralisedByEveryTextWriter() throws {
        for (n, bad) in Self.hostile.enumerated() {
            try jsonFeed(bad).write(to: directory.file("f\(n).json"), atomically: false, encoding: .utf8)
        }
        // The sources file names half of them by the feed's title and half by a hostile name=.
        let lines = Self.hostile.indices.map { n in "f\(n).json" + (n % 2 == 0 ? "" : " name=\"name \(n)\"") }
        try (lines.joined(separator: "\n") + "\n").write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let update = try feeds(["update", "--all", "--verbose"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("\(Self.hostile.count) ok"), update.stdout)
        for args in [["read", "--keep-unread"], ["read", "--keep-unread", "--group", "source"], ["search", "body"],
                     ["search", "title:Title"], ["sources", "--cards", "5"]] {
            let r = try feeds(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("Title 0"), "\(args) shows the cards: \(r.stdout)")
            assertTerminalSafe(r.stdout, args.joined(separator: " "))
            assertTerminalSafe(r.stderr, args.joined(separator: " ") + " (stderr)")
        }
        for n in Self.hostile.indices {
            let r = try feeds(["parse", directory.file("f\(n).json").path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("* Title 0"), r.stdout)
            assertTerminalSafe(r.stdout, "parse f\(n)")
            assertTerminalSafe(r.stderr, "parse f\(n) (stderr)")
        }
    }

    func testEscapesAreShownNotDropped() throws {
        try jsonFeed("\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}x", items: 1).write(to: directory.file("f.json"), atomically: false, encoding: .utf8)
        let r = try feeds(["parse", directory.file("f.json").path])
        XCTAssertTrue(r.stdout.contains(#"* Title 0 \x1b]0;pwned\x07"#), r.stdout)
        XCTAssertTrue(r.stdout.contains(#"\u202ex end"#), r.stdout)
    }

    func testOPMLTitlesAndURLsReachNoTerminal() throws {
        var outlines = ""
        for (n, bad) in Self.hostile.enumerated() {
            let title = bad.unicodeScalars.map { "&#\($0.value);" }.joined()
            outlines += "<outline type=\"rss\" text=\"t\(n)\" title=\"T\(n) \(title)\" xmlUrl=\"https://e.example/\(n)\"/>\n"
        }
        try "<opml version=\"2.0\"><body>\n\(outlines)</body></opml>".write(to: directory.file("in.opml"), atomically: false, encoding: .utf8)
        let imported = try feeds(["import", directory.file("in.opml").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let sources = try feeds(["sources"])
        XCTAssertEqual(sources.status, 0, sources.stderr)
        XCTAssertTrue(sources.stdout.contains("T0 "), sources.stdout)
        assertTerminalSafe(sources.stdout, "sources after import")
    }

    func testAServersLocationAndMessagesReachNoTerminal() throws {
        let server = try LoopbackHTTPServer()
        var lines: [String] = []
        for (n, bad) in Self.hostile.enumerated() where !bad.contains("\n") && !bad.contains("\r") && !bad.contains("\u{00}") {
            // A redirect to a scheme feeds refuses, named in the error line; and one to a page
            // whose reply is not HTTP.
            server.route("/r\(n)", .redirect(301, to: "gopher://e.example/\(bad)"))
            lines.append(server.url("/r\(n)"))
        }
        server.route("/raw", .raw(Array("HTTP/1.1 200 \u{1B}]0;pwned\u{07}\r\nX: \u{9B}2J\r\n\r\n".utf8)))
        lines.append(server.url("/raw"))
        try (lines.joined(separator: "\n") + "\n").write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let update = try feeds(["update", "--all", "--verbose"])
        XCTAssertEqual(update.status, 1, update.stderr)
        XCTAssertGreaterThanOrEqual(update.stderr.split(separator: "\n").count, lines.count, update.stderr)
        assertTerminalSafe(update.stderr, "update's error lines")
        XCTAssertFalse(update.stderr.split(separator: "\n").contains { $0.hasPrefix("feeds: forged") })
        let sources = try feeds(["sources"])
        assertTerminalSafe(sources.stdout, "sources' last errors")
    }
}
