import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// Pages of bounded size (issue 15): an archive day of more cards than `cardsPerArchivePage`
/// is split into linked pages `DAY.html`, `DAY-2.html`, ...; every card is on exactly one page
/// of its day, dated cards before undated ones, as a single page showed them.
final class BoundedPagesTests: DigestTestCase {
    /// One source with `count` cards on one day (and a few undated cards first seen that day),
    /// another with a card on the day before.
    func fillBigDay(count: Int) throws -> SourceID {
        let big = try store.upsertSource(SourceConfiguration(url: "https://big.example/feed", name: "Big"), now: hoursAgo(400))
        let small = try store.upsertSource(SourceConfiguration(url: "https://small.example/feed", name: "Small"), now: hoursAgo(400))
        let day = Timestamp(secondsSince1970: now.secondsSince1970 - now.secondsSince1970 % 86_400 - 86_400)  // yesterday 00:00
        var cards: [Card] = []
        for i in 0..<count {
            cards.append(Card(id: "c\(i)", title: "Card \(i)", link: "https://big.example/\(i)",
                              published: Timestamp(secondsSince1970: day.secondsSince1970 + Int64(i % 86_000))))
        }
        for i in 0..<3 { cards.append(Card(id: "u\(i)", title: "Undated \(i)", link: "https://big.example/u\(i)")) }
        // First seen yesterday at noon: the undated cards belong to that day.
        try store.saveFetch(sourceID: big, feed: FeedInfo(title: "Big"), cards: cards, validators: CacheValidators(),
                            now: Timestamp(secondsSince1970: day.secondsSince1970 + 43_200), nextDue: nil)
        try store.saveFetch(sourceID: small, feed: FeedInfo(title: "Small"), cards: [
            Card(id: "s1", title: "Small one", link: "https://small.example/1", published: Timestamp(secondsSince1970: day.secondsSince1970 - 3_600)),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        return big
    }

    func cardTitles(_ html: String) -> [String] {
        html.components(separatedBy: "<h2 class=\"title\"><a href=\"").dropFirst().map { part in
            let text = part.split(separator: ">", maxSplits: 1)[1]
            return String(text.prefix { $0 != "<" })
        }
    }

    func testABigDayIsSplitIntoLinkedPagesEachCardOnce() throws {
        _ = try fillBigDay(count: 1_201)
        var options = self.options
        options.cardsPerArchivePage = 500
        try writeSite(options: options)
        let day = String(Timestamp(secondsSince1970: now.secondsSince1970 - 86_400).iso8601.prefix(10))
        let files = ["archive/\(day).html", "archive/\(day)-2.html", "archive/\(day)-3.html"]
        var seen: [String] = []
        for (i, file) in files.enumerated() {
            let page = try read(file)
            let titles = cardTitles(page)
            XCTAssertLessThanOrEqual(titles.count, 500, file)
            seen += titles
            XCTAssertTrue(page.contains("page \(i + 1) of 3"), file)
            for other in files.map({ ($0 as NSString).lastPathComponent }) { XCTAssertTrue(page.contains("href=\"\(other)\""), "\(file) links \(other)") }
            XCTAssertTrue(page.contains("aria-current=\"page\">\(i + 1)</a>"), file)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site + "/archive/\(day)-4.html"))
        XCTAssertEqual(seen.count, 1_204)
        XCTAssertEqual(Set(seen).count, 1_204, "each card on one page")
        XCTAssertEqual(Array(seen.suffix(3)), ["Undated 2", "Undated 1", "Undated 0"], "undated cards last in their day")
        XCTAssertEqual(Array(seen.prefix(2)), ["Card 1200", "Card 1199"], "newest first")
        let index = try read("archive/index.html")
        XCTAssertTrue(index.contains("1204 cards, 3 pages"), index)
        XCTAssertTrue(index.contains("1 card</span>"), "a small day stays one page (and is one card, not '1 cards')")

        // Fewer cards: the pages no longer needed go (they are the writer's own).
        options.cardsPerArchivePage = 700
        let report = try writeSite(options: options)
        XCTAssertEqual(report.removed, ["archive/\(day)-3.html"])
    }

    /// The other pages read bounded lists too: a source's page its newest cards, its row and
    /// count on the index.
    func testSourcePageAndIndexRowStayBounded() throws {
        let big = try fillBigDay(count: 900)
        try writeSite()
        let page = try read("sources/\(big.rawValue).html")
        XCTAssertEqual(cardTitles(page).count, options.cardsPerSourcePage)
        XCTAssertTrue(try read("sources/index.html").contains("903 cards"))
        let index = try read("index.html")
        XCTAssertTrue(index.contains("903 cards since 2026-11-22 12:00, 903 unread"), index)
        XCTAssertTrue(index.contains("All cards of Big"))
    }

    /// Through the CLI: a feed of 1,100 items on one day gives three pages of at most 500.
    func testFeedsHTMLSplitsABigDay() throws {
        let home = directory.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var items = ""
        for i in 0..<1_100 {
            items += "<item><guid>\(i)</guid><title>Item \(i)</title><link>https://e.org/\(i)</link>"
                + "<pubDate>Mon, 01 Jun 2026 \(String(format: "%02d:%02d:%02d", i / 3600, i / 60 % 60, i % 60)) GMT</pubDate></item>"
        }
        try "<rss version=\"2.0\"><channel><title>Big</title>\(items)</channel></rss>".write(toFile: home + "/big.rss", atomically: false, encoding: .utf8)
        try "big.rss\n".write(toFile: home + "/sources", atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", home, "update", "--all"]).status, 0)
        let run = try FeedsCommand.run(["--home", home, "html", "--out", site, "--no-images"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let archive = try FileManager.default.contentsOfDirectory(atPath: site + "/archive").sorted()
        XCTAssertEqual(archive, ["2026-06-01-2.html", "2026-06-01-3.html", "2026-06-01.html", "index.html"])
        XCTAssertEqual(cardTitles(try read("archive/2026-06-01-3.html")).count, 100)
    }
}
