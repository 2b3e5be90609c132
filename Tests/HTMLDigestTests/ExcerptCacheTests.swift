import FeedModel
import Foundation
import Storage
import TestSupport
import XCTest

@testable import HTMLDigest

/// The latest pages' excerpts kept between runs (`.feeds-excerpts`): a rerun takes them from
/// there, an edited card's is made again, a damaged file is no entry; whatever the file held,
/// the site is what a fresh write into an empty folder gives.
final class ExcerptCacheTests: DigestTestCase {
    var cacheFile: String { site + "/.feeds-excerpts" }

    /// A fresh write of the store's cards into an empty folder: every file, by relative path.
    func freshSite() throws -> [String: Data] {
        let fresh = directory.path + "/fresh-\(UUID().uuidString)"
        let model = try DigestModel.load(from: store, options: options)
        try DigestWriter(directory: fresh, options: options).write(model, images: try images(), extraFiles: ["sources.opml": "<opml/>\n"])
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        return try folderContents(fresh)
    }

    func assertSameAsFresh(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try freshSite(), actual = try folderContents(site)
        XCTAssertEqual(Set(actual.keys), Set(expected.keys), label, file: file, line: line)
        for (path, data) in actual.sorted(by: { $0.key < $1.key }) where expected[path] != data {
            XCTFail("\(label): \(path) differs from a fresh write", file: file, line: line)
        }
    }

    /// The cache's lines after its header, as fields.
    func entries() throws -> [[String]] {
        let text = try String(contentsOfFile: cacheFile, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "feeds-excerpts 1")
        return lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// A line as the writer checks it: its CHECK the FNV-1a hash of the rest.
    static func line(_ id: String, _ input: String, _ text: String) -> String {
        var hash = StableHash.Accumulator()
        hash.add(id + "\t" + input + "\t" + text)
        return id + "\t" + input + "\t" + text + "\t" + hash.hex
    }

    func testTheCacheHoldsTheLatestCardsExcerptsAndARerunWritesWhatAFreshWriteDoes() throws {
        try fillStore()
        try writeSite()
        let rows = try entries()
        // b1, b2 and n1 are recent and titled; n2 has no title (no excerpt), b3 no description.
        XCTAssertEqual(rows.count, 3)
        XCTAssertTrue(rows.allSatisfy { $0.count == 4 && $0[1].count == 16 && $0[3].count == 16 })
        XCTAssertTrue(rows.contains { $0[2] == "First post & more" }, "\(rows)")
        let report = try writeSite()
        XCTAssertEqual(report.written, [])
        try assertSameAsFresh("rerun")
    }

    /// A file of the right entries that is not byte for byte what the writer writes (lines in
    /// another order, a line twice, an id with a leading zero, the last line without its line
    /// break, an empty line, a damaged line after the good ones, a line missing) is written
    /// again by a rerun with nothing new, as a fresh write writes it; one that is exactly the
    /// writer's, with the run's entries, is neither made nor written (`isUnchanged`).
    func testARerunWritesTheCacheAgainUnlessItIsExactlyTheWritersOwn() throws {
        try fillStore()
        try writeSite()
        let good = try entries()
        XCTAssertGreaterThanOrEqual(good.count, 2)
        let lines = good.map { Self.line($0[0], $0[1], $0[2]) }
        let header = "feeds-excerpts 1\n"
        let exact = try String(contentsOfFile: cacheFile, encoding: .utf8)
        XCTAssertEqual(exact, header + lines.joined(separator: "\n") + "\n", "the lines as the writer writes them")

        let ids = good.compactMap { Int64($0[0]) }
        let same = ExcerptCache(root: site)
        ids.forEach(same.carry)
        XCTAssertTrue(same.isUnchanged)
        let fewer = ExcerptCache(root: site)
        ids.dropLast().forEach(fewer.carry)
        XCTAssertFalse(fewer.isUnchanged, "an entry this run does not keep")

        let variants: [(String, String)] = [
            ("another order", header + lines.reversed().joined(separator: "\n") + "\n"),
            ("a line twice", header + (lines + [lines[0]]).joined(separator: "\n") + "\n"),
            ("a leading zero", header + ([Self.line("0" + good[0][0], good[0][1], good[0][2])] + lines.dropFirst()).joined(separator: "\n") + "\n"),
            ("no last line break", header + lines.joined(separator: "\n")),
            ("an empty line", header + lines.joined(separator: "\n\n") + "\n"),
            ("a damaged line after", header + lines.joined(separator: "\n") + "\nnot a line\n"),
            ("a line missing", header + lines.dropLast().joined(separator: "\n") + "\n"),
        ]
        for (label, text) in variants {
            try text.write(toFile: cacheFile, atomically: true, encoding: .utf8)
            if label != "a line missing" {  // an exact file of fewer entries: the run keeps one more
                let cache = ExcerptCache(root: site)
                ids.forEach(cache.carry)
                XCTAssertFalse(cache.isUnchanged, label)
            }
            try writeSite()
            XCTAssertEqual(try String(contentsOfFile: cacheFile, encoding: .utf8), exact, label)
            try assertSameAsFresh(label)
        }
    }

    func testARerunTakesTheExcerptFromTheCache() throws {
        // An entry whose input is the card's: the rerun shows its text, not a newly made one
        // (the only way to see that the excerpt was not made again). On a sort page: the
        // index's section of the card is copied from the last run (IndexSectionsTests).
        try fillStore()
        try writeSite()
        var rows = try entries()
        let i = try XCTUnwrap(rows.firstIndex { $0[2] == "First post & more" })
        rows[i][2] = "Kept from the last run <b>"
        let lines = ["feeds-excerpts 1"] + rows.map { Self.line($0[0], $0[1], $0[2]) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: cacheFile, atomically: true, encoding: .utf8)
        try writeSite()
        let index = try read("sort-newest.html")
        XCTAssertTrue(index.contains("<p class=\"excerpt\">Kept from the last run &lt;b&gt;</p>"))
        XCTAssertFalse(index.contains("First post &amp; more"))
    }

    func testAnEditedCardsExcerptIsMadeAgain() throws {
        try fillStore()
        try writeSite()
        let blog = try XCTUnwrap(try store.sources().first { $0.configuration.name?.hasPrefix("Blog") == true }).id
        let before = try entries()
        // The same card, its text edited (a fetch an hour later), and one with a picture no more.
        try store.saveFetch(sourceID: blog, feed: FeedInfo(title: "Blog"), cards: [
            Card(id: "b1", title: "Hello <script>alert(1)</script> world", description: "<p>Second <i>thoughts</i></p>",
                 link: "https://blog.example.org/1", image: "https://img.example.org/a.png", published: hoursAgo(2), author: "Ann"),
            Card(id: "b2", title: "Podcast episode", description: "<p>Listen</p>", link: "https://blog.example.org/2",
                 published: hoursAgo(30), enclosures: [Enclosure(url: "https://blog.example.org/ep.mp3", type: "audio/mpeg", length: 31_457_280)]),
        ], validators: CacheValidators(), now: now, nextDue: nil)
        try writeSite()
        let index = try read("index.html")
        XCTAssertTrue(index.contains("<p class=\"excerpt\">Second thoughts</p>"))
        XCTAssertFalse(index.contains("First post"))
        let after = try entries()
        XCTAssertTrue(after.contains { $0[2] == "Second thoughts" })
        XCTAssertNotEqual(before.first { $0[2] == "First post & more" }?[1], after.first { $0[2] == "Second thoughts" }?[1])
        try assertSameAsFresh("after an edit")
    }

    func testACardOffTheLatestPagesLeavesTheCache() throws {
        try fillStore()
        try writeSite()
        XCTAssertEqual(try entries().count, 3)
        // A day later the site's latest cards are those of the last 6 hours: b1 and n1 only.
        var later = options
        later.since = hoursAgo(6)
        try writeSite(options: later)
        XCTAssertEqual(Set(try entries().map { $0[2] }).count, 2)
        XCTAssertFalse(try entries().contains { $0[2] == "Listen" })
    }

    /// Classes of damage: another format, lines cut, fields missing or extra, a check that does
    /// not match, ids and inputs that are no number, invalid UTF-8, NUL, lines too long, a file
    /// too big, a link (to a device, to a file outside), a pipe, a folder. Each is no entry:
    /// the rerun writes what a fresh write does, and never hangs on a device or a pipe.
    func testADamagedCacheIsNoEntry() throws {
        try fillStore()
        try writeSite()
        let good = try entries()
        let outside = directory.path + "/outside.txt"
        try "keep".write(toFile: outside, atomically: true, encoding: .utf8)
        let row = good[0]
        let wrongText = { (id: String, input: String) in Self.line(id, input, "Not the excerpt") }
        var damages: [(String, () throws -> Void)] = []
        func text(_ label: String, _ body: @escaping () -> String) {
            damages.append((label, { try Data(body().utf8).write(to: URL(fileURLWithPath: self.cacheFile)) }))
        }
        func bytes(_ label: String, _ body: @escaping () -> [UInt8]) {
            damages.append((label, { try Data(body()).write(to: URL(fileURLWithPath: self.cacheFile)) }))
        }
        text("another format") { "feeds-excerpts 0\n" + wrongText(row[0], row[1]) + "\n" }
        text("no header") { wrongText(row[0], row[1]) + "\n" }
        text("empty") { "" }
        text("a wrong check") { "feeds-excerpts 1\n" + [row[0], row[1], "Not the excerpt", row[3]].joined(separator: "\t") + "\n" }
        text("a line cut") { "feeds-excerpts 1\n" + String(wrongText(row[0], row[1]).dropLast(3)) + "\n" }
        text("a field missing") { "feeds-excerpts 1\n" + row[0] + "\t" + row[1] + "\t" + row[3] + "\n" }
        text("a field more") { "feeds-excerpts 1\n" + Self.line(row[0], row[1], "Not\tthe excerpt") + "\n" }
        for id in ["-1", "0", "x", "99999999999999999999", "", " 1", "1.0"] {
            text("id \(id)") { "feeds-excerpts 1\n" + wrongText(id, row[1]) + "\n" + Self.line(row[0], row[1], row[2]) + "\n" }
        }
        for input in ["", "zzzzzzzzzzzzzzzz", "-123456789abcdef", "0123456789abcdef0", String(repeating: "f", count: 15)] {
            text("input \(input)") { "feeds-excerpts 1\n" + good.map { Self.line($0[0], input, "Not the excerpt") }.joined(separator: "\n") + "\n" }
        }
        for control in ["\u{0}", "\r", "\u{1B}[2J", "\u{7}"] {
            text("a control character") { "feeds-excerpts 1\n" + Self.line(row[0], row[1], "Not the excerpt" + control) + "\n" }
        }
        text("an input of other text") { "feeds-excerpts 1\n" + good.map { Self.line($0[0], "0123456789abcdef", "Not the excerpt") }.joined(separator: "\n") + "\n" }
        text("a line too long") { "feeds-excerpts 1\n" + good.map { Self.line($0[0], $0[1], String(repeating: "x", count: 20_000)) }.joined(separator: "\n") + "\n" }
        bytes("invalid UTF-8") {
            let id = Array(row[0].utf8), input = Array(row[1].utf8), text: [UInt8] = [0x4E, 0xC3, 0x28, 0xFF, 0x6F]
            var hash = StableHash.Accumulator()
            let body = id + [0x09] + input + [0x09] + text
            body.withUnsafeBufferPointer { hash.add($0) }
            return Array("feeds-excerpts 1\n".utf8) + body + [0x09] + Array(hash.hex.utf8) + [0x0A]
        }
        damages.append(("a file too big", {
            XCTAssertTrue(FileManager.default.createFile(atPath: self.cacheFile, contents: nil))
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: self.cacheFile))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(("feeds-excerpts 1\n" + good.map { Self.line($0[0], $0[1], "Not the excerpt") }.joined(separator: "\n") + "\n").utf8))
            try handle.truncate(atOffset: 65 << 20)
            try handle.close()
        }))
        for target in ["/dev/zero", "/dev/urandom", outside] {
            damages.append(("a link to \(target)", {
                try FileManager.default.createSymbolicLink(atPath: self.cacheFile, withDestinationPath: target)
            }))
        }
        damages.append(("a pipe", { XCTAssertEqual(mkfifo(self.cacheFile, 0o644), 0) }))
        damages.append(("a folder", { try FileManager.default.createDirectory(atPath: self.cacheFile, withIntermediateDirectories: false) }))

        for (label, damage) in damages {
            try? FileManager.default.removeItem(atPath: cacheFile)
            try damage()
            if label == "a folder" {
                // Not ours to delete: the write fails with a line naming the file, the pages are written.
                XCTAssertThrowsError(try writeSite(), label)
                try FileManager.default.removeItem(atPath: cacheFile)
                try writeSite()
            } else {
                try writeSite()
            }
            XCTAssertFalse(try read("index.html").contains("Not the excerpt"), label)
            try assertSameAsFresh(label)
            XCTAssertEqual(try entries().map { $0[2] }, good.map { $0[2] }, label)
            XCTAssertEqual(try String(contentsOfFile: outside, encoding: .utf8), "keep", label)
        }
    }
}
