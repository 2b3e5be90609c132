@testable import Aggregator
import FeedModel
@testable import Storage
import Foundation
import TestSupport
import XCTest

/// Issue 21: the sources file's lines are paired with the stored sources by walking both in
/// order, a dictionary only where the orders part. Whatever the two orders, the pairing is the
/// one a dictionary of the stored URLs gives, and a workspace lists, syncs and finds orphans as
/// it did.
final class SourcePairingTests: XCTestCase {
    /// Stored URLs, and the file's: the same in order, moved, swapped, some deleted, some new,
    /// reversed, shuffled; with URLs that are equal as Strings but not as bytes (é composed and
    /// not), which a dictionary finds too.
    func testEveryOrderPairsAsADictionaryWould() {
        var random = SplitMix64(seed: 21)
        for round in 0..<3_000 {
            let n = Int.random(in: 0...40, using: &random)
            var stored = (0..<n).map { "s\($0)" + (round % 7 == 0 && $0 % 5 == 0 ? "e\u{301}" : "") }
            if round % 11 == 0 { stored.shuffle(using: &random) }
            var file = stored.map { $0.replacingOccurrences(of: "e\u{301}", with: "\u{E9}") }
            switch round % 6 {
            case 0: break
            case 1: if file.count > 1 { file.swapAt(Int.random(in: 0..<file.count, using: &random), Int.random(in: 0..<file.count, using: &random)) }
            case 2: file.removeAll { _ in Int.random(in: 0..<4, using: &random) == 0 }
            case 3: for _ in 0..<Int.random(in: 1...4, using: &random) { file.insert("new\(Int.random(in: 0..<1_000_000, using: &random))", at: Int.random(in: 0...file.count, using: &random)) }
            case 4: file.reverse()
            default: file.shuffle(using: &random); file.removeAll { _ in Int.random(in: 0..<5, using: &random) == 0 }
            }
            file = Array(NSOrderedSet(array: file).array as! [String])  // the file lists a URL once
            let byURL = Dictionary(stored.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let paired = SourcePairing.match(file, stored, entryURL: { $0 }, storedURL: { $0 })
            XCTAssertEqual(paired, file.map { byURL[$0] }, "round \(round): file \(file), stored \(stored)")
        }
    }

    /// A file edited by hand after the sources were stored: lines moved, one renamed, one
    /// deleted, one added, one broken. `openListing` and the workspace list the file's order
    /// with each line's own stored source, store the renamed and the new line, and the deleted
    /// line's source is an orphan.
    func testAFileEditedByHandListsSyncsAndFindsOrphans() throws {
        let home = TemporaryDirectory()
        let paths = try FeedsPaths.resolve(home: home.path, environment: [:])
        let urls = (0..<12).map { "feeds/f\($0).rss" }
        try (urls.map { $0 + " name=\"N \($0)\"" }.joined(separator: "\n") + "\n")
            .write(toFile: paths.sourcesFile, atomically: true, encoding: .utf8)
        _ = try Workspace(paths: paths, now: Timestamp(secondsSince1970: 1_800_000_000))

        var lines = urls.map { $0 + " name=\"N \($0)\"" }
        lines.swapAt(2, 9)
        lines.insert(lines.removeFirst(), at: 7)
        lines[lines.firstIndex { $0.hasPrefix(urls[4] + " ") }!] = urls[4] + " name=\"Renamed\" tags=x"
        lines.remove(at: lines.firstIndex { $0.hasPrefix(urls[5] + " ") }!)
        lines.insert("feeds/new.rss", at: 3)
        // A stored source's line that no longer reads: neither listed nor an orphan.
        lines[lines.firstIndex { $0.hasPrefix(urls[6] + " ") }!] = urls[6] + " every=never"
        try (lines.joined(separator: "\n") + "\n").write(toFile: paths.sourcesFile, atomically: true, encoding: .utf8)

        // `feeds sources` opens with `openListing`: the sync from the one read, which here has
        // something to write (the renamed and the new line), so the sources are read again.
        let (opened, paired) = try Workspace.openListing(paths: paths, now: Timestamp(secondsSince1970: 1_800_000_100))
        XCTAssertEqual(paired.listed.map { paired.entries[$0.entry].url }, lines.filter { !$0.contains("never") }.map { String($0.prefix { $0 != " " }) })
        for pair in paired.listed {
            XCTAssertEqual(paired.stored[pair.stored].configuration, paired.entries[pair.entry].configuration, "synced before listed")
        }
        XCTAssertEqual(paired.orphans.map { paired.stored[$0].configuration.url }, [urls[5]])
        // Nothing to write now: the one read is the listing, the same as a second read gives.
        let (_, again) = try Workspace.openListing(paths: paths, now: Timestamp(secondsSince1970: 1_800_000_200))
        let reread = try opened.pairedSources()
        XCTAssertEqual(again.stored, reread.stored)
        XCTAssertEqual(again.listed.map(\.entry), reread.listed.map(\.entry))
        XCTAssertEqual(again.listed.map(\.stored), reread.listed.map(\.stored))
        XCTAssertEqual(again.orphans, reread.orphans)

        let workspace = try Workspace(paths: paths, now: Timestamp(secondsSince1970: 1_800_000_300))
        let (listed, orphans) = try workspace.sourcesAndOrphans()
        let expected = lines.filter { !$0.contains("never") }.map { String($0.prefix { $0 != " " }) }
        XCTAssertEqual(listed.map(\.entry.url), expected)
        for (entry, stored) in listed {
            XCTAssertEqual(stored.configuration, entry.configuration, entry.url)
        }
        XCTAssertEqual(listed.first { $0.entry.url == urls[4] }?.stored.displayName, "Renamed")
        XCTAssertEqual(orphans.map(\.configuration.url), [urls[5]])
        XCTAssertEqual(try workspace.store.sources().count, 13, "12 stored, one new; the deleted line's kept")
    }

    /// `feeds update` pairs only the due sources with the file's lines (issue 21: it read every
    /// source besides). Over files edited by hand (lines moved, deleted, added) and any set of
    /// due sources, disabled ones among them, it picks what the full listing filtered by due
    /// gives: the due lines in file order, each with its own stored source, never an orphan.
    func testTheDueSelectionIsTheListingsDueLines() throws {
        let home = TemporaryDirectory()
        let paths = try FeedsPaths.resolve(home: home.path, environment: [:])
        let urls = (0..<30).map { "feeds/f\($0).rss" }
        try (urls.joined(separator: "\n") + "\n").write(toFile: paths.sourcesFile, atomically: true, encoding: .utf8)
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        _ = try Workspace(paths: paths, now: now)
        var random = SplitMix64(seed: 2113)
        for round in 0..<40 {
            var lines = urls
            lines.shuffle(using: &random)
            lines.removeAll { _ in Int.random(in: 0..<5, using: &random) == 0 }  // orphans
            for n in 0..<Int.random(in: 0...3, using: &random) { lines.insert("feeds/new\(round)-\(n).rss", at: Int.random(in: 0...lines.count, using: &random)) }
            if round % 4 == 0 { lines = urls }  // the usual case: the file in the stored order
            try (lines.joined(separator: "\n") + "\n").write(toFile: paths.sourcesFile, atomically: true, encoding: .utf8)
            let workspace = try Workspace(paths: paths, now: now)
            // Due: never fetched, due in the past or now; not due: later; disabled: never due.
            try workspace.store.db.execute("""
                UPDATE sources SET disabled_reason = NULL,
                    next_due_at = CASE abs(random()) % 4 WHEN 0 THEN NULL WHEN 1 THEN \(now.secondsSince1970 - 60)
                                                         WHEN 2 THEN \(now.secondsSince1970) ELSE \(now.secondsSince1970 + 60) END;
                UPDATE sources SET disabled_reason = 'gone' WHERE abs(random()) % 6 = 0
                """)
            let selected = try UpdateRunner(limits: FetchLimitsForTests.make()).select(.due, in: workspace, now: now)
            let due = Set(try workspace.store.dueSources(at: now).map(\.id))
            let paired = try workspace.pairedSources(counting: false)
            let expected = paired.listed.filter { due.contains(paired.stored[$0.stored].id) }
            XCTAssertEqual(selected.map(\.entry), expected.map(\.entry), "round \(round)")
            XCTAssertEqual(selected.map(\.stored), expected.map { paired.stored[$0.stored] }, "round \(round)")
            for pick in selected {
                XCTAssertEqual(pick.stored.configuration.url, paired.entries[pick.entry].url)
                XCTAssertTrue(lines.contains(pick.stored.configuration.url), "an orphan was selected")
            }
            if round == 0 { XCTAssertFalse(selected.isEmpty) }
        }
    }

    /// `hasConfiguration` says what `configuration ==` says, field by field: every field of
    /// SourceConfiguration is one it compares (a new field fails here until it does), and each
    /// one differing alone is a difference.
    func testHasConfigurationIsEquality() {
        XCTAssertEqual(Mirror(reflecting: SourceConfiguration(url: "u")).children.compactMap(\.label),
                       ["url", "name", "kind", "tags", "keepDays", "keepCount"])
        var random = SplitMix64(seed: 2104)
        for _ in 0..<5_000 {
            func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
            var entry = SourceEntry(url: pick(["a", "b", "e\u{301}", "\u{E9}"]), name: pick([nil, "", "N", "n"]),
                                    tags: pick([[], ["x"], ["x", "y"], ["y", "x"]]), keepDays: pick([nil, 0, 7]),
                                    keepCount: pick([nil, 0, 200]))
            if Bool.random(using: &random) { entry.search = SavedSearch(engine: .ddg, query: "q") }
            let stored = SourceConfiguration(url: pick(["a", "b", "e\u{301}", "\u{E9}"]), name: pick([nil, "", "N", "n"]),
                                             kind: pick([.feed, .search]), tags: pick([[], ["x"], ["x", "y"], ["y", "x"]]),
                                             keepDays: pick([nil, 0, 7]), keepCount: pick([nil, 0, 200]))
            XCTAssertEqual(entry.hasConfiguration(stored), entry.configuration == stored, "\(entry) \(stored)")
            XCTAssertTrue(entry.hasConfiguration(entry.configuration))
        }
    }
}
