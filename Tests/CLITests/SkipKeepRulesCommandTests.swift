import Foundation
import TestSupport
import XCTest

/// Issue 19: block and keep rules (`skip=`, `keep=`, on a source's line and on the `global`
/// line): matching cards are not saved and are counted in `feeds sources`; a bad rule is a
/// sources-file error naming file:line; a feed's text cannot make the rules run for long.
final class SkipKeepRulesCommandTests: XCTestCase {
    func write(_ dir: TemporaryDirectory, _ name: String, _ items: [(title: String, author: String, link: String, description: String)]) throws {
        func esc(_ s: String) -> String { s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        let body = items.enumerated().map { i, item in
            "<item><guid>\(name)-\(i)</guid><title>\(esc(item.title))</title><author>\(esc(item.author))</author>"
                + "<link>\(esc(item.link))</link><description>\(esc(item.description))</description></item>"
        }.joined()
        try "<rss version=\"2.0\"><channel><title>\(name)</title>\(body)</channel></rss>"
            .write(to: dir.file("\(name).rss"), atomically: false, encoding: .utf8)
    }

    func titles(_ dir: TemporaryDirectory, source: String) throws -> [String] {
        let read = try FeedsCommand.run(["--home", dir.path, "read", "--json", "--keep-unread", "--source", source])
        XCTAssertEqual(read.status, 0, read.stderr)
        let cards = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]]
        return (cards ?? []).compactMap { $0["title"] as? String }.sorted()
    }

    func testSkipAndKeepRulesOnAFieldOrAllOfThem() throws {
        let dir = TemporaryDirectory("feeds-cli-rules")
        try write(dir, "news", [
            ("Swift 6 released", "Ann", "https://n.example/1", "A language"),
            ("SPONSORED: buy this", "Ads", "https://n.example/2", "an offer"),
            ("Weather", "Bob", "https://n.example/3", "rain, and a <b>sponsored</b> word in the text"),
            ("SQLite tips", "Cy", "https://ads.example/4", "db"),
            ("Gardening", "Di", "https://n.example/5", "roses"),
        ])
        try write(dir, "dev", [
            ("On swift", "A", "https://d.example/1", "x"),
            ("On rust", "B", "https://d.example/2", "y"),
            ("Sqlite WAL", "C", "https://d.example/3", "z"),
            ("ad: cheap", "D", "https://d.example/4", "swift"),
        ])
        try """
            global skip="(?i)sponsored"
            news.rss name=News skip=link:ads\\.example
            dev.rss name=Dev keep="(?i)swift|sqlite" skip="title:^ad:"
            """.write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(try titles(dir, source: "News"), ["Gardening", "Swift 6 released"],
                       "global skip on the title and on the description's text, the link rule on the link only")
        XCTAssertEqual(try titles(dir, source: "Dev"), ["On swift", "Sqlite WAL"], "keep, then a title-only skip")

        let sources = try FeedsCommand.run(["--home", dir.path, "sources"])
        XCTAssertTrue(sources.stdout.contains("  skipped 3 in the last fetch, 3 in all · skip=link:ads\\.example skip=(?i)sponsored (global)"), sources.stdout)
        XCTAssertTrue(sources.stdout.contains("  skipped 2 in the last fetch, 2 in all · keep=(?i)swift|sqlite skip=title:^ad: skip=(?i)sponsored (global)"), sources.stdout)
        let json = try FeedsCommand.run(["--home", dir.path, "sources", "--json"])
        XCTAssertTrue(json.stdout.contains("\"skipped\":3,\"skippedTotal\":3"), json.stdout)

        // The feed changes: the last fetch's count is that fetch's, the total adds up.
        try write(dir, "news", [("Sponsored again", "x", "https://n.example/9", "")])
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        let after = try FeedsCommand.run(["--home", dir.path, "sources"])
        XCTAssertTrue(after.stdout.contains("  skipped 1 in the last fetch, 4 in all"), after.stdout)
        XCTAssertFalse(try titles(dir, source: "News").contains("Sponsored again"))
    }

    func testABadRuleIsAnErrorNamingFileAndLine() throws {
        let dir = TemporaryDirectory("feeds-cli-rules")
        try write(dir, "news", [("t", "a", "https://n.example/1", "d")])
        let long = String(repeating: "a", count: 1_001)
        let cases: [(line: String, message: String)] = [
            ("news.rss skip=\"(unclosed\"", "skip=(unclosed is not a regular expression"),
            ("news.rss keep=\"[z-a]\"", "keep=[z-a] is not a regular expression"),
            ("news.rss skip=", "skip= needs a regular expression"),
            ("news.rss skip=\"title:\"", "skip= needs a regular expression"),
            ("news.rss skip=\(long)", "skip= is longer than 1000 characters"),
            ("global skip=\"(?i\"", "skip=(?i is not a regular expression"),
            ("global name=x", "the global line takes skip= and keep= only"),
            ("search:ddg \"x\" skip=a", "skip= goes on feed lines and the global line"),
        ]
        for c in cases {
            try "# rules\n\(c.line)\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
            let r = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
            XCTAssertEqual(r.status, 2, c.line)
            XCTAssertTrue(r.stderr.contains("\(dir.path)/sources:2: \(c.message)"), c.line + " -> " + r.stderr)
        }
        // keep=N (digits only) stays the old spelling of keep-cards=N.
        try "news.rss keep=200\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let old = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertEqual(try titles(dir, source: "news"), ["t"])
    }

    func testAFeedsTextCannotMakeABacktrackingRuleRunLong() throws {
        let dir = TemporaryDirectory("feeds-cli-rules")
        // (a+)+$ takes seconds per title of 30 a's and a b: 50 of them would take hours unbounded.
        let hostile = String(repeating: "a", count: 30) + "b"
        try write(dir, "hostile", (0..<50).map { ("\(hostile)\($0)", "x", "https://h.example/\($0)", "") })
        try "hostile.rss name=H skip=\"title:(a+)+$\"\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"], timeout: 60)
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stderr.contains("H: the skip=/keep= rules took longer than 1.0 seconds on this feed's text"), update.stderr)
        XCTAssertEqual(try titles(dir, source: "H").count, 50, "undecided cards are saved")
    }

    func testAddAndImportWriteRulesThatReadBack() throws {
        let dir = TemporaryDirectory("feeds-cli-rules")
        try "global skip=\"(?i)sponsored\"\nhttps://a.example/feed skip=\"title:a b\\\"c\" keep=\"x|y\"\n"
            .write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let sources = try FeedsCommand.run(["--home", dir.path, "sources", "--json"])
        XCTAssertEqual(sources.status, 0, sources.stderr)
        // Removing another line keeps the global line and the rules as written.
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "add", "--as-is", "https://b.example/f"]).status, 0)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "remove", "https://b.example/f"]).status, 0)
        XCTAssertEqual(try String(contentsOf: dir.file("sources"), encoding: .utf8),
                       "global skip=\"(?i)sponsored\"\nhttps://a.example/feed skip=\"title:a b\\\"c\" keep=\"x|y\"\n")
    }
}
