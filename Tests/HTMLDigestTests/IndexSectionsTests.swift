import FeedModel
import Foundation
import Storage
import TestSupport
import XCTest

@testable import HTMLDigest

/// A rerun copies the sections of index.html whose stamp and ages are the last run's from the
/// last index.html (`IndexSections`), and renders the others. To see which were copied, a
/// section's title is changed in the old index.html (same length, and the cache's header told
/// the new bytes' hash, so that it still takes the file for its own): a copied section keeps
/// the change, a rendered one does not. Untouched, a rerun's site is exactly what a fresh
/// write into an empty folder gives, the writer's own files included.
final class IndexSectionsTests: DigestTestCase {
    var ids: [String: SourceID] = [:]

    /// Alpha, Beta and Gamma with cards since `since` (Gamma's newest 2 h old, at a fixed
    /// distance from the next hour: its age changes an hour later), and Old with none.
    func fill() throws {
        for name in ["Alpha", "Beta", "Gamma", "Old"] {
            ids[name] = try store.upsertSource(SourceConfiguration(url: "https://\(name.lowercased()).example.org/feed", name: name), now: hoursAgo(400))
        }
        try save("Alpha", [("a1", 3), ("a2", 30), ("a3", 24 * 3)])
        try save("Beta", [("b1", 5), ("b2", 24 * 10)])
        try save("Gamma", [("g1", 2)])
        try save("Old", [("o1", 24 * 30)])
    }

    func save(_ source: String, _ cards: [(String, Int64)], at: Timestamp? = nil, title: (String) -> String = { "Post " + $0 }) throws {
        try store.saveFetch(sourceID: ids[source]!, feed: FeedInfo(title: source), cards: cards.map { id, hours in
            Card(id: id, title: title(id), description: "<p>Body of \(id), a few words to make an excerpt of.</p>",
                 link: "https://example.org/\(id)", published: hoursAgo(hours))
        }, validators: CacheValidators(), now: at ?? hoursAgo(1), nextDue: nil)
    }

    func options(now: Timestamp? = nil) -> DigestOptions {
        DigestOptions(title: "Test digest", since: hoursAgo(7 * 24), now: now ?? self.now)
    }

    func contents(_ folder: String) throws -> [String: Data] { try folderContents(folder) }

    /// The site a fresh write into an empty folder gives now.
    func freshSite(_ options: DigestOptions) throws -> [String: Data] {
        let fresh = directory.path + "/fresh-\(UUID().uuidString)"
        try DigestWriter(directory: fresh, options: options)
            .write(try DigestModel.load(from: store, options: options), images: try images(), extraFiles: ["sources.opml": "<opml/>\n"])
        return try contents(fresh)
    }

    /// Changes `old` to `new` (same length) in the site's index.html, and gives the cache's
    /// header the new bytes' hash.
    func tamper(_ old: String, _ new: String) throws {
        XCTAssertEqual(old.utf8.count, new.utf8.count)
        var data = try Data(contentsOf: URL(fileURLWithPath: site + "/index.html"))
        let range = try XCTUnwrap(data.range(of: Data(old.utf8)), "\(old) is not in index.html")
        data.replaceSubrange(range, with: Data(new.utf8))
        try data.write(to: URL(fileURLWithPath: site + "/index.html"))
        var lines = try String(contentsOfFile: site + "/" + IndexSections.fileName, encoding: .utf8).components(separatedBy: "\n")
        lines[0] = IndexSections.format + "\t" + IndexSections.identity([UInt8](data))
        try lines.joined(separator: "\n").write(toFile: site + "/" + IndexSections.fileName, atomically: true, encoding: .utf8)
    }

    func testARerunWithNothingNewCopiesEverySectionAndEqualsAFreshWrite() throws {
        try fill()
        try writeSite(options: options())
        let report = try writeSite(options: options())
        XCTAssertEqual(report.written, [])
        XCTAssertEqual(report.removed, [])
        XCTAssertEqual(try contents(site), try freshSite(options()))

        try tamper(">Post a1<", ">Xost a1<")
        try tamper(">Post b1<", ">Xost b1<")
        try writeSite(options: options())
        let index = try read("index.html")
        XCTAssertTrue(index.contains(">Xost a1<"), "Alpha's section was rendered again")
        XCTAssertTrue(index.contains(">Xost b1<"), "Beta's section was rendered again")
    }

    /// A rerun with nothing new leaves `.feeds-index` as it is when it is exactly what the
    /// writer writes; sections of the right entries written otherwise (in another order, a line
    /// twice, a number with a plus or a leading zero, the last line without its line break, an
    /// empty line) are taken, and the file is written again as a fresh write writes it.
    func testARerunWritesTheSectionsFileAgainUnlessItIsExactlyTheWritersOwn() throws {
        try fill()
        try writeSite(options: options())
        let path = site + "/" + IndexSections.fileName
        let exact = try String(contentsOfFile: path, encoding: .utf8)
        var lines = exact.components(separatedBy: "\n")
        XCTAssertEqual(lines.removeLast(), "")
        let header = lines.removeFirst()
        XCTAssertGreaterThanOrEqual(lines.count, 3)
        func changing(_ field: Int, of line: String, _ change: (String) -> String) -> String {
            var fields = line.components(separatedBy: "\t")
            fields[field] = change(fields[field])
            return fields.joined(separator: "\t")
        }
        let variants: [(String, [String], String)] = [
            ("another order", lines.reversed(), "\n"),
            ("a line twice", lines + [lines[0]], "\n"),
            ("a number with a plus", [changing(5, of: lines[0]) { "+" + $0 }] + lines.dropFirst(), "\n"),
            ("a leading zero", [changing(4, of: lines[0]) { "0" + $0 }] + lines.dropFirst(), "\n"),
            ("no last line break", lines, ""),
            ("an empty line", lines.flatMap { [$0, ""] }, "\n"),
        ]
        for (label, body, end) in variants {
            try (([header] + body).joined(separator: "\n") + end).write(toFile: path, atomically: true, encoding: .utf8)
            let report = try writeSite(options: options())
            XCTAssertEqual(report.written, [], label)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), exact, label)
            XCTAssertEqual(try contents(site), try freshSite(options()), label)
        }
    }

    /// A card whose stamp moves without a visible change (its `changed_at`, as a restored
    /// backup's might): its section is rendered again to the same bytes, so index.html is the
    /// last one, but the section's new stamp is recorded, as a fresh write records it.
    func testASectionRenderedToTheSameBytesIsRecordedAgain() throws {
        try fill()
        try writeSite(options: options())
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [directory.path + "/feeds.db", "UPDATE cards SET changed_at = changed_at + 1 WHERE card_key = (SELECT card_key FROM cards WHERE guid = 'a1')"]
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        let before = try read("index.html")
        let report = try writeSite(options: options())
        XCTAssertEqual(try read("index.html"), before)
        XCTAssertFalse(report.written.contains("index.html"))
        XCTAssertEqual(try contents(site), try freshSite(options()))
    }

    func testAnEditedCardRendersItsSourcesSectionOnly() throws {
        try fill()
        try writeSite(options: options())
        try tamper(">Post b1<", ">Xost b1<")
        try save("Alpha", [("a1", 3), ("a2", 30), ("a3", 24 * 3)], at: now) { $0 == "a2" ? "Edited title" : "Post " + $0 }
        try writeSite(options: options())
        let index = try read("index.html")
        XCTAssertTrue(index.contains(">Edited title<"))
        XCTAssertTrue(index.contains(">Xost b1<"), "Beta's section was rendered again")
    }

    func testAnEditedCardsRerunEqualsAFreshWrite() throws {
        try fill()
        try writeSite(options: options())
        try save("Alpha", [("a1", 3), ("a2", 30), ("a3", 24 * 3)], at: now) { $0 == "a2" ? "Edited title" : "Post " + $0 }
        let report = try writeSite(options: options())
        // a2's day, its source, and the latest pages it is on (index, sort pages, Atom feed).
        XCTAssertEqual(Set(report.written), ["archive/2026-11-28.html", "sources/\(ids["Alpha"]!.rawValue).html", "index.html", "sort-newest.html",
                                             "sort-oldest.html", "sort-source.html", "sort-title.html", "digest.atom"])
        XCTAssertEqual(try contents(site), try freshSite(options()))
    }

    func testANewCardMovesItsSourceFirstAndTheOthersAreCopied() throws {
        try fill()
        try writeSite(options: options())
        try tamper(">Post b1<", ">Xost b1<")
        try save("Beta", [("b1", 5), ("b2", 24 * 10), ("b0", 1)], at: now)
        try writeSite(options: options())
        let index = try read("index.html")
        XCTAssertTrue(index.contains(">Post b0<"))
        XCTAssertTrue(index.contains(">Post b1<"), "Beta's section was copied")
        XCTAssertLessThan(try XCTUnwrap(index.range(of: "id=\"s\(ids["Beta"]!.rawValue)\"")).lowerBound,
                          try XCTUnwrap(index.range(of: "id=\"s\(ids["Gamma"]!.rawValue)\"")).lowerBound)
        XCTAssertEqual(try contents(site), try freshSite(options()))
    }

    func testMarkingACardReadRendersItsSourcesSection() throws {
        try fill()
        try writeSite(options: options())
        try tamper(">Post a1<", ">Xost a1<")
        try tamper(">Post b1<", ">Xost b1<")
        let b1 = try XCTUnwrap(try store.cards(CardQuery(), order: .newest).first { $0.card.id == "b1" }?.id)
        XCTAssertEqual(try store.markRead(.cards([b1])), 1)
        try writeSite(options: options())
        let index = try read("index.html")
        XCTAssertTrue(index.contains(">Xost a1<"), "Alpha's section was rendered again")
        XCTAssertTrue(index.contains(">Post b1<"), "Beta's unread count was copied")
        XCTAssertTrue(index.contains(", 0 unread</span>"), "Beta's count")
    }

    func testASectionIsRenderedWhenOneOfItsAgesChanges() throws {
        try fill()
        try writeSite(options: options())
        try tamper(">Post a1<", ">Xost a1<")
        try tamper(">Post g1<", ">Xost g1<")
        // A minute on no age reads otherwise: both copied.
        try writeSite(options: options(now: now.adding(60)))
        XCTAssertTrue(try read("index.html").contains(">Xost g1<"))
        // An hour on every card under a day old reads otherwise ("3 h ago"): both rendered.
        let later = options(now: now.adding(3_600))
        try writeSite(options: later)
        let index = try read("index.html")
        XCTAssertTrue(index.contains(">Post a1<") && index.contains(">Post g1<"))
        XCTAssertTrue(index.contains("3 h ago"))
        XCTAssertEqual(try contents(site), try freshSite(later))
        // A clock set back is no cache either.
        try tamper(">Post g1<", ">Xost g1<")
        try writeSite(options: options())
        XCTAssertTrue(try read("index.html").contains(">Post g1<"))
        XCTAssertEqual(try contents(site), try freshSite(options()))
    }

    func testAnIndexReplacedOrEditedSinceIsNoCache() throws {
        try fill()
        try writeSite(options: options())
        // Edited by hand.
        var text = try read("index.html")
        text = text.replacingOccurrences(of: ">Post a1<", with: ">Xost a1<")
        try text.write(toFile: site + "/index.html", atomically: false, encoding: .utf8)
        try writeSite(options: options())
        XCTAssertEqual(try contents(site), try freshSite(options()))
        // A damaged cache: no entry.
        try tamper(">Post a1<", ">Xost a1<")
        try Data("feeds-index 1\tnonsense\n1\tx\n".utf8).write(to: URL(fileURLWithPath: site + "/" + IndexSections.fileName))
        try writeSite(options: options())
        XCTAssertEqual(try contents(site), try freshSite(options()))
    }

    func testAnAgesSpanIsWhereItReadsAsNow() {
        let t = Timestamp(secondsSince1970: 1_800_000_000)
        func age(_ at: Int64) -> String { CardHTML.age(of: t, now: Timestamp(secondsSince1970: at)) }
        var offset = Int64(-7_200)
        while offset < 16 * 86_400 {
            let at = t.adding(offset)
            let span = CardHTML.ageSpan(of: t, now: at)
            XCTAssertTrue(span.contains(at.secondsSince1970), "at \(offset)")
            XCTAssertEqual(age(span.upperBound - 1), age(at.secondsSince1970), "at \(offset)")
            if span.upperBound < .max { XCTAssertNotEqual(age(span.upperBound), age(at.secondsSince1970), "at \(offset)") }
            if span.lowerBound > .min {
                XCTAssertEqual(age(span.lowerBound), age(at.secondsSince1970), "at \(offset)")
                XCTAssertNotEqual(age(span.lowerBound - 1), age(at.secondsSince1970), "at \(offset)")
            }
            // Any moment of the span gives the span.
            XCTAssertEqual(CardHTML.ageSpan(of: t, now: Timestamp(secondsSince1970: max(span.lowerBound, at.secondsSince1970 - 3_000))), span)
            offset += 557
        }
    }
}
