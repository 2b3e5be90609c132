import Aggregator
import FeedModel
import Fetching
import Foundation
import Storage
import TestSupport
import XCTest

/// Feeds parsed on worker threads, saved by the one thread that writes: every source gets
/// exactly its own cards and state whatever order parsing finishes in, a parse failure lands on
/// the right source, and the result is the same as parsing on the calling thread.
final class ParallelParseTests: XCTestCase {
    /// 40 feeds of different sizes (so parses finish out of order), one not a feed, one
    /// ill-formed; small indexing batches so the search index is refreshed during the run too.
    private func serve() throws -> (LoopbackHTTPServer, [String]) {
        let server = try LoopbackHTTPServer()
        var lines: [String] = []
        for i in 0..<40 {
            let items = (0..<(1 + (i * 7) % 23)).map { "s\(i)-item\($0) word\(i)x" }
            server.route("/f\(i)", .text(rss("feed\(i)", items: items), contentType: "application/rss+xml"))
            lines.append("\(server.url("/f\(i)")) name=feed\(i)")
        }
        server.route("/html", .text("<html><body>not a feed</body></html>", contentType: "text/html"))
        server.route("/broken", .text("<rss><channel><title>b</titl", contentType: "application/rss+xml"))
        lines.append("\(server.url("/html")) name=html")
        lines.append("\(server.url("/broken")) name=broken")
        return (server, lines)
    }

    /// The home folder is kept by the test case: the search index is a file created there later.
    private var homes: [TemporaryDirectory] = []

    override func tearDown() {
        homes = []
    }

    private func run(workers: Int, searchIndexBatch: Int) throws -> (UpdateSummary, FeedStore) {
        let (server, lines) = try serve()
        let home = TemporaryDirectory()
        try home.write("sources", lines.joined(separator: "\n") + "\n")
        let now: Int64 = 1_800_000_000
        var limits = FetchLimitsForTests.make()
        limits.maxInFlight = 16
        limits.maxPerHost = 16
        limits.perHostStart = 4
        var runner = UpdateRunner(limits: limits, clock: { Timestamp(secondsSince1970: now) })
        runner.parseWorkers = workers
        runner.searchIndexBatch = searchIndexBatch
        let workspace = try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]),
                                      now: Timestamp(secondsSince1970: now))
        let summary = try runner.run(.all, in: workspace)
        XCTAssertEqual(server.requests.count, 42)
        homes.append(home)
        return (summary, try workspace.store)
    }

    func testWorkersSaveEverySourceWithItsOwnCards() throws {
        let (summary, store) = try run(workers: 2, searchIndexBatch: 25)
        XCTAssertEqual(summary.reports.count, 42)
        XCTAssertEqual(Set(summary.reports.map(\.sourceID)).count, 42, "one report per source")
        XCTAssertEqual(summary.ok, 40)
        XCTAssertEqual(summary.failed, 2)
        let byName = Dictionary(try store.sources().map { ($0.displayName, $0) }, uniquingKeysWith: { a, _ in a })
        for i in 0..<40 {
            let source = try XCTUnwrap(byName["feed\(i)"])
            XCTAssertEqual(source.cardCount, 1 + (i * 7) % 23, "feed\(i)")
            let cards = try store.cards(CardQuery(sourceID: source.id))
            XCTAssertTrue(cards.allSatisfy { $0.card.title?.hasPrefix("s\(i)-item") == true }, "feed\(i) holds only its own cards")
            XCTAssertNil(source.lastError)
            // Every card is in the search index by the end of the run.
            XCTAssertEqual(try store.search("word\(i)x").count, source.cardCount, "feed\(i) searchable")
        }
        XCTAssertTrue(byName["html"]?.lastError?.contains("not a feed") == true, byName["html"]?.lastError ?? "nil")
        XCTAssertTrue(byName["broken"]?.lastError?.contains("malformed") == true, byName["broken"]?.lastError ?? "nil")
        XCTAssertEqual(summary.reports.first { $0.name == "html" }?.failed, true)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    /// Parsing on worker threads and on the calling thread store the same cards and outcomes.
    func testSameResultAsParsingOnTheCallingThread() throws {
        let (parallel, parallelStore) = try run(workers: 2, searchIndexBatch: 10)
        let (serial, serialStore) = try run(workers: 0, searchIndexBatch: 1_000_000)
        func outcomes(_ s: UpdateSummary) -> [String: String] {
            Dictionary(s.reports.map { ($0.url.replacingOccurrences(of: #":\d+/"#, with: "/", options: .regularExpression), "\($0.outcome)") },
                       uniquingKeysWith: { a, _ in a })
        }
        XCTAssertEqual(outcomes(parallel), outcomes(serial))
        func cards(_ store: FeedStore) throws -> [String] {
            try store.cards().map { "\($0.sourceName)|\($0.key.rawValue)|\($0.card.title ?? "")" }.sorted()
        }
        XCTAssertEqual(try cards(parallelStore), try cards(serialStore))
        XCTAssertEqual(try parallelStore.search("item3").count, try serialStore.search("item3").count)
    }
}
