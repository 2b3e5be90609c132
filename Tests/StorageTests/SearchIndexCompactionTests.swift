import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A big removal (retention's first prune of years of cards) shrinks the search index's word
/// lists, not only its copy of the text: FTS5 alone would keep the removed rows' entries, plus a
/// delete marker each, in its biggest segment.
final class SearchIndexCompactionTests: StoreTestCase {
    /// Bytes of the index's segments (word lists and delete markers).
    private func segmentBytes() throws -> Int {
        try attachedSearchIndex().prepare("SELECT coalesce(sum(length(block)), 0) FROM search.card_search_data")
            .queryOne { $0.int(0) } ?? -1
    }

    private func words(_ i: Int) -> String {
        (0..<40).map { "w\(($0 * 7919 + i * 104_729) % 5_000)" }.joined(separator: " ")
    }

    func testAPruneOfMostCardsShrinksTheWordLists() throws {
        let source = try addSource(keepDays: 30)
        try save((0..<1_600).map { article("old\($0)", published: t(0), description: words($0)) }, to: source, at: t(1))
        try save((0..<400).map { article("new\($0)", published: t(99), description: words($0 + 1_600)) }, to: source, at: t(100))
        try store.markRead(.all)
        try store.refreshSearchIndex()
        let before = try segmentBytes()
        XCTAssertEqual(try store.prune(now: t(100), defaultKeepDays: nil), 1_600)
        try store.refreshSearchIndex()
        let after = try segmentBytes()
        XCTAssertLessThan(after, before * 4 / 10, "1,600 of 2,000 cards gone: \(before) -> \(after) bytes")
        assertSearchIndexInStep()
        XCTAssertEqual(try store.search("w1", query: CardQuery()).count, try store.search("w1", query: CardQuery(sourceID: source)).count)
        XCTAssertTrue(try store.search(words(5).components(separatedBy: " ")[0]).allSatisfy { $0.card.id?.hasPrefix("new") == true })
    }

    /// A prune of a few cards leaves the index as FTS5 keeps it (no rewrite of the whole index).
    func testASmallPruneDoesNotRewriteTheIndex() throws {
        let source = try addSource(keepDays: 30)
        try save((0..<50).map { article("old\($0)", published: t(0), description: words($0)) }, to: source, at: t(1))
        try save((0..<1_950).map { article("new\($0)", published: t(99), description: words($0 + 50)) }, to: source, at: t(100))
        try store.markRead(.all)
        try store.refreshSearchIndex()
        let segments = try attachedSearchIndex().prepare("SELECT count(*) FROM search.card_search_data").queryOne { $0.int(0) } ?? 0
        XCTAssertEqual(try store.prune(now: t(100), defaultKeepDays: nil), 50)
        try store.refreshSearchIndex()
        let after = try attachedSearchIndex().prepare("SELECT count(*) FROM search.card_search_data").queryOne { $0.int(0) } ?? 0
        XCTAssertGreaterThanOrEqual(after, segments, "the delete markers were added, nothing merged away")
        assertSearchIndexInStep()
    }
}
