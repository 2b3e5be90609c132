import Foundation
import TestSupport
import XCTest

/// Issue 19: tags are case-insensitive (`--tag tech` finds `Tech` from an OPML import) in
/// `read`, `search`, `sources` and `html`, in every script.
final class TagCaseCommandTests: XCTestCase {
    func rss(_ title: String) -> String {
        "<rss version=\"2.0\"><channel><title>\(title)</title><item><guid>\(title)</guid><title>\(title) apple</title>"
            + "<pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item></channel></rss>"
    }

    func testATagMatchesWhateverItsCase() throws {
        let dir = TemporaryDirectory("feeds-cli-tags")
        for name in ["tech", "eco", "plain"] { try rss(name.capitalized).write(to: dir.file("\(name).rss"), atomically: false, encoding: .utf8) }
        try "tech.rss tags=News,Tech\neco.rss tags=ÖKO\nplain.rss tags=technology\n"
            .write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        for spelling in ["tech", "TECH", "Tech", "tEcH"] {
            let read = try FeedsCommand.run(["--home", dir.path, "read", "--keep-unread", "--brief", "--tag", spelling])
            XCTAssertEqual(read.status, 0, read.stderr)
            XCTAssertTrue(read.stdout.contains("Tech apple"), spelling + ": " + read.stdout)
            XCTAssertFalse(read.stdout.contains("Plain apple"), "a tag is a whole word: technology is another")
            let search = try FeedsCommand.run(["--home", dir.path, "search", "apple", "--brief", "--tag", spelling])
            XCTAssertEqual(search.status, 0, search.stderr)
            XCTAssertTrue(search.stdout.contains("Tech apple") && !search.stdout.contains("Eco apple"), spelling + ": " + search.stdout)
            let sources = try FeedsCommand.run(["--home", dir.path, "sources", "--tag", spelling])
            XCTAssertEqual(sources.status, 0, sources.stderr)
            XCTAssertTrue(sources.stdout.hasPrefix("Tech\n  tech.rss\n"), spelling + ": " + sources.stdout)
            XCTAssertFalse(sources.stdout.contains("eco.rss") || sources.stdout.contains("plain.rss"), sources.stdout)
        }
        // Beyond ASCII (SQLite's NOCASE folds only A-Z).
        let eco = try FeedsCommand.run(["--home", dir.path, "read", "--keep-unread", "--brief", "--tag", "öko"])
        XCTAssertTrue(eco.stdout.contains("Eco apple") && !eco.stdout.contains("Tech apple"), eco.stdout)
        let json = try FeedsCommand.run(["--home", dir.path, "sources", "--json", "--tag", "Öko"])
        XCTAssertTrue(json.stdout.contains("\"url\":\"eco.rss\"") && !json.stdout.contains("tech.rss"), json.stdout)
        // The digest site of one tag: its sources' cards on every page, the archive included.
        let site = dir.path + "/site"
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--no-images", "--tag", "TECH"])
        XCTAssertEqual(html.status, 0, html.stderr)
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("Tech apple") && !index.contains("Eco apple") && !index.contains("Plain apple"), index)
        let day = try String(contentsOfFile: site + "/archive/2006-01-02.html", encoding: .utf8)
        XCTAssertTrue(day.contains("Tech apple") && !day.contains("Eco apple"), day)
        let opml = try String(contentsOfFile: site + "/sources.opml", encoding: .utf8)
        XCTAssertEqual(opml.components(separatedBy: "<outline").count, 2, "one source listed: " + opml)
        let none = try FeedsCommand.run(["--home", dir.path, "sources", "--tag", "sport"])
        XCTAssertEqual(none.stdout, "no source has the tag sport (tags are on the lines of \(dir.path)/sources)\n")
    }
}
