@testable import Aggregator
import Foundation
import TestSupport
import XCTest

/// Issue 15: every value `feeds add` and `feeds import` write into the sources file reads back
/// as exactly itself: a generator of hostile values (line breaks, quotes, `#`, backslashes and
/// what looks like escapes, controls, bidi overrides, blanks around, `=`, option-looking text)
/// in every field, written and read back; and an OPML file of such titles imported by the CLI.
final class SourcesFileEscapingTests: XCTestCase {
    /// The classes of hostile text, one or more samples each.
    static let pieces: [String] = [
        "\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\"", "\"\u{301}", "\\", "\\\"", "\\n", "\\u{41}", "\\u{",
        "#", " #", " # comment", "=", "a=b", " name=evil", " https://evil.example/x", "\nhttps://evil.example/x",
        " ", "  ", "\t", "\u{1B}[2J", "\u{1B}]0;t\u{07}", "\u{9B}", "\u{00}", "\u{7F}", "\u{202E}", "\u{2066}",
        "search:ddg", "\"quoted\"", "é", "日本", "🦆", "x",
    ]

    static func hostileValue(_ random: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// What reading back must give: the entry as written, tags as words, an empty name as none.
    static func expected(_ e: SourceEntry) -> SourceEntry {
        var e = e
        e.tags = e.tags.compactMap(SourcesFile.tagWord)
        if e.name == "" { e.name = nil }
        return e
    }

    func testEveryFieldWithHostileValuesReadsBackAsItself() throws {
        var random = SplitMix64(seed: 15)
        var checked = 0
        for round in 0..<2_000 {
            var entry = SourceEntry(url: "https://e.example/\(round)", name: Self.hostileValue(&random),
                                    tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.hostileValue(&random) },
                                    everySeconds: round % 3 == 0 ? 1800 : nil, keepDays: round % 5 == 0 ? 7 : nil)
            if round % 4 == 1 {
                entry = SourceEntry(url: "", name: entry.name, tags: entry.tags,
                                    search: SavedSearch(engine: .searxng, query: "q " + Self.hostileValue(&random),
                                                        endpoint: "https://s.example/" + Self.hostileValue(&random)))
                entry.url = entry.search!.identity
            }
            if round % 4 == 2 { entry.url = "feeds/" + Self.hostileValue(&random) + ".xml" }
            let line = entry.formatted
            XCTAssertFalse(line.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\u{1B}" || $0 == "\u{202E}" },
                           "written raw: \(line.debugDescription)")
            // With other lines around it, as in a real file: it must not swallow or split them.
            let file = "https://before.example/\n" + line + "\nhttps://after.example/\n"
            let read: [SourceEntry]
            do { read = try SourcesFile.parse(file) } catch {
                XCTFail("\(line.debugDescription) does not read back: \(error)"); continue
            }
            XCTAssertEqual(read.map(\.url), ["https://before.example/", entry.url, "https://after.example/"], line.debugDescription)
            guard read.count == 3 else { continue }
            var back = read[1]
            back.line = 0
            XCTAssertEqual(back, Self.expected(entry), line.debugDescription)
            checked += 1
        }
        XCTAssertEqual(checked, 2_000)
    }

    func testEscapesInsideQuotesAndOldFilesReadTheSame() throws {
        let entries = try SourcesFile.parse(#"""
        https://a.example/ name="a\nb\tc\rd\u{1B}e\u{202e}f\"g\\h\xi"
        https://b.example/ name="Two words" tags=a,b   # comment
        "feeds/with space.xml" name=plain
        """#)
        XCTAssertEqual(entries[0].name, "a\nb\tc\rd\u{1B}e\u{202E}f\"g\\hxi")
        XCTAssertEqual(entries[1].name, "Two words")
        XCTAssertEqual(entries[1].tags, ["a", "b"])
        XCTAssertEqual(entries[2].url, "feeds/with space.xml")
        XCTAssertThrowsError(try SourcesFile.parse(#"https://a.example/ name="\u{D800}""#))
        XCTAssertThrowsError(try SourcesFile.parse(#"https://a.example/ name="\u41""#))
    }

    func testURLsWithControlsAreNotAcceptable() {
        for bad in ["https://a.example/\n", "https://a.example/\u{1B}", "https://a.example/\u{202E}x", "https://a.example/\u{85}"] {
            XCTAssertFalse(SourcesFile.isAcceptable(bad), bad.debugDescription)
        }
        XCTAssertTrue(SourcesFile.isAcceptable("https://a.example/é?x=1"))
    }

    // MARK: Through the CLI, as a person meets it

    private func feeds(_ home: String, _ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args)
    }

    func testImportedOPMLTitlesNeverBreakTheFileOrAddASource() throws {
        let directory = TemporaryDirectory("feeds-opml-injection")
        let home = directory.url.path
        var random = SplitMix64(seed: 1015)
        var titles: [String] = []
        var outlines = ""
        func attribute(_ s: String) -> String { s.unicodeScalars.map { "&#\($0.value);" }.joined() }
        let server = try LoopbackHTTPServer()
        for n in 0..<60 {
            // Titles as OPML writes them (entities), so line breaks and controls arrive intact;
            // trimmed of NUL, which XML cannot carry even as a reference.
            let title = "T\(n)" + Self.hostileValue(&random).replacingOccurrences(of: "\u{00}", with: "")
            titles.append(title)
            server.route("/\(n)", .text("<rss><channel><title>x</title></channel></rss>", contentType: "application/rss+xml"))
            outlines += "<outline text=\"\(attribute(title))\" xmlUrl=\"\(server.url("/\(n)"))\" category=\"\(attribute("a, b/" + Self.hostileValue(&random)))\"/>\n"
        }
        // The issue's sample: a title whose line break would have added a source of its own.
        outlines += "<outline text=\"x&#10;https://evil.example/feed name=evil\" xmlUrl=\"\(server.url("/0"))x\"/>\n"
        outlines += "<outline text=\"u\" xmlUrl=\"https://e.example/a&#10;https://evil.example/\"/>\n"
        try "<opml version=\"2.0\"><body>\(outlines)</body></opml>".write(to: directory.file("in.opml"), atomically: false, encoding: .utf8)
        let imported = try feeds(home, ["import", directory.file("in.opml").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported 61 sources (1 already listed or unusable)"), imported.stdout)

        let listed = try feeds(home, ["sources", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let sources = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(sources.count, 61)
        XCTAssertFalse(sources.contains { ($0["url"] as? String)?.contains("evil") == true }, listed.stdout)
        for (n, title) in titles.enumerated() {
            XCTAssertEqual(sources[n]["name"] as? String, title, "title \(n) read back")
        }
        let update = try feeds(home, ["update", "--all"])
        XCTAssertNotEqual(update.status, 2, update.stderr)
    }

    func testAddWritesHostileNamesAndQueriesThatReadBack() throws {
        let directory = TemporaryDirectory("feeds-add-injection")
        let home = directory.url.path
        var random = SplitMix64(seed: 2015)
        var names: [String] = []
        for n in 0..<20 {
            // No NUL: an argument cannot carry one.
            let name = "N\(n)" + Self.hostileValue(&random).replacingOccurrences(of: "\u{00}", with: "")
            names.append(name)
            let r = n % 2 == 0
                ? try feeds(home, ["add", "--as-is", "https://e.example/\(n)", "--name", name, "--tags", "t\(n)," + Self.hostileValue(&random).replacingOccurrences(of: "\u{00}", with: "")])
                : try feeds(home, ["add", "--search", "ddg", "q\(n) " + Self.hostileValue(&random).replacingOccurrences(of: "\u{00}", with: ""), "--name", name])
            XCTAssertEqual(r.status, 0, "\(name.debugDescription): \(r.stderr)")
        }
        let listed = try feeds(home, ["sources", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let sources = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(sources.map { $0["name"] as? String }, names)
    }
}
