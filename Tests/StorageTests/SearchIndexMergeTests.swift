import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// FTS5's merges taken out of the refreshes (`SearchIndexer.deferMerges`) and done in steps
/// (`mergeStep`), and the index's levels read from its structure record (`levelSegments`),
/// on a real index file.
final class SearchIndexMergeTests: StoreTestCase {
    private var source: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try addSource(name: "Feed")
    }

    private func found(_ text: String) throws -> Int {
        try store.search(text, order: .newest).count
    }

    /// With merges deferred each refresh leaves a segment on the first level; steps merge the
    /// level once it holds eight (the policy's `usermerge`), and a search finds every card.
    func testDeferredMergesLeaveSegmentsThatStepsMerge() throws {
        let indexer = try SearchIndexer(storePath: databasePath)
        try indexer.deferMerges()
        XCTAssertEqual(try indexer.setting("automerge"), 0)
        XCTAssertEqual(try indexer.setting("usermerge"), 8)
        for k in 0..<9 {
            try save([article("c\(k)", title: "Otter \(k)", description: "<p>river otter number\(k)</p>")], to: source, at: t(k))
            XCTAssertEqual(try indexer.refresh().indexed, 1)
        }
        XCTAssertEqual(indexer.levelSegments(), [9], "one segment a refresh, none merged")
        var steps = 0
        while try indexer.mergeStep(pages: 1) { steps += 1 }
        XCTAssertGreaterThan(steps, 0)
        let levels = try XCTUnwrap(indexer.levelSegments())
        XCTAssertEqual(levels.reduce(0, +), 1, "the nine merged into one: \(levels)")
        XCTAssertEqual(levels.last, 1)
        XCTAssertFalse(try indexer.mergeStep(pages: 128), "nothing left to merge")
        try indexer.resumeMerges()
        XCTAssertEqual(try indexer.setting("automerge"), SearchIndexer.automerge)
        XCTAssertEqual(try found("otter"), 9)
        XCTAssertEqual(try found("number4"), 1)
    }

    /// A run that stopped with merges deferred leaves the setting in the file; the next
    /// connection to open the index puts it back.
    func testAnIndexLeftWithMergesDeferredMergesAgainOnceOpened() throws {
        try save([article("a", title: "Aardvark")], to: source, at: t(1))
        try SearchIndexer(storePath: databasePath).deferMerges()
        XCTAssertEqual(try SearchIndexer(storePath: databasePath).setting("automerge"), SearchIndexer.automerge)
        XCTAssertEqual(try found("aardvark"), 1)
    }

    /// The structure record as SQLite 3.40 writes it and as 3.44 and later do (a marker and
    /// five more numbers a segment); anything else reads as unknown.
    func testTheStructureRecordIsReadInBothVersionsAndNothingElse() {
        // cookie, 2 levels, 3 segments, 5 writes; level 0: merging 0, 2 segments (1: 1-4,
        // 2: 5-9); level 1: merging 0, 1 segment (3: 10-300, a two-byte varint).
        let first: [UInt8] = [0, 0, 0, 7, 2, 3, 5, 0, 2, 1, 1, 4, 2, 5, 9, 0, 1, 3, 10, 0x82, 0x2C]
        XCTAssertEqual(SearchIndexer.levelSegments(structure: first), [2, 1])
        let extra: [UInt8] = [1, 2, 0, 0, 7]
        var second: [UInt8] = [0, 0, 0, 7, 0xFF, 0, 0, 1, 2, 3, 5, 0, 2]
        second += [1, 1, 4] + extra + [2, 5, 9] + extra + [0, 1] + [3, 10, 0x82, 0x2C] + extra
        XCTAssertEqual(SearchIndexer.levelSegments(structure: second), [2, 1])
        XCTAssertNil(SearchIndexer.levelSegments(structure: Array(first.dropLast())), "cut short")
        var miscounted = first
        miscounted[5] = 4
        XCTAssertNil(SearchIndexer.levelSegments(structure: miscounted), "3 segments listed, 4 announced")
        XCTAssertNil(SearchIndexer.levelSegments(structure: [0, 0, 0]))
        XCTAssertNil(SearchIndexer.levelSegments(structure: [0, 0, 0, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
    }

    /// A new index reads as one with no segment (so a first update may defer its merges).
    func testANewIndexHasItsLevelsKnown() throws {
        let indexer = try SearchIndexer(storePath: databasePath)
        let levels = try XCTUnwrap(indexer.levelSegments())
        XCTAssertEqual(levels.reduce(0, +), 0)
    }
}
