@testable import Aggregator
import FeedModel
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// An update folds its new cards' keys of the `title` order into the big table at its end
/// once enough wait (migration 16, `FeedStore.titleFoldKeys`); until then they wait in the
/// small table, where its end moves them from the log its saves wrote them to (migration 17). Either way the listing in title order is the cards sorted by title.
final class TitleOrderFoldTests: XCTestCase {
    private let now = Timestamp(secondsSince1970: 1_800_000_000)

    func testAnUpdateFoldsTheTitlesOnceEnoughWait() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        let titles = ["pear", "Apple", "fig", "banana", "cherry", "date"]
        for i in 0..<4 {
            server.route("/f\(i)", .text(rss("f\(i)", items: titles.map { "\($0) \(i)" }), contentType: "application/rss+xml"))
        }
        let runner = UpdateRunner(limits: FetchLimitsForTests.make(), clock: { [now] in now })
        // Each run as a cron run: the sources file written, then a workspace opened on it.
        var store: FeedStore!
        func update(_ feeds: Int) throws -> Int {
            try home.write("sources", (0..<feeds).map { server.url("/f\($0)") }.joined(separator: "\n") + "\n")
            let workspace = try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]), now: now)
            store = try workspace.store
            store.titleFoldKeys = 20
            return try runner.run(.all, in: workspace).ok
        }
        func count(_ table: String) throws -> Int? { try store.db.prepare("SELECT count(*) FROM \(table)").queryOne { $0.int(0) } }

        // 18 keys: fewer than 20, they wait; the listing merges them all the same.
        XCTAssertEqual(try update(3), 3)
        XCTAssertEqual(try count("card_titles_new"), 18, "moved out of the log, in key order")
        XCTAssertEqual(try count("card_titles_log"), 0)
        XCTAssertEqual(try count("card_titles"), 0)
        XCTAssertEqual(try store.cards(CardQuery(limit: 4), order: .title).compactMap(\.card.title),
                       ["Apple 0", "Apple 1", "Apple 2", "banana 0"])

        // 6 more: 24 wait, the update's end folds them.
        XCTAssertEqual(try update(4), 4)  // `.all`: the three again (nothing new there) and the new one
        XCTAssertEqual(try count("card_titles_new"), 0)
        XCTAssertEqual(try count("card_titles_log"), 0)
        XCTAssertEqual(try count("card_titles"), 24)
        XCTAssertEqual(try store.cards(CardQuery(limit: 5), order: .title).compactMap(\.card.title),
                       ["Apple 0", "Apple 1", "Apple 2", "Apple 3", "banana 0"])
    }
}
