import Foundation
import TestSupport
import XCTest

/// `feeds cache` on a real PostgreSQL, as a person moves a home there: the home's site written
/// on SQLite with images from a loopback server (one good, one an HTML error page), `feeds
/// migrate` copying the image records, then `feeds --database URL cache stats|prune|clear`
/// saying what the home's SQLite said, on the same cache folder (issue 22).
final class CacheOnPostgresCommandTests: PostgresCLITestCase {
    private func homeWithImages(_ site: LoopbackHTTPServer) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("feeds-cli-pgcache")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 32, 0, 0]
        site.route("/good.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png))
        site.route("/bad.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Array("<html>error</html>".utf8)))
        let feed = """
            <rss version="2.0"><channel><title>Pics</title>
            <item><guid>1</guid><title>Good picture</title><link>https://example.org/1</link>
              <media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="\(site.url("/good.png"))"/><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
            <item><guid>2</guid><title>Bad picture</title><link>https://example.org/2</link>
              <media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="\(site.url("/bad.png"))"/><pubDate>Mon, 02 Jan 2006 16:04:05 GMT</pubDate></item>
            </channel></rss>
            """
        try feed.write(to: dir.file("pics.rss"), atomically: false, encoding: .utf8)
        try "pics.rss name=Pics\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", dir.path + "/site", "--since", "2006-01-01", "--allow-internal"])
        XCTAssertEqual(html.status, 0, html.stderr)
        return dir
    }

    func testCacheStatsPruneAndClearOnPostgresAfterTheHomeMigrated() throws {
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let dir = try homeWithImages(site)
        let database = try server().makeDatabase()
        let onSQLite = try FeedsCommand.run(["--home", dir.path, "cache", "stats"])
        XCTAssertEqual(onSQLite.stdout, "images: 1 (26 bytes, 0 expired)\nfailed URLs: 1 (1 backing off)\nfolder: \(dir.path)/cache/images\n")

        let migrate = try FeedsCommand.run(["--home", dir.path, "migrate", "--to", database])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertTrue(migrate.stdout.hasPrefix("copied 1 source, 2 cards (2 unread), 2 image records, 0 page previews from \(dir.path)/feeds.db to postgresql://feeds@127.0.0.1:"),
                      migrate.stdout)

        let postgres = ["--home", dir.path, "--database", database]
        let stats = try FeedsCommand.run(postgres + ["cache", "stats"])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertEqual(stats.stderr, "")
        XCTAssertEqual(stats.stdout, onSQLite.stdout, "the same records, the same folder")
        let prune = try FeedsCommand.run(postgres + ["cache", "prune"])
        XCTAssertEqual(prune.stdout, "pruned 0 entries\n", "nothing expired yet")
        XCTAssertEqual(try FeedsCommand.run(postgres + ["cache", "stats"]).stdout, onSQLite.stdout)

        let clear = try FeedsCommand.run(postgres + ["cache", "clear"])
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertEqual(clear.stdout, "cleared 2 entries\n")
        XCTAssertEqual(try FeedsCommand.run(postgres + ["cache", "stats"]).stdout,
                       "images: 0 (0 bytes, 0 expired)\nfailed URLs: 0 (0 backing off)\nfolder: \(dir.path)/cache/images\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/cache/images"), "the files went with the records")
        // The home's SQLite was only read by the copy: its records are still there (their file gone).
        XCTAssertTrue(try FeedsCommand.run(["--home", dir.path, "cache", "stats"]).stdout.hasPrefix("images: 1 (26 bytes"))
        XCTAssertEqual(site.requests(path: "/good.png").count, 1, "nothing downloaded by the cache commands")
    }

    func testCacheOnPostgresErrorsAreOneLineAndExitTwo() throws {
        let dir = TemporaryDirectory("feeds-cli-pgcache-errors")
        let database = try server().makeDatabase()
        let usage = try FeedsCommand.run(["--home", dir.path, "--database", database, "cache", "shrink"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "feeds: unknown cache action 'shrink': use stats, prune or clear; see 'feeds cache --help'\n")
        let refused = try FeedsCommand.run(["--home", dir.path, "--database", "postgresql://feeds:hunter2@127.0.0.1:1/x", "cache", "stats"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.hasPrefix("feeds: cannot connect to PostgreSQL postgresql://feeds@127.0.0.1:1/x: "), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("hunter2"), refused.stderr)
        XCTAssertEqual(refused.stderr.filter { $0 == "\n" }.count, 1, refused.stderr)
        XCTAssertEqual(refused.stdout, "")
    }
}
