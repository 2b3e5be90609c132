@testable import Aggregator
import FeedModel
import Fetching
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// The update's index thread leaves FTS5's merges to the time it waits for rows, unless a
/// level of the index has piled up (`SearchIndexThread.defersMerges`), and ends the run with
/// the index merging as before and every card searchable.
final class IndexMergeDeferralTests: XCTestCase {
    private var homes: [TemporaryDirectory] = []

    override func tearDown() {
        homes = []
    }

    func testMergesAreDeferredOnlyWhileEveryLevelIsBelowTheValve() {
        XCTAssertTrue(SearchIndexThread.defersMerges(levels: []), "a new index")
        XCTAssertTrue(SearchIndexThread.defersMerges(levels: [11, 3, 9]))
        XCTAssertFalse(SearchIndexThread.defersMerges(levels: [2, SearchIndexThread.valveSegments, 1]))
        XCTAssertFalse(SearchIndexThread.defersMerges(levels: [16]))
        XCTAssertFalse(SearchIndexThread.defersMerges(levels: nil), "a record not understood: FTS5's own way")
        XCTAssertLessThan(SearchIndexThread.valveSegments, 16, "below FTS5's crisis merge")
    }

    /// Three updates of 30 feeds, the index refreshed every 10 cards (dozens of segments, so
    /// levels fill and merge): every card found, the index's setting back to merging in its
    /// refreshes, its levels below the valve's size plus the refreshes of one run.
    func testUpdatesEndWithTheIndexMergingAndEveryCardFound() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        homes.append(home)
        var lines: [String] = []
        var now: Int64 = 1_800_000_000
        var workspace: Workspace!
        for round in 0..<3 {
            for i in 0..<30 {
                let feed = "r\(round)f\(i)"
                let items = (0..<(2 + (i * 5) % 9)).map { "\(feed)-item\($0) merge\(feed)x" }
                server.route("/\(feed)", .text(rss(feed, items: items), contentType: "application/rss+xml"))
                lines.append("\(server.url("/\(feed)")) name=\(feed)")
            }
            try home.write("sources", lines.joined(separator: "\n") + "\n")
            var runner = UpdateRunner(limits: FetchLimitsForTests.make(), clock: { [now] in Timestamp(secondsSince1970: now) })
            runner.searchIndexBatch = 10
            workspace = try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]),
                                      now: Timestamp(secondsSince1970: now))
            let summary = try runner.run(.due, in: workspace)
            XCTAssertEqual(summary.failed, 0, "round \(round)")
            XCTAssertGreaterThanOrEqual(summary.ok, 30, "round \(round)")
            now += 3_600
        }
        let store = try workspace.store
        for round in 0..<3 {
            for i in 0..<30 {
                XCTAssertEqual(try store.search("merger\(round)f\(i)x").count, 2 + (i * 5) % 9, "r\(round)f\(i)")
            }
        }
        let index = home.file("feeds.search.db").path
        XCTAssertEqual(try setting("automerge", in: index), 8, "merging in refreshes again after the run")
        let indexer = try SearchIndexer(storePath: home.file("feeds.db").path)
        let levels = try XCTUnwrap(indexer.levelSegments())
        XCTAssertGreaterThan(levels.reduce(0, +), 0)
        XCTAssertLessThan(levels.max() ?? 0, 16, "no level left for FTS5's crisis merge: \(levels)")
    }

    /// A setting of the index as the file holds it (opening a `SearchIndexer` would write it).
    private func setting(_ name: String, in path: String) throws -> Int? {
        try Database(path: path).prepare("SELECT v FROM card_search_config WHERE k = ?1").queryOne([.text(name)]) { $0.int(0) }
    }
}
