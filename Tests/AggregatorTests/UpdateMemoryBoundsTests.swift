import Aggregator
import FeedModel
import Fetching
import Foundation
import Storage
import TestSupport
import XCTest

/// What bounds a run's memory (issue 21) never costs a card: with downloads held to one body
/// at a time, every source in a batch of its own and index rows dropped as soon as more than a
/// refresh's worth wait, every card is saved and the run leaves the search index complete.
final class UpdateMemoryBoundsTests: XCTestCase {
    private var homes: [TemporaryDirectory] = []

    override func tearDown() {
        homes = []
    }

    private func run(_ configure: (inout UpdateRunner) -> Void) throws -> (UpdateSummary, FeedStore, String) {
        let server = try LoopbackHTTPServer()
        var lines: [String] = []
        for i in 0..<30 {
            let items = (0..<(3 + (i * 5) % 17)).map { "m\(i)-item\($0) bound\(i)x" }
            server.route("/f\(i)", .text(rss("feed\(i)", items: items), contentType: "application/rss+xml"))
            lines.append("\(server.url("/f\(i)")) name=feed\(i)")
        }
        let home = TemporaryDirectory()
        homes.append(home)
        try home.write("sources", lines.joined(separator: "\n") + "\n")
        let now: Int64 = 1_800_000_000
        var limits = FetchLimitsForTests.make()
        limits.maxInFlight = 16
        limits.maxPerHost = 16
        var runner = UpdateRunner(limits: limits, clock: { Timestamp(secondsSince1970: now) })
        configure(&runner)
        let paths = try FeedsPaths.resolve(home: home.path, environment: [:])
        let workspace = try Workspace(paths: paths, now: Timestamp(secondsSince1970: now))
        let summary = try runner.run(.all, in: workspace)
        return (summary, try workspace.store, paths.database)
    }

    private func assertEverythingSavedAndIndexed(_ summary: UpdateSummary, _ store: FeedStore, _ database: String,
                                                 file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(summary.ok, 30, file: file, line: line)
        let expected = (0..<30).reduce(0) { $0 + 3 + ($1 * 5) % 17 }
        XCTAssertEqual(summary.newCards, expected, file: file, line: line)
        XCTAssertEqual(try store.cards().count, expected, file: file, line: line)
        // The run's index thread indexed every card: nothing is left for the next search.
        XCTAssertEqual(try SearchIndexer(storePath: database).refresh().indexed, 0, "index complete after the run", file: file, line: line)
        XCTAssertEqual(try store.search("bound7x").count, 3 + 35 % 17, file: file, line: line)
    }

    func testTheDefaultBoundsSaveAndIndexEveryCard() throws {
        let defaults = UpdateRunner(limits: FetchLimitsForTests.make())
        XCTAssertLessThanOrEqual(defaults.maxBufferedBytes, 1 << 20)
        XCTAssertLessThanOrEqual(defaults.searchRowsWaiting, 1_000)
        let (summary, store, database) = try run { $0.searchIndexBatch = 20 }
        try assertEverythingSavedAndIndexed(summary, store, database)
    }

    func testTheTightestBoundsStillSaveAndIndexEveryCard() throws {
        let (summary, store, database) = try run {
            $0.maxBufferedBytes = 1
            $0.saveBatchBytes = 1
            $0.searchIndexBatch = 1
            $0.searchRowsWaiting = 1  // rows dropped at once: the index thread reads those cards back
            $0.searchIndexCacheKiB = 64
        }
        try assertEverythingSavedAndIndexed(summary, store, database)
    }
}
