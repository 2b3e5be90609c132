import Foundation
import TestSupport
import XCTest

/// Pictures in the site (issue 18): a local source's pictures are files next to it (the
/// offline demo), a feed fetched over HTTP never shows a local file, and cards older than
/// `--since` get their cached pictures on the archive and source pages too.
final class SitePicturesTests: XCTestCase {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 32, 0, 0]

    func item(_ n: Int, image: String, date: String = "Mon, 02 Jan 2006 15:04:05 GMT") -> String {
        "<item><guid>\(n)</guid><title>Card \(n)</title><link>https://example.org/\(n)</link>"
            + "<media:thumbnail xmlns:media=\"http://search.yahoo.com/mrss/\" url=\"\(image)\"/><pubDate>\(date)</pubDate></item>"
    }

    func testALocalSourceShowsItsPictureFilesAndAWebFeedNeverALocalFile() throws {
        let dir = TemporaryDirectory("feeds-cli-pictures")
        try FileManager.default.createDirectory(atPath: dir.path + "/img", withIntermediateDirectories: true)
        try Data(Self.png).write(to: URL(fileURLWithPath: dir.path + "/img/local.png"))
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // The web feed names the very same file, absolute and relative to where a local copy would be.
        let web = "<rss version=\"2.0\"><channel><title>Web</title>" + item(1, image: "file://" + dir.path + "/img/local.png")
            + item(2, image: "img/local.png") + "</channel></rss>"
        server.route("/web.rss", ScriptedResponse(status: 200, headers: [("Content-Type", "application/rss+xml")], body: Array(web.utf8)))
        let local = "<rss version=\"2.0\"><channel><title>Local</title>" + item(3, image: "img/local.png") + "</channel></rss>"
        try local.write(to: dir.file("local.rss"), atomically: false, encoding: .utf8)
        try "local.rss name=Local\n\(server.url("/web.rss")) name=Web\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        XCTAssertEqual(update.status, 0, update.stderr)

        let site = dir.path + "/site"
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--allow-internal"])
        XCTAssertEqual(html.status, 0, html.stderr)
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("width=\"64\" height=\"32\" alt=\"Card 3\""), "the local source's picture")
        XCTAssertFalse(index.contains("alt=\"Card 1\""), "a web feed's file image is not shown")
        XCTAssertFalse(index.contains("alt=\"Card 2\""))
        XCTAssertFalse(index.contains("file:"), "no file URL anywhere in the page")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site + "/images").count, 1)
        XCTAssertEqual(server.requests.filter { $0.path.contains("img") }.count, 1, "the relative one resolved against the web feed: an ordinary download")
    }

    /// `make run` (issue 18): every demo card that names a picture shows it, offline: the
    /// pictures are files next to the local samples (Feeds/samples/img), none is a placeholder.
    func testTheOfflineDemoShowsEveryPictureItNames() throws {
        let dir = TemporaryDirectory("feeds-cli-pictures")
        try FileManager.default.createSymbolicLink(at: dir.file("sources"),
                                                   withDestinationURL: Fixtures.repositoryRoot.appendingPathComponent("Feeds/sources"))
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        let site = dir.path + "/site"
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2000-01-01"])
        XCTAssertEqual(html.status, 0, html.stderr)
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertEqual(index.components(separatedBy: "<article class=\"card").count - 1, 13, "the demo's cards")
        XCTAssertEqual(index.components(separatedBy: "src=\"images/").count - 1, 4, "libxml2, threads, episode 42, 6.3.1")
        XCTAssertFalse(index.contains("placeholder"), "no demo card names a picture it cannot show")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site + "/images").count, 4)
    }

    func testOlderCardsGetTheirPicturesOnTheArchiveAndSourcePages() throws {
        let dir = TemporaryDirectory("feeds-cli-pictures")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/old.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Self.png))
        let feed = "<rss version=\"2.0\"><channel><title>Old</title>" + item(1, image: server.url("/old.png")) + "</channel></rss>"
        try feed.write(to: dir.file("old.rss"), atomically: false, encoding: .utf8)
        try "old.rss name=Old\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        let site = dir.path + "/site"
        // The card is of 2006, far outside the latest week: still its picture is fetched, once.
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "7d", "--allow-internal"])
        XCTAssertEqual(html.status, 0, html.stderr)
        for page in ["archive/2006-01-02.html", "sources/1.html"] {
            let text = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            XCTAssertTrue(text.contains("alt=\"Card 1\""), page)
        }
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "7d", "--allow-internal"]).status, 0)
        XCTAssertEqual(server.requests(path: "/old.png").count, 1)
    }
}
