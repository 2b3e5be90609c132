import Aggregator
import XCTest

/// A line's saved search is held by reference inside `SourceEntry` (issue 21: an update run
/// holds every chosen source's entry for its whole length, and an inline `SavedSearch` made
/// each one ~90 bytes larger though few lines are searches). It must still behave as a value:
/// compared and hashed by what it says, and a copy's change never seen by the original.
final class SourceEntrySearchBoxTests: XCTestCase {
    private func searches() -> [SavedSearch?] {
        [nil,
         SavedSearch(engine: .ddg, query: "swift"),
         SavedSearch(engine: .ddg, query: "swift", preview: true),
         SavedSearch(engine: .ddg, query: "Swift"),
         SavedSearch(engine: .searxng, query: "swift", endpoint: "https://searx.example"),
         SavedSearch(engine: .searxng, query: "swift", endpoint: "https://searx.example", count: 5)]
    }

    func testEntriesCompareAndHashByTheSearchTheySay() {
        let all = searches()
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() {
                // Two entries built apart (two boxes) with the same search are equal.
                let x = SourceEntry(url: "search:x", search: a), y = SourceEntry(url: "search:x", search: b)
                XCTAssertEqual(x == y, i == j, "\(String(describing: a)) vs \(String(describing: b))")
                if i == j { XCTAssertEqual(x.hashValue, y.hashValue) }
            }
        }
        XCTAssertEqual(Set(all.map { SourceEntry(url: "search:x", search: $0) }).count, all.count)
    }

    func testACopysSearchChangesAloneAndReadsBack() {
        let original = SourceEntry(url: "search:x", search: SavedSearch(engine: .ddg, query: "one"))
        var copy = original
        copy.search?.query = "two"
        XCTAssertEqual(original.search?.query, "one", "the original keeps its search")
        XCTAssertEqual(copy.search?.query, "two")
        XCTAssertNotEqual(original, copy)
        copy.search = nil
        XCTAssertNil(copy.search)
        XCTAssertEqual(copy, SourceEntry(url: "search:x"))
        copy.search = original.search
        XCTAssertEqual(copy, original)
    }
}
