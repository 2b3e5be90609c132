import Foundation
import TestSupport
import XCTest

/// `feeds html` on a real PostgreSQL (`--database`), compared with the same home's run on
/// SQLite: the same feeds updated in the same order give the same site, every file byte for
/// byte (the page manifest's stamps aside: see `assertSameSites`), written cold, rewritten with
/// nothing new, and after a read mark (issue 22).
final class HTMLOnPostgresTests: PostgresCLITestCase {
    private var folders: [TemporaryDirectory] = []

    /// Two feeds on `site`, one with pictures and a whole post, named and tagged.
    private func publish(_ site: LoopbackHTTPServer) -> String {
        var lines = ""
        for feed in 0..<2 {
            let items = (0..<4).map { n in
                """
                <item><guid>g\(feed)-\(n)</guid><title>Post \(n) feed \(feed)</title>
                <link>http://127.0.0.1/\(feed)/\(n)</link><author>ann@example.org (Ann)</author>
                <pubDate>\(10 + n * 4 + feed) Nov 2026 23:\(10 + n):00 GMT</pubDate>
                <description>&lt;p&gt;Part \(n), with &lt;b&gt;bold&lt;/b&gt; text.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;one&lt;/li&gt;&lt;/ul&gt;&lt;img src="http://127.0.0.1/p\(n).png"&gt;</description>
                </item>
                """
            }.joined()
            site.route("/f\(feed).xml", .text("<rss version=\"2.0\"><channel><title>Feed \(feed)</title><link>http://127.0.0.1/</link>\(items)</channel></rss>",
                                               contentType: "application/rss+xml"))
            lines += site.url("/f\(feed).xml") + " name=Feed\(feed) tags=" + (feed == 0 ? "tech" : "home") + "\n"
        }
        return lines
    }

    /// A home on SQLite and one on PostgreSQL, updated one source after the other.
    private func homes(_ site: LoopbackHTTPServer, database: String) throws -> (sqlite: [String], postgres: [String]) {
        let sources = publish(site)
        let a = TemporaryDirectory("feeds-cli-pghtml-sqlite"), b = TemporaryDirectory("feeds-cli-pghtml-pg")
        folders += [a, b]
        for dir in [a, b] { try sources.write(to: dir.file("sources"), atomically: false, encoding: .utf8) }
        let sqlite = ["--home", a.path], postgres = ["--home", b.path, "--database", database]
        for base in [sqlite, postgres] {
            for feed in ["/f0.xml", "/f1.xml"] {
                let update = try FeedsCommand.run(base + ["update", site.url(feed)])
                XCTAssertEqual(update.status, 0, update.stderr)
            }
        }
        return (sqlite, postgres)
    }


    private func assertSameSites(_ a: String, _ b: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let left = try folderContents(a), right = try folderContents(b)
        XCTAssertGreaterThan(left.count, 10, label, file: file, line: line)
        XCTAssertEqual(Set(left.keys), Set(right.keys), label, file: file, line: line)
        let stamped: Set<String> = [".feeds-pages", ".feeds-index"]
        for (path, data) in left.sorted(by: { $0.key < $1.key }) where right[path] != data && !stamped.contains(path) {
            XCTFail("\(label): \(path) differs", file: file, line: line)
        }
        // The page manifest's and the index sections' stamps hold when each home saw its cards
        // change (the two homes were updated seconds apart): the same pages and sections with
        // the same sizes and notes, stamps aside (DigestOnBothBackendsTests compares whole
        // manifests, of cards saved at the same moments).
        func withoutStamps(_ data: Data?) -> [String] {
            String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n").map { line in
                var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count > 1 { fields[1] = "" }
                return fields.joined(separator: "\t")
            }
        }
        for path in stamped.sorted() {
            XCTAssertEqual(withoutStamps(left[path]), withoutStamps(right[path]), "\(label): \(path)", file: file, line: line)
        }
        XCTAssertGreaterThan(withoutStamps(right[".feeds-pages"]).count, 5, label, file: file, line: line)
        XCTAssertGreaterThan(withoutStamps(right[".feeds-index"]).count, 1, label, file: file, line: line)
    }

    func testHTMLWritesTheSameSiteAsOnSQLite() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let (sqlite, postgres) = try homes(site, database: database)
        let out = TemporaryDirectory("feeds-cli-pghtml-sites")
        folders.append(out)
        let arguments = ["html", "--no-images", "--since", "2026-11-01", "--title", "Team <digest>"]
        func write(_ label: String) throws {
            for (base, name) in [(sqlite, "sqlite"), (postgres, "postgres")] {
                let result = try FeedsCommand.run(base + arguments + ["--out", out.path + "/" + name])
                XCTAssertEqual(result.status, 0, "\(label): \(result.stderr)")
                XCTAssertEqual(result.stdout, out.path + "/" + name + "/index.html\n", label)
                XCTAssertEqual(result.stderr, "", label)
            }
            try assertSameSites(out.path + "/sqlite", out.path + "/postgres", label)
        }
        try write("cold")
        let index = try String(contentsOfFile: out.path + "/postgres/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains(">Post 3 feed 1</a>"), index)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.path + "/postgres/archive/2026-11-23.html"))
        // Nothing new: no page is written again (their times stay).
        let page = out.path + "/postgres/archive/2026-11-23.html"
        let before = try FileManager.default.attributesOfItem(atPath: page)[.modificationDate] as? Date
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: page)
        try write("rerun")
        XCTAssertNotNil(before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page)[.modificationDate] as? Date, Date(timeIntervalSince1970: 1_000_000),
                       "a rerun with nothing new rewrote an archive page")
        for base in [sqlite, postgres] {
            XCTAssertEqual(try FeedsCommand.run(base + ["mark", "read", "--source", "Feed0"]).status, 0)
        }
        try write("after a read mark")
    }

    /// With the image cache (its records in the database, its files in the home's cache folder):
    /// `feeds html` on PostgreSQL downloads a card's picture from a loopback server once, the
    /// page shows the cached copy, a rerun asks the server nothing new, and the site is the one
    /// SQLite writes from the same feed (issue 22).
    func testHTMLOnPostgresDownloadsAndShowsImagesAsOnSQLite() throws {
        let database = try server().makeDatabase()
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 32, 0, 0]
        site.route("/pic.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png))
        site.route("/pics.xml", .text("""
            <rss version="2.0"><channel><title>Pics</title><link>http://127.0.0.1/</link>
            <item><guid>1</guid><title>A picture</title><link>https://example.org/1</link>
              <media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="\(site.url("/pic.png"))"/>
              <pubDate>Mon, 16 Nov 2026 15:04:05 GMT</pubDate></item>
            </channel></rss>
            """, contentType: "application/rss+xml"))
        let a = TemporaryDirectory("feeds-cli-pghtml-img-sqlite"), b = TemporaryDirectory("feeds-cli-pghtml-img-pg")
        folders += [a, b]
        let sqlite = ["--home", a.path], postgres = ["--home", b.path, "--database", database]
        for (dir, base) in [(a, sqlite), (b, postgres)] {
            try (site.url("/pics.xml") + " name=Pics\n").write(to: dir.file("sources"), atomically: false, encoding: .utf8)
            XCTAssertEqual(try FeedsCommand.run(base + ["update", "--all"]).status, 0)
        }
        let arguments = ["html", "--allow-internal", "--since", "2026-11-01"]
        for round in ["cold", "rerun"] {
            for (dir, base) in [(a, sqlite), (b, postgres)] {
                let result = try FeedsCommand.run(base + arguments + ["--out", dir.path + "/site"])
                XCTAssertEqual(result.status, 0, "\(round): \(result.stderr)")
                XCTAssertEqual(result.stderr, "", round)
            }
            XCTAssertEqual(site.requests(path: "/pic.png").count, 2, "\(round): each home asked once, and not again")
            let pages = try [a, b].map { try String(contentsOfFile: $0.path + "/site/index.html", encoding: .utf8) }
            XCTAssertEqual(pages[0], pages[1], round)
            XCTAssertTrue(pages[1].contains("src=\"images/"), "\(round): the cached copy shown: \(pages[1])")
            let images = try FileManager.default.contentsOfDirectory(atPath: b.path + "/site/images")
            XCTAssertEqual(images.count, 1, round)
            XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: b.path + "/site/images/" + images[0]))), png, round)
        }
        let stats = try FeedsCommand.run(postgres + ["cache", "stats"])
        XCTAssertEqual(stats.stdout, "images: 1 (26 bytes, 0 expired)\nfailed URLs: 0 (0 backing off)\nfolder: \(b.path)/cache/images\n")
    }
}
