import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The search's relevance score (`feeds_relevance`, CSQLiteRanking) against FTS5's own bm25 with
/// the same weights, on generated cards: for a query of several phrases the same score; for a
/// query of one phrase bm25's score divided by one constant (the phrase's inverse document
/// frequency, which bm25 counts the matches for), so the same order.
final class RelevanceScoreTests: StoreTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        var random = SplitMix64(seed: 31)
        let words = ["tea", "kettle", "cup", "samovar", "leaf", "pot", "brew", "steam"]
        for s in 0..<3 {
            let source = try addSource("https://s\(s).example/feed", name: "S\(s)")
            let cards = (0..<80).map { j -> Card in
                func text(_ n: Int) -> String { (0..<n).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ") }
                return Card(id: "c\(s)-\(j)", title: text(1 + Int(random.next() % 4)), description: text(Int(random.next() % 30)),
                            link: "https://example.org/\(s)/\(j)", published: t(Int(random.next() % 9)),
                            author: random.next() % 3 == 0 ? text(1) : nil)
            }
            try save(cards, to: source, at: t(10 + s))
        }
        try store.refreshSearchIndex()
        try store.attachSearchIndex()
    }

    private func scores(_ text: String) throws -> [(id: Int64, ours: Double, bm25: Double)] {
        try store.db.prepare("""
            SELECT rowid, \(SearchIndex.relevance), bm25(card_search, 10.0, 1.0, 5.0)
            FROM \(FeedStore.searchTable) WHERE card_search MATCH ?1 ORDER BY rowid
            """).query([.text(try SearchQuery.fts5(text))]) { ($0.int64(0), $0.double(1), $0.double(2)) }
    }

    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(abs(a), abs(b)) }

    func testSeveralPhrasesScoreAsBM25() throws {
        for text in ["tea kettle", "tea OR samovar", "\"tea kettle\" cup", "title:tea OR leaf", "brew* pot"] {
            let rows = try scores(text)
            XCTAssertFalse(rows.isEmpty, text)
            for row in rows { XCTAssertTrue(close(row.ours, row.bm25), "\(text) #\(row.id): \(row.ours) vs \(row.bm25)") }
        }
    }

    func testOnePhraseScoresAsBM25OverItsDocumentFrequency() throws {
        for text in ["tea", "samovar", "\"tea kettle\"", "title:cup", "bre*", "steam"] {
            let rows = try scores(text)
            XCTAssertGreaterThan(rows.count, 1, text)
            let idf = rows[0].bm25 / rows[0].ours
            XCTAssertGreaterThan(idf, 0, text)
            for row in rows { XCTAssertTrue(close(row.bm25, row.ours * idf), "\(text) #\(row.id): \(row.bm25) vs \(row.ours) x \(idf)") }
            // The same order, ties (equal scores) included.
            func order(_ score: KeyPath<(id: Int64, ours: Double, bm25: Double), Double>) -> [Int64] {
                rows.sorted { $0[keyPath: score] < $1[keyPath: score] || ($0[keyPath: score] == $1[keyPath: score] && $0.id > $1.id) }.map(\.id)
            }
            XCTAssertEqual(order(\.ours), order(\.bm25), text)
        }
    }

    /// Whatever a person types reaches the score only as FTS5 parsed it: hostile or broken
    /// search text either ranks (as bm25 would, 300 phrases included) or fails with the search
    /// text's own one-line reason, never with the ranking function's.
    func testHostileSearchTextsRankOrSayWhy() throws {
        let many = (0..<300).map { "w\($0)" }.joined(separator: " OR ") + " OR tea"
        for row in try scores(many) { XCTAssertTrue(close(row.ours, row.bm25), "300 phrases #\(row.id)") }
        var ranked = 0
        for text in ["\"\"", "*", "NEAR(tea kettle, -1)", "NEAR(tea kettle, 99999999999)", "title:", "-", "\"", "AND", many,
                     "tea OR \"\"", "\u{1b}[2J tea", "tea\u{0}kettle", "nosuchcolumn:tea", String(repeating: "(", count: 500) + "tea"] {
            do {
                _ = try store.search(text, query: CardQuery(limit: 5), order: .relevance, window: 50)
                ranked += 1
            } catch let error as StorageError {
                guard case .badSearchQuery = error else { return XCTFail("\(text.debugDescription): \(error)") }
                let message = error.localizedDescription
                XCTAssertFalse(message.contains("\n"), message)
                XCTAssertFalse(message.contains("feeds_relevance"), message)
            }
        }
        XCTAssertGreaterThan(ranked, 2, "some of them are searches")
    }

    /// The search ranks by it: a card with the word in its title comes before cards with it
    /// only in their description, and the window's SQL names the function.
    func testTheSearchRanksByIt() throws {
        let listing = FeedStore.listing(CardQuery(limit: 5), order: .relevance, search: try SearchQuery.fts5("samovar"))
        XCTAssertTrue(listing.sql.contains("feeds_relevance(card_search"), listing.sql)
        let found = try store.search("samovar", query: CardQuery(limit: 40), order: .relevance, window: 1_000)
        let expected = try scores("samovar").sorted { $0.bm25 < $1.bm25 }.map(\.id)
        XCTAssertEqual(Set(found.map(\.id.rawValue)), Set(expected.prefix(40)))
        XCTAssertTrue(found.first?.card.title?.contains("samovar") ?? false, "\(found.first?.card.title ?? "-")")
    }
}
