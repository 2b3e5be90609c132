import Foundation
import TestSupport
import XCTest

/// Requests inside the network through the CLI (issue 15): the source lives on one loopback
/// server (its origin), "the internal network" is a second one (another origin on 127.0.0.1).
final class InternalAddressCommandTests: XCTestCase {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0]

    func feed(_ images: [String]) -> String {
        var items = ""
        for (i, url) in images.enumerated() {
            items += "<item><guid>\(i)</guid><title>Card \(i)</title><link>https://example.org/\(i)</link>"
                + "<enclosure url=\"\(url)\" type=\"image/png\" length=\"26\"/><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>"
        }
        return "<rss version=\"2.0\"><channel><title>T</title>\(items)</channel></rss>"
    }

    func testImagesOffTheSourcesOriginOnAnInternalAddressAreNotFetched() throws {
        let dir = TemporaryDirectory("feeds-cli-internal")
        let source = try LoopbackHTTPServer()
        let inside = try LoopbackHTTPServer()
        defer { source.stop(); inside.stop() }
        source.route("/own.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Self.png))
        inside.route("/admin.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Self.png))
        let images = [source.url("/own.png"), inside.url("/admin.png"), "http://2130706433:\(inside.port)/admin.png",
                      "http://0x7f.1:\(inside.port)/admin.png"]
        source.route("/feed.xml", .text(feed(images), contentType: "application/rss+xml"))
        try "\(source.url("/feed.xml"))\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "update", "--all"]).status, 0)

        let site = dir.path + "/site"
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01"])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertEqual(source.requests(path: "/own.png").count, 1, "the source's own origin may be internal")
        XCTAssertEqual(inside.requests.count, 0, "no request reached the other origin, in any spelling")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site + "/images").count, 1)
        let stats = try FeedsCommand.run(["--home", dir.path, "cache", "stats"])
        XCTAssertTrue(stats.stdout.contains("failed URLs: 3"), stats.stdout)

        // With --allow-internal (once the back-off is cleared) they are fetched.
        XCTAssertEqual(try FeedsCommand.run(["--home", dir.path, "cache", "clear"]).status, 0)
        let allowed = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--allow-internal"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(inside.requests(path: "/admin.png").count, 3)
    }

    func testASourcesRedirectToAnotherInternalOriginFailsWithALine() throws {
        let dir = TemporaryDirectory("feeds-cli-internal")
        let source = try LoopbackHTTPServer()
        let inside = try LoopbackHTTPServer()
        defer { source.stop(); inside.stop() }
        inside.route("/latest/meta-data", .text(feed([]), contentType: "application/rss+xml"))
        source.route("/feed.xml", .redirect(302, to: inside.url("/latest/meta-data")))
        source.route("/moved.xml", .redirect(301, to: "/feed2.xml"))
        source.route("/feed2.xml", .text(feed([]), contentType: "application/rss+xml"))
        try "\(source.url("/feed.xml")) name=Away\n\(source.url("/moved.xml")) name=Home\n"
            .write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        XCTAssertEqual(update.status, 1)
        XCTAssertTrue(update.stderr.contains("Away"), update.stderr)
        XCTAssertTrue(update.stderr.contains("refused to connect to 127.0.0.1 (a loopback address)"), update.stderr)
        XCTAssertFalse(update.stderr.contains("Home: refused"), "a redirect on the source's own origin is followed: " + update.stderr)
        XCTAssertEqual(inside.requests.count, 0)

        let allowed = try FeedsCommand.run(["--home", dir.path, "update", "--all", "--allow-internal"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(inside.requests.count, 1)
    }
}

/// Through a proxy on the owner's network (http_proxy on loopback) the address connected to
/// is the proxy's: names are the proxy's to resolve, so images on other sites by name are
/// fetched through it, while a URL naming an internal address literally is still refused.
final class InternalAddressProxyTests: XCTestCase {
    func testImagesThroughAProxyOnLoopback() throws {
        let dir = TemporaryDirectory("feeds-cli-internal-proxy")
        let proxy = try LoopbackHTTPServer()
        defer { proxy.stop() }
        let png = InternalAddressCommandTests.png
        proxy.route("http://feeds.example.invalid/feed.xml", .text("""
            <rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><title>Named</title><link>https://e.org/1</link><enclosure url="http://img.example.invalid/a.png" type="image/png" length="26"/><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
            <item><guid>2</guid><title>Literal</title><link>https://e.org/2</link><enclosure url="http://10.0.0.1/b.png" type="image/png" length="26"/><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
            </channel></rss>
            """, contentType: "application/rss+xml"))
        proxy.route("http://img.example.invalid/a.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png))
        proxy.route("http://10.0.0.1/b.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png))
        try "http://feeds.example.invalid/feed.xml\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let env = ["http_proxy": proxy.baseURL, "no_proxy": ""]
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"], environment: env)
        XCTAssertEqual(update.status, 0, update.stderr)
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", dir.path + "/site", "--since", "2006-01-01"], environment: env)
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertEqual(proxy.requests(path: "http://img.example.invalid/a.png").count, 1)
        XCTAssertEqual(proxy.requests(path: "http://10.0.0.1/b.png").count, 0, "a literal internal address, even through a proxy")
    }
}
