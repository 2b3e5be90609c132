import FeedModel
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// `feeds update` as cron runs it, against the loopback server, on sources whose every number
/// is hostile (ttl, sy:updateFrequency, enclosure lengths, JSON Feed sizes, Hacker News dates,
/// max-age, Retry-After, Expires): each run exits normally and is recorded, a second run and
/// `read`, `search`, `html`, `sources` work. And a database holding such values from an older
/// version (a date in the year -292277022657, a length of 2^63-1) does not stop them either.
final class HostileNumbersUpdateTests: XCTestCase {
    func hostileRSS(_ n: String, _ i: Int) -> String {
        """
        <?xml version="1.0"?><rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>\
        <title>rss \(i)</title><link>https://example.test/</link><ttl>\(n)</ttl><sy:updatePeriod>hourly</sy:updatePeriod>\
        <sy:updateFrequency>\(n)</sy:updateFrequency>\
        <item><title>item \(i) numbers</title><link>https://example.test/r\(i)</link><pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate>\
        <enclosure url="https://example.test/r\(i).mp3" type="audio/mpeg" length="\(n)"/>\
        <description>&lt;ol start="\(n)"&gt;&lt;li&gt;a&lt;li value="\(n)"&gt;b&lt;li&gt;c&lt;/ol&gt;</description></item></channel></rss>
        """
    }

    func hostileJSONFeed(_ token: String, _ i: Int) -> String {
        """
        {"version":"https://jsonfeed.org/version/1.1","title":"json \(i)","items":[{"id":"j\(i)","title":"json \(i) numbers",
        "url":"https://example.test/j\(i)","date_published":"2026-11-30T10:00:00Z",
        "attachments":[{"url":"https://example.test/j\(i).mp3","mime_type":"audio/mpeg","size_in_bytes":\(token),"duration_in_seconds":\(token)}]}]}
        """
    }

    func hackerNews(_ token: String) -> String {
        """
        {"query":"numbers","nbHits":\(token),"hits":[
         {"objectID":"1","title":"hn min date numbers","url":"https://example.test/hn1","created_at_i":-9223372036854775808,"points":\(token)},
         {"objectID":"2","title":"hn huge date numbers","url":"https://example.test/hn2","created_at_i":1e300},
         {"objectID":"3","title":"hn hostile numbers","url":"https://example.test/hn3","created_at_i":\(token)}]}
        """
    }

    func testUpdateReadSearchHTMLSourcesSurviveHostileNumbers() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let home = TemporaryDirectory()
        var lines: [String] = []
        let texts = HostileNumbers.classes.map(\.text).filter { !$0.contains("\u{0}") && !$0.contains("\n") && !$0.contains("<") }
        for (i, n) in texts.enumerated() {
            let escaped = n.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            server.route("/rss\(i)", .text(hostileRSS(escaped, i), contentType: "application/rss+xml",
                                           headers: [("Cache-Control", "max-age=\(n)"), ("Expires", n)]))
            lines.append(server.url("/rss\(i)"))
        }
        for (i, (_, token)) in HostileNumbers.jsonTokens.enumerated() {
            server.route("/json\(i)", .text(hostileJSONFeed(token, i), contentType: "application/feed+json"))
            lines.append(server.url("/json\(i)"))
        }
        // A server that answers 503 with every class of Retry-After.
        for (i, n) in texts.enumerated() {
            server.route("/busy\(i)", .text("busy", status: 503, headers: [("Retry-After", n)]))
            lines.append(server.url("/busy\(i)"))
        }
        // No items and a refused ttl: an empty feed, not a malformed one.
        server.route("/empty", .text("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>empty numbers</title><ttl>99999999999999999999</ttl></channel></rss>",
                                     contentType: "application/rss+xml"))
        lines.append(server.url("/empty"))
        server.route("/hn", .text(hackerNews("9223372036854775807"), contentType: "application/json"))
        lines.append("search:hn \"numbers\" endpoint=\(server.url("/hn"))")
        try home.write("sources", lines.joined(separator: "\n") + "\n")

        for run in 1...2 {
            let update = try CLIRun.run(["--home", home.path, "update", "--all", "-v"], timeout: 60)
            // Status 1: the 503 sources failed (as they should); nothing trapped.
            XCTAssertEqual(update.status, 1, "run \(run): \(update.stderr.suffix(2000))")
            XCTAssertTrue(update.stdout.contains("\(lines.count) sources:"), update.stdout)
            XCTAssertTrue(update.stdout.contains("\(texts.count) failed"), update.stdout)
            XCTAssertFalse(update.stderr.contains("Fatal error"), update.stderr)
            // Retry-After of twenty digits: 2^31 s as RFC 9111 says, honoured for a week at most, and said so.
            XCTAssertTrue(update.stderr.contains("retrying after 604800 s (the server asked for 2147483648 s)"), update.stderr)
        }
        let store = try FeedStore(path: home.file("feeds.db").path)
        let sources = try store.sources()
        XCTAssertEqual(sources.count, lines.count)
        XCTAssertTrue(sources.allSatisfy { $0.lastAttemptAt != nil }, "every source's run is recorded")
        XCTAssertNil(try store.source(url: server.url("/empty"))?.lastError)
        for source in sources {
            if let hint = source.feed.refreshHintSeconds { XCTAssertTrue((1...(10 * 365 * 86_400)).contains(hint), "\(hint)") }
            if let due = source.nextDueAt, let attempt = source.lastAttemptAt {
                XCTAssertLessThanOrEqual(due.seconds(since: attempt), 7 * 86_400, source.displayName)
            }
        }
        for card in try store.cards() {
            if let date = card.card.date { XCTAssertTrue(Timestamp.plausibleRange.contains(date.secondsSince1970)) }
            for e in card.card.enclosures { if let l = e.length { XCTAssertTrue(Enclosure.lengthRange.contains(l)) } }
        }
        try checkReadingCommands(home, expectCards: true)

        // What an older version may have saved: dates at the ends of Int64, a length of 2^63-1,
        // fetch times and counts out of any range.
        try store.db.execute("""
            UPDATE cards SET published = -9223372036854775808, updated = 9223372036854775807, sort_date = -9223372036854775808,
                first_seen_at = -9223372036854775808, last_seen_at = 9223372036854775807,
                enclosures = '[{"url":"https://example.test/a.mp3","type":"audio/mpeg","length":9223372036854775807}]';
            UPDATE sources SET last_attempt_at = -9223372036854775808, last_success_at = 9223372036854775807,
                next_due_at = -9223372036854775808, refresh_hint_seconds = 9223372036854775807,
                consecutive_failures = 9223372036854775807
            """)
        try checkReadingCommands(home, expectCards: false)
        XCTAssertFalse(try CLIRun.run(["--home", home.path, "read", "--keep-unread"]).stdout.contains("-292277022657"))
        let again = try CLIRun.run(["--home", home.path, "update", "--all"], timeout: 60)
        XCTAssertEqual(again.status, 1, again.stderr.suffix(2000).description)
        XCTAssertFalse(again.stderr.contains("could not be recorded"), again.stderr)
        try checkReadingCommands(home, expectCards: false)
    }

    func checkReadingCommands(_ home: TemporaryDirectory, expectCards: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let site = home.file("site").path
        for args in [["read", "--keep-unread"], ["read", "--json", "--keep-unread"], ["search", "numbers"], ["sources"],
                     ["html", "--out", site], ["export"]] {
            let r = try CLIRun.run(["--home", home.path] + args, timeout: 60)
            XCTAssertEqual(r.status, 0, "feeds \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
            if args[0] != "html" && args[0] != "export" { XCTAssertFalse(r.stdout.isEmpty, "\(args)", file: file, line: line) }
        }
        // The pages list the last days' cards: after the old version's dates, none is recent.
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertEqual(index.contains("numbers"), expectCards, file: file, line: line)
        XCTAssertFalse(index.contains("-292277022657"), file: file, line: line)
    }
}
