import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// A rerun renders and reads only the archive, source and tag pages whose cards changed
/// (`PageManifest`): each test changes one card one way, then checks which pages were
/// rendered again. Before the rerun every archive, source and tag page is overwritten with
/// dashes of the same size: a page the rerun renders is written again (its bytes differ), a
/// page it leaves alone keeps its dashes. Every page left alone must be, before the dashes,
/// exactly what a fresh write into an empty folder gives; every page rendered is exactly that.
final class IncrementalPagesTests: DigestTestCase {
    var small: DigestOptions { DigestOptions(title: "Test digest", since: hoursAgo(7 * 24), now: now, cardsPerArchivePage: 2) }
    var ids: [String: SourceID] = [:]

    /// Alpha (tag x) on 2026-11-29 and 2026-11-19, Beta (tag y) alone on 2026-11-28, Gamma
    /// (tag x) on 2026-11-29 and 2026-11-09; two cards an archive page, so days of three cards
    /// have two pages.
    func fillDays() throws {
        for (name, tag) in [("Alpha", "x"), ("Beta", "y"), ("Gamma", "x")] {
            ids[name] = try store.upsertSource(SourceConfiguration(url: "https://\(name.lowercased()).example.org/feed", name: name, tags: [tag]),
                                               now: hoursAgo(400))
        }
        try save("Alpha", [("a1", 2), ("a2", 3), ("a3", 4), ("a4", 24 * 10), ("a5", 24 * 10 + 1), ("a6", 24 * 10 + 2)])
        try save("Beta", [("b1", 30), ("b2", 31), ("b3", 32)])
        try save("Gamma", [("g1", 24 * 20), ("g2", 5)])
    }

    /// Saves a fetch of `source` at `at` (the changes after the first write: at `now`, a fetch later).
    func save(_ source: String, _ cards: [(String, Int64)], at: Timestamp? = nil, title: (String) -> String = { "Post " + $0 }) throws {
        try store.saveFetch(sourceID: ids[source]!, feed: FeedInfo(title: source), cards: cards.map { id, hours in
            Card(id: id, title: title(id), description: "<p>Body of \(id)</p>", link: "https://example.org/\(id)", published: hoursAgo(hours))
        }, validators: CacheValidators(), now: at ?? hoursAgo(1), nextDue: nil)
    }

    func cardID(_ key: String) throws -> CardID {
        try XCTUnwrap(try store.cards(CardQuery(), order: .newest).first { $0.card.id == key }?.id)
    }

    /// Every file of `folder`, by relative path, less the site's own lists (dot files).
    func contents(_ folder: String) throws -> [String: Data] {
        try folderContents(folder).filter { !$0.key.hasPrefix(".") }
    }

    static func isCardPage(_ path: String) -> Bool {
        path != "archive/index.html" && path != "sources/index.html" && path != "tags/index.html"
            && (path.hasPrefix("archive/") || path.hasPrefix("sources/") || path.hasPrefix("tags/"))
    }

    /// Writes the site, applies `change`, and checks that the rerun rendered exactly `rendered`
    /// of the archive, source and tag pages (and removed `removed`).
    func check(rendered: Set<String>, removed: [String] = [], after change: () throws -> Void) throws {
        try writeSite(options: small)
        let before = try contents(site)
        try change()
        let fresh = directory.path + "/fresh"
        let model = try DigestModel.load(from: store, options: small)
        try DigestWriter(directory: fresh, options: small).write(model, images: try images(), extraFiles: ["sources.opml": "<opml/>\n"])
        let expected = try contents(fresh)
        let dashes = before.filter { Self.isCardPage($0.key) }.mapValues { Data(repeating: UInt8(ascii: "-"), count: $0.count) }
        for (path, data) in dashes { try data.write(to: URL(fileURLWithPath: site + "/" + path)) }

        let report = try writeSite(options: small)
        let after = try contents(site)
        XCTAssertEqual(Set(report.written.filter(Self.isCardPage)), rendered)
        XCTAssertEqual(report.removed, removed)
        XCTAssertEqual(Set(after.keys), Set(expected.keys))
        for (path, data) in after.sorted(by: { $0.key < $1.key }) {
            if Self.isCardPage(path) && !rendered.contains(path) {
                XCTAssertEqual(data, dashes[path], "\(path) was rendered again")
                XCTAssertEqual(before[path], expected[path], "\(path) was left stale")
            } else {
                XCTAssertEqual(data, expected[path], "\(path) differs from a fresh write")
            }
        }
    }

    func testARerunWithNothingNewRendersNoCardPage() throws {
        try fillDays()
        try check(rendered: []) {}
    }

    func testAnEditedCardRendersItsDaySourceAndTagPagesOnly() throws {
        try fillDays()
        try check(rendered: ["archive/2026-11-28.html", "archive/2026-11-28-2.html", "sources/2.html", "tags/y.html"]) {
            try save("Beta", [("b1", 30), ("b2", 31), ("b3", 32)], at: now) { $0 == "b2" ? "Edited title" : "Post " + $0 }
        }
    }

    func testAnEditedCardOnADayOfOtherSourcesLeavesTheirPages() throws {
        // Gamma has a card on 2026-11-29 too: its page links that day, whose pages still start
        // where they did.
        try fillDays()
        try check(rendered: ["archive/2026-11-29.html", "archive/2026-11-29-2.html", "sources/1.html", "tags/x.html"]) {
            try save("Alpha", [("a1", 2), ("a2", 3), ("a3", 4), ("a4", 24 * 10), ("a5", 24 * 10 + 1), ("a6", 24 * 10 + 2)], at: now) {
                $0 == "a1" ? "Edited title" : "Post " + $0
            }
        }
    }

    func testMarkingACardReadRendersNoCardPage() throws {
        // No archive, source or tag page shows read state; the index's unread count changes.
        try fillDays()
        try check(rendered: []) {
            XCTAssertEqual(try store.markRead(.cards([try cardID("a4")])), 1)
        }
        XCTAssertTrue(try read("index.html").contains("3 cards since"))
    }

    func testACardRemovedByRetentionRendersItsPagesAndRemovesAnEmptiedPage() throws {
        try fillDays()
        try check(rendered: ["archive/2026-11-19.html", "sources/1.html", "tags/x.html"], removed: ["archive/2026-11-19-2.html"]) {
            // a4 is read and no longer in Alpha's feed: retention may take it.
            try save("Alpha", [("a1", 2), ("a2", 3), ("a3", 4), ("a5", 24 * 10 + 1), ("a6", 24 * 10 + 2)], at: now)
            XCTAssertEqual(try store.markRead(.cards([try cardID("a4")])), 1)
            XCTAssertEqual(try store.prune(now: Timestamp(secondsSince1970: now.secondsSince1970 + 10 * 86_400), defaultKeepDays: 5), 1)
        }
    }

    func testANewCardShiftingADaysPagesRendersThatDayAndThePagesLinkingIt() throws {
        // The newest card of 2026-11-29 pushes every other card of the day a place on: the
        // day's pages and the pages linking its posts (Alpha's, Gamma's, tag x) change; Beta's
        // and the other days do not. The index links the new places (checked against a fresh write).
        try fillDays()
        try check(rendered: ["archive/2026-11-29.html", "archive/2026-11-29-2.html", "archive/2026-11-29-3.html",
                             "sources/1.html", "sources/3.html", "tags/x.html"]) {
            try save("Gamma", [("g1", 24 * 20), ("g2", 5), ("g3", 1)], at: now)
        }
    }

    func testARenamedSourceRendersEveryCardPage() throws {
        // A card shows its source's name: every page of cards is rendered again.
        try fillDays()
        let all: Set<String> = ["archive/2026-11-29.html", "archive/2026-11-29-2.html", "archive/2026-11-28.html", "archive/2026-11-28-2.html",
                                "archive/2026-11-19.html", "archive/2026-11-19-2.html", "archive/2026-11-09.html",
                                "sources/1.html", "sources/2.html", "sources/3.html", "tags/x.html", "tags/y.html"]
        try check(rendered: all) {
            _ = try store.upsertSource(SourceConfiguration(url: "https://beta.example.org/feed", name: "Beta two", tags: ["y"]), now: hoursAgo(1))
        }
    }

    func testALostManifestCostsOneFullRender() throws {
        try fillDays()
        try writeSite(options: small)
        try FileManager.default.removeItem(atPath: site + "/.feeds-pages")
        try FileManager.default.removeItem(atPath: site + "/archive/2026-11-09.html")
        let report = try writeSite(options: small)
        XCTAssertEqual(report.written, ["archive/2026-11-09.html"])  // the rest rendered, same bytes
        XCTAssertEqual(try writeSite(options: small).written, [])
    }

    /// A manifest edited or damaged by hand: unsafe paths, sizes that are no number or overflow,
    /// image names that name paths, NUL, short and long lines. None of it is trusted: the
    /// rerun writes the same site as a fresh write, nothing outside the site is touched.
    func testADamagedManifestIsReadAsNoEntryAndTheSiteStaysWhole() throws {
        try fillDays()
        try writeSite(options: small)
        let manifest = site + "/.feeds-pages"
        let header = "feeds-pages 1"  // PageManifest.format
        let outside = directory.path + "/outside.html"
        try "keep".write(toFile: outside, atomically: true, encoding: .utf8)
        let hostile = [
            header,
            "../outside.html\tx\t4\t\t",
            "/etc/passwd\tx\t1\t\t",
            "archive/2026-11-09.html\tstamp\t99999999999999999999999\t\t",
            "archive/2026-11-09.html\tstamp\t-1\t\t",
            "archive/2026-11-10.html\tstamp\t10\t\t../../outside.html,..,.hidden",
            "archive/\u{0}.html\tstamp\t1\t\t",
            "only\ttwo",
            String(repeating: "a\t", count: 10_000),
        ].joined(separator: "\n")
        try hostile.write(toFile: manifest, atomically: true, encoding: .utf8)
        try writeSite(options: small)
        let fresh = directory.path + "/fresh"
        let model = try DigestModel.load(from: store, options: small)
        try DigestWriter(directory: fresh, options: small).write(model, images: try images(), extraFiles: ["sources.opml": "<opml/>\n"])
        let expected = try contents(fresh).filter { Self.isCardPage($0.key) }
        XCTAssertEqual(try contents(site).filter { Self.isCardPage($0.key) }, expected)
        XCTAssertEqual(try String(contentsOfFile: outside, encoding: .utf8), "keep")
    }
}
