import Foundation
import TestSupport
import XCTest

/// Secrets in the published site (issue 15): sources with a password in the URL, a token in the
/// query, a local file without a name, a failing one whose error names its URL; no file of the
/// site written by `feeds html` holds any of it.
final class SiteSecretsTests: XCTestCase {
    func testTheSiteNamesNoCredentialAndNoLocalPath() throws {
        let dir = TemporaryDirectory("feeds-cli-secrets")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let rss = "<rss version=\"2.0\"><channel><link>https://example.org/</link><item><guid>1</guid><title>A card</title>"
            + "<pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item></channel></rss>"
        server.route("/a.xml", .text(rss, contentType: "application/rss+xml"))
        server.route("/b.xml", .text(rss, contentType: "application/rss+xml"))
        server.route("/gone.xml", ScriptedResponse(status: 500))
        let folder = dir.path + "/PRIVATEFOLDER"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try rss.write(toFile: folder + "/local.rss", atomically: false, encoding: .utf8)
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "")
        let sources = """
            http://alice:PASSWORD1@\(base)/a.xml
            \(server.url("/b.xml"))?format=rss&token=TOKEN2&API_KEY=KEY3&Signature=SIG4
            \(folder)/local.rss
            file://\(folder)/local.rss
            http://bob:PASSWORD5@\(base)/gone.xml?access_token=TOKEN6

            """
        try sources.write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        _ = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        let site = dir.path + "/site"
        let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2006-01-01", "--no-images"])
        XCTAssertEqual(html.status, 0, html.stderr)

        let secrets = ["PASSWORD1", "TOKEN2", "KEY3", "SIG4", "PASSWORD5", "TOKEN6", "alice", "bob", "PRIVATEFOLDER", dir.path]
        var checked = 0
        let files = FileManager.default.enumerator(atPath: site)!.compactMap { $0 as? String }
        for file in files {
            guard let text = try? String(contentsOfFile: site + "/" + file, encoding: .utf8) else { continue }
            checked += 1
            for secret in secrets { XCTAssertFalse(text.contains(secret), "\(file) publishes \(secret)") }
        }
        XCTAssertGreaterThan(checked, 8)
        let opml = try String(contentsOfFile: site + "/sources.opml", encoding: .utf8)
        XCTAssertTrue(opml.contains("xmlUrl=\"\(server.url("/b.xml"))?format=rss\""), opml)
        XCTAssertTrue(opml.contains("xmlUrl=\"\(server.url("/a.xml"))\""), opml)
        XCTAssertTrue(opml.contains("<outline text=\"local.rss\" title=\"local.rss\" htmlUrl"), opml)
        // The person's own export keeps the addresses as written.
        let export = try FeedsCommand.run(["--home", dir.path, "export"])
        XCTAssertTrue(export.stdout.contains("PASSWORD1") && export.stdout.contains("PRIVATEFOLDER"))
    }
}
