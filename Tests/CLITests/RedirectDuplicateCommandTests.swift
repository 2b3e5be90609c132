import Foundation
import TestSupport
import XCTest

/// Issue 19: a permanent redirect to an address another line of the sources file already
/// fetches saved all its cards a second time. Now the cards are kept once and the person is told
/// which line to delete; on the loopback server, through the CLI.
final class RedirectDuplicateCommandTests: XCTestCase {
    static func feed(_ n: Int) -> ScriptedResponse {
        let items = (0..<n).map { "<item><guid>g\($0)</guid><title>Card \($0)</title></item>" }.joined()
        return .text("<rss version=\"2.0\"><channel><title>New</title>\(items)</channel></rss>", contentType: "application/rss+xml")
    }

    func cardCount(_ dir: TemporaryDirectory) throws -> Int {
        let read = try FeedsCommand.run(["--home", dir.path, "read", "--json", "--keep-unread", "--limit", "1000"])
        XCTAssertEqual(read.status, 0, read.stderr)
        return (try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [Any])?.count ?? -1
    }

    func testARedirectOntoAListedAddressKeepsOneCopyAndNamesTheLineToDelete() throws {
        for redirectedFirst in [false, true] {
            let dir = TemporaryDirectory("feeds-cli-redirect-dup")
            let site = try LoopbackHTTPServer()
            defer { site.stop() }
            site.route("/new.xml", Self.feed(30))
            // The same address with a fragment: still the same address.
            site.route("/old.xml", .redirect(301, to: "http://127.0.0.1:\(site.port)/new.xml#top"))
            let listed = site.url("/new.xml"), old = site.url("/old.xml")
            let lines = redirectedFirst ? "\(old)\n\(listed)\n" : "# mine\n\(listed)\n\(old)\n"
            try lines.write(to: dir.file("sources"), atomically: false, encoding: .utf8)
            let (oldLine, listedLine) = redirectedFirst ? (1, 2) : (3, 2)

            let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
            XCTAssertEqual(update.status, 0, update.stderr)
            let expected = "feeds: warning: \(dir.path)/sources:\(oldLine): \(old) now redirects to http://127.0.0.1:\(site.port)/new.xml#top, "
                + "which line \(listedLine) already lists: delete line \(oldLine)"
            XCTAssertTrue(update.stderr.contains(expected), update.stderr)
            XCTAssertEqual(try cardCount(dir), 30, "each card once")

            // The next run does not fetch the redirected line at all, and says it again.
            let fetchesBefore = site.requests(path: "/new.xml").count
            let again = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertTrue(again.stderr.contains("delete line \(oldLine)"), again.stderr)
            XCTAssertEqual(site.requests(path: "/old.xml").count, 1)
            XCTAssertEqual(site.requests(path: "/new.xml").count, fetchesBefore + 1, "only the listed line fetches it")
            XCTAssertEqual(try cardCount(dir), 30)
        }
    }

    func testTwoLinesRedirectingToOneUnlistedAddressSaveItsCardsOnce() throws {
        let dir = TemporaryDirectory("feeds-cli-redirect-dup")
        let site = try LoopbackHTTPServer()
        defer { site.stop() }
        site.route("/moved.xml", Self.feed(30))
        site.route("/a.xml", .redirect(308, to: "/moved.xml"))
        site.route("/b.xml", .redirect(301, to: "/moved.xml"))
        try "\(site.url("/a.xml"))\n\(site.url("/b.xml"))\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(update.stderr.components(separatedBy: "already fetches (it redirects there too): delete line").count, 2, update.stderr)
        XCTAssertEqual(try cardCount(dir), 30)
        // Which line arrived first is the one whose cards were saved (the order of two
        // concurrent fetches); from the next run on, that line keeps the address and the other
        // is the one to delete, at every run, and no card is saved twice.
        let loser = update.stderr.contains("sources:2: \(site.url("/b.xml")) now redirects") ? (2, "/b.xml", 1) : (1, "/a.xml", 2)
        for _ in 0..<2 {
            let again = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
            XCTAssertTrue(again.stderr.contains("sources:\(loser.0): \(site.url(loser.1)) now redirects to \(site.url("/moved.xml")), which line \(loser.2) already fetches"), again.stderr)
            XCTAssertEqual(try cardCount(dir), 30)
        }
    }
}
