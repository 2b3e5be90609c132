import Foundation
import TestSupport
import XCTest

/// Issue 19: `feeds add https://site/` on a web page subscribes to the feed it announces (or one
/// at the usual paths), `feeds discover` lists them; on the loopback server, through the CLI.
final class FeedDiscoveryCommandTests: XCTestCase {
    static func rss(_ title: String) -> String {
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>"
            + "<item><guid>1</guid><title>One</title></item></channel></rss>"
    }

    static func page(_ head: String) -> ScriptedResponse {
        .text("<!DOCTYPE html><html><head><title>Site</title>\(head)</head><body><p>Hello</p></body></html>",
              contentType: "text/html; charset=utf-8")
    }

    func sources(_ dir: TemporaryDirectory) -> String {
        (try? String(contentsOf: dir.file("sources"), encoding: .utf8)) ?? ""
    }

    func testAPageAnnouncingTwoFeedsIsListedAndAddTakesTheFirstWhenNotOnATerminal() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        // A relative href against <base href>, an absolute one, a type with parameters in capitals,
        // and links that are no feed (a stylesheet, an alternate language, a javascript: href).
        site.route("/blog/", Self.page("""
            <base href="/blog/feeds/">
            <link rel="stylesheet" href="/s.css">
            <link rel="alternate" hreflang="de" href="/de/">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)" title="Bad">
            <link rel="Alternate" type="Application/RSS+XML; charset=utf-8" href="main.xml" title="Main &amp; posts">
            <link rel="alternate" type="application/atom+xml" href="\(site.url("/comments.atom"))" title="Comments">
            """))
        let discover = try FeedsCommand.run(["--home", dir.path, "discover", site.url("/blog/")])
        XCTAssertEqual(discover.status, 0, discover.stderr)
        XCTAssertEqual(discover.stdout, "Main & posts  rss  \(site.url("/blog/feeds/main.xml"))\nComments  atom  \(site.url("/comments.atom"))\n")
        XCTAssertTrue(sources(dir).isEmpty, "discover adds nothing")
        let json = try FeedsCommand.run(["--home", dir.path, "discover", "--json", site.url("/blog/")])
        XCTAssertEqual(json.status, 0, json.stderr)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]]
        XCTAssertEqual(parsed?.map { $0["url"] ?? "" }, [site.url("/blog/feeds/main.xml"), site.url("/comments.atom")])
        XCTAssertEqual(parsed?.first?["format"], "rss")
        XCTAssertEqual(parsed?.first?["title"], "Main & posts")
        XCTAssertEqual(site.requests(path: "/feed").count, 0, "announced feeds: no guessing at the usual paths")

        let add = try FeedsCommand.run(["--home", dir.path, "add", site.url("/blog/")])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stderr.contains("offers 2 feeds; took the first, \(site.url("/blog/feeds/main.xml"))"), add.stderr)
        XCTAssertTrue(add.stderr.contains("feeds discover \(site.url("/blog/"))"), add.stderr)
        XCTAssertTrue(sources(dir).contains("\n\(site.url("/blog/feeds/main.xml"))\n"), sources(dir))
        XCTAssertFalse(sources(dir).contains(site.url("/blog/") + "\n"), "the page itself is not a source")
    }

    func testWithoutAnnouncedFeedsTheUsualPathsAreCheckedToBeFeeds() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/", Self.page("<link rel=\"icon\" href=\"/favicon.ico\">"))
        site.route("/feed", Self.page(""))  // a 200 that is another web page: no feed
        site.route("/rss.xml", .text(Self.rss("Found at rss.xml"), contentType: "application/rss+xml"))
        site.route("/feed.json", .text("{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"J\",\"items\":[]}",
                                       contentType: "application/feed+json"))
        let discover = try FeedsCommand.run(["--home", dir.path, "discover", site.url("/")])
        XCTAssertEqual(discover.status, 0, discover.stderr)
        XCTAssertEqual(discover.stdout, "Found at rss.xml  rss  \(site.url("/rss.xml"))\nJ  json  \(site.url("/feed.json"))\n")
        for path in ["/feed", "/rss.xml", "/atom.xml", "/index.xml", "/feed.json"] {
            XCTAssertEqual(site.requests(path: path).count, 1, path)
        }
        let add = try FeedsCommand.run(["--home", dir.path, "add", site.url("/"), "--name", "Mine"])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(sources(dir).contains("\(site.url("/rss.xml")) name=Mine\n"), sources(dir))
    }

    func testAPageWithNoFeedAtAllAddsNothingAndSaysWhatWasTried() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/", Self.page(""))
        let add = try FeedsCommand.run(["--home", dir.path, "add", site.url("/")])
        XCTAssertEqual(add.status, 1)
        XCTAssertTrue(add.stderr.contains("is a web page that announces no feed, and none is at /feed, /rss.xml"), add.stderr)
        XCTAssertFalse(sources(dir).contains(site.url("/")), sources(dir))
        let discover = try FeedsCommand.run(["--home", dir.path, "discover", site.url("/")])
        XCTAssertEqual(discover.status, 1)
        XCTAssertEqual(discover.stdout, "")

        let gone = try FeedsCommand.run(["--home", dir.path, "add", site.url("/nothing-here")])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.contains("HTTP 404"), gone.stderr)
        XCTAssertTrue(gone.stderr.contains("feeds add --as-is URL"), gone.stderr)
        let asIs = try FeedsCommand.run(["--home", dir.path, "add", "--as-is", site.url("/nothing-here")])
        XCTAssertEqual(asIs.status, 0, asIs.stderr)
        XCTAssertTrue(sources(dir).contains(site.url("/nothing-here")))
    }

    func testTitlesFromThePageNeverReachTheTerminalRaw() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        // Controls, an escape sequence, a bidi override and a line break, as references and raw.
        let titles = ["&#27;[2J&#27;]0;owned&#7;", "a&#10;b", "\u{202E}evil", "\u{1B}[31mred", "tab\there"]
        site.route("/", Self.page(titles.enumerated().map { i, t in
            "<link rel=alternate type=application/rss+xml href=/f\(i).xml title=\"\(t)\">" }.joined()))
        let discover = try FeedsCommand.run(["--home", dir.path, "discover", site.url("/")])
        XCTAssertEqual(discover.status, 0, discover.stderr)
        XCTAssertEqual(discover.stdout.split(separator: "\n").count, titles.count, discover.stdout)
        XCTAssertFalse(discover.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0 == "\u{202E}" || $0 == "\u{7F}" },
                       discover.stdout.debugDescription)
        let json = try FeedsCommand.run(["--home", dir.path, "discover", "--json", site.url("/")])
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], json.stdout)
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, json.stdout.debugDescription)
        let add = try FeedsCommand.run(["--home", dir.path, "add", site.url("/")])
        XCTAssertFalse(add.stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0 == "\u{202E}" }, add.stderr.debugDescription)
    }

    func testAFeedIsAddedAsItIsWithOneRequest() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/feed.xml", .text(Self.rss("Plain"), contentType: "application/rss+xml"))
        let add = try FeedsCommand.run(["--home", dir.path, "add", site.url("/feed.xml")])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout, "added \(site.url("/feed.xml")) to \(dir.path)/sources\n")
        XCTAssertEqual(site.requests.count, 1)
        XCTAssertTrue(sources(dir).hasSuffix("\n\(site.url("/feed.xml"))\n"), sources(dir))
    }

    func testOnATerminalThePersonPicksAFeedByNumber() throws {
        let dir = TemporaryDirectory("feeds-cli-discover")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/", Self.page("""
            <link rel="alternate" type="application/rss+xml" href="/posts.rss" title="Posts">
            <link rel="alternate" type="application/atom+xml" href="/links.atom" title="Links">
            """))
        let terminal = try PseudoTerminal(rows: 24, columns: 100)
        try terminal.start([FeedsCommand.binary.path, "--home", dir.path, "add", site.url("/")],
                           environment: PseudoTerminal.environment(home: dir.path))
        XCTAssertTrue(terminal.wait(forText: "Add which one?"), terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("1. Posts  rss  \(site.url("/posts.rss"))"), terminal.screen.text)
        XCTAssertTrue(terminal.screen.text.contains("2. Links  atom  \(site.url("/links.atom"))"), terminal.screen.text)
        terminal.send("7\r")
        XCTAssertTrue(terminal.wait(forText: "Type a number from 1 to 2"), terminal.screen.text)
        terminal.send("2\r")
        XCTAssertEqual(terminal.waitForExit(), 0, terminal.screen.text)
        XCTAssertTrue(sources(dir).contains("\n\(site.url("/links.atom"))\n"), sources(dir))
        XCTAssertFalse(sources(dir).contains("posts.rss"), sources(dir))
    }
}

/// Issue 19: `feeds add example.org/feed` (no scheme, no such file) means https://; a path that
/// exists stays a path.
final class SchemelessAddCommandTests: XCTestCase {
    func testAnAddressWithoutSchemeIsHTTPSUnlessAFileIsThere() throws {
        let dir = TemporaryDirectory("feeds-cli-schemeless")
        let add = try FeedsCommand.run(["--home", dir.path, "add", "--as-is", "example.invalid/feed"])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stdout.hasPrefix("example.invalid/feed is no file here: taken as https://example.invalid/feed\n"), add.stdout)
        let text = try String(contentsOf: dir.file("sources"), encoding: .utf8)
        XCTAssertTrue(text.contains("\nhttps://example.invalid/feed\n"), text)

        // Files that exist, as typed or next to the sources file, stay paths.
        try "<rss/>".write(to: dir.file("local.example.org"), atomically: false, encoding: .utf8)
        let local = try FeedsCommand.run(["--home", dir.path, "add", "local.example.org"])
        XCTAssertEqual(local.status, 0, local.stderr)
        XCTAssertFalse(local.stdout.contains("taken as"), local.stdout)
        XCTAssertTrue(try String(contentsOf: dir.file("sources"), encoding: .utf8).contains("\nlocal.example.org\n"))

        // Names that are no host stay as written (and a missing feed file is not a web address).
        for typed in ["feed.xml", "notes", "./x.org/feed", "a b.org/feed"] {
            let r = try FeedsCommand.run(["--home", dir.path, "add", "--as-is", typed])
            XCTAssertFalse(r.stdout.contains("taken as"), typed + ": " + r.stdout)
        }
    }

    func testWithoutSchemeTheHTTPSAddressIsTheOneFetched() throws {
        let dir = TemporaryDirectory("feeds-cli-schemeless")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        // The loopback server speaks http only: its https address fails, and says which it tried.
        let add = try FeedsCommand.run(["--home", dir.path, "add", "127.0.0.1:\(site.port)/feed.xml"])
        XCTAssertTrue(add.stdout.contains("taken as https://127.0.0.1:\(site.port)/feed.xml"), add.stdout)
        XCTAssertTrue(add.stderr.contains("cannot fetch https://127.0.0.1:\(site.port)/feed.xml to find its feed"), add.stderr)
        XCTAssertEqual(add.status, 1)
    }
}
