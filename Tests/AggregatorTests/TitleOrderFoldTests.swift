@testable import Aggregator
import FeedModel
import Foundation
@testable import Storage
import TestSupport
import XCTest

/// An update folds its new cards' keys of the `title` order into the big table at its end
/// (migration 16, `FeedStore.foldTitleOrder`): after a run the small table is empty and the
/// listing in title order is the cards sorted by title.
final class TitleOrderFoldTests: XCTestCase {
    private let now = Timestamp(secondsSince1970: 1_800_000_000)

    func testAnUpdateLeavesEveryTitleFolded() throws {
        let server = try LoopbackHTTPServer()
        let home = TemporaryDirectory()
        let titles = ["pear", "Apple", "fig", "banana", "cherry", "date"]
        for i in 0..<3 {
            server.route("/f\(i)", .text(rss("f\(i)", items: titles.map { "\($0) \(i)" }), contentType: "application/rss+xml"))
        }
        try home.write("sources", (0..<3).map { server.url("/f\($0)") }.joined(separator: "\n") + "\n")
        let runner = UpdateRunner(limits: FetchLimitsForTests.make(), clock: { [now] in now })
        let workspace = try Workspace(paths: try FeedsPaths.resolve(home: home.path, environment: [:]), now: now)
        XCTAssertEqual(try runner.run(.all, in: workspace).ok, 3)
        let store = try workspace.store
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM card_titles_new").queryOne { $0.int(0) }, 0)
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM card_titles").queryOne { $0.int(0) }, 18)
        let listed = try store.cards(CardQuery(limit: 4), order: .title).compactMap(\.card.title)
        XCTAssertEqual(listed, ["Apple 0", "Apple 1", "Apple 2", "banana 0"])
    }
}
