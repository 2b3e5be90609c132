import Foundation
import TestSupport
import XCTest

/// `feeds html` and `feeds cache` end to end: the bundled sample feeds, images served on
/// loopback (one good, one an HTML error page), the site written twice.
final class HTMLCommandTests: XCTestCase {
    func testHTMLWritesTheSiteWithCachedImagesAndRerunsIncrementally() throws {
        let dir = TemporaryDirectory("feeds-cli-html")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 32, 0, 0]
        server.route("/good.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png))
        server.route("/bad.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Array("<html>error</html>".utf8)))
        let feed = """
            <rss version="2.0"><channel><title>Pics</title>
            <item><guid>1</guid><title>Good picture</title><link>https://example.org/1</link>
              <media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="\(server.url("/good.png"))"/><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
            <item><guid>2</guid><title>Bad picture</title><link>https://example.org/2</link>
              <media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="\(server.url("/bad.png"))"/><pubDate>Mon, 02 Jan 2006 16:04:05 GMT</pubDate></item>
            </channel></rss>
            """
        try feed.write(to: dir.file("pics.rss"), atomically: false, encoding: .utf8)
        try "pics.rss name=Pics\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)

        let site = dir.path + "/site"
        // The source is a local file, its images on loopback: allowed by --allow-internal only.
        let first = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--title", "Pics digest", "--allow-internal"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, site + "/index.html\n")
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("<title>Pics digest</title>"))
        XCTAssertTrue(index.contains("width=\"64\" height=\"32\" alt=\"Good picture\""))
        XCTAssertTrue(index.contains("<span class=\"pic placeholder\""), "the refused image gets the placeholder")
        let images = try FileManager.default.contentsOfDirectory(atPath: site + "/images")
        XCTAssertEqual(images.count, 1)
        XCTAssertTrue(images[0].hasSuffix(".png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/sources.opml"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/digest.atom"))

        let stats = try FeedsCommand.run(["--home", dir.path, "cache", "stats"])
        XCTAssertTrue(stats.stdout.hasPrefix("images: 1 (26 bytes, 0 expired)\nfailed URLs: 1 (1 backing off)\n"), stats.stdout)

        // A rerun changes nothing and asks the server for nothing.
        let before = server.requests.count
        let modified = try FileManager.default.attributesOfItem(atPath: site + "/index.html")[.modificationDate] as? Date
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--title", "Pics digest", "--allow-internal"]).status, 0)
        XCTAssertEqual(server.requests.count, before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: site + "/index.html")[.modificationDate] as? Date, modified)

        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "cache", "clear"]).stdout, "cleared 2 entries\n")
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "cache", "stats"]).stdout.prefix(9), "images: 0")
    }

    func testUpdateWithImagesFillsTheCache() throws {
        let dir = TemporaryDirectory("feeds-cli-html")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/p.gif", ScriptedResponse(status: 200, body: Array("GIF89a".utf8) + [8, 0, 4, 0, 0, 0]))
        // Dated an hour ago: inside the 7 days whose images `update --images` fetches.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(-3_600))
        let feed = """
            <rss version="2.0"><channel><title>P</title><item><guid>1</guid><title>Pic</title>
            <enclosure url="\(server.url("/p.gif"))" type="image/gif" length="12"/><pubDate>\(date)</pubDate></item></channel></rss>
            """
        try feed.write(to: dir.file("p.rss"), atomically: false, encoding: .utf8)
        try "p.rss\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all", "--images", "--verbose", "--allow-internal"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("images: 1 downloaded, 0 not modified, 0 failed"), update.stdout)
        XCTAssertEqual(server.requests(path: "/p.gif").count, 1)
        XCTAssertTrue(try FeedsCommand.run(["--home", dir.path, "cache", "stats"]).stdout.hasPrefix("images: 1 (12 bytes"))
    }

    func testUsageErrors() throws {
        let dir = TemporaryDirectory("feeds-cli-html")
        try "".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "html"]).status, 2)
        let since = try FeedsCommand.run(["--home", dir.path, "html", "--out", dir.path + "/s", "--since", "soon"])
        XCTAssertEqual(since.status, 2)
        XCTAssertTrue(since.stderr.contains("--since soon is not a duration or a time"))
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "cache", "shrink"]).status, 2)
    }
}

/// Two runs a minute apart with `--since 7d` write the same pages (the window starts on the hour).
final class HTMLSinceTests: XCTestCase {
    func testRelativeSinceStartsOnTheHour() throws {
        let dir = TemporaryDirectory("feeds-cli-html")
        try "".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let site = dir.path + "/site"
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "7d", "--no-images"]).status, 0)
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        let range = try XCTUnwrap(index.range(of: #"Cards since \d{4}-\d\d-\d\d \d\d:00 UTC"#, options: .regularExpression))
        XCTAssertFalse(index[range].isEmpty)
    }
}
