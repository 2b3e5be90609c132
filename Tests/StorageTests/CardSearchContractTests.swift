import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Full-text search on PostgreSQL finds exactly what SQLite finds: the same generated cards
/// saved into both, then for a generated set of queries (common and rare words, phrases,
/// prefixes, OR, NOT, fields, folding of case and diacritics, hostile text) under every filter
/// and order, the same matches (in the same order but for relevance, whose scores differ:
/// bm25 against ts_rank), the same count, or the same typed error.
final class CardSearchContractTests: TwoBackendsTestCase {
    private var stores: [any UpdateStore & CardReadingStore & CardSearchStore] { [sqlite, postgres] }

    /// Words of the cards: a common one, rare ones, folding cases (accents, case, ß, ligature,
    /// full width, dotless i), punctuation inside words.
    private static let vocabulary = [
        "news", "news", "news", "news", "tea", "green", "coffee", "heat", "pump", "heat-pump", "node.js", "don't",
        "Café", "CAFE", "naïve", "Über", "Straße", "STRASSE", "ﬁle", "Ｆｅｅｄ", "Istanbul", "ıstanbul", "zeppelin",
        "pumpkin", "c++", "50%", "日本語", "Ελλάδα", "Москва", "e\u{301}te", "ĳssel", "x", "42", "v1.2",
    ]

    private static let authors: [String?] = [nil, "Ann Smith", "Bob", "Zoë Tea", "news desk"]

    private func sentence(_ random: inout SplitMix64, _ count: ClosedRange<Int>) -> String {
        (0..<Int.random(in: count, using: &random)).map { _ in Self.vocabulary.randomElement(using: &random)! }
            .joined(separator: Bool.random(using: &random) ? " " : ", ")
    }

    /// The same sources and fetches, from one seed, into both stores; some cards changed by a
    /// later fetch, one source removed.
    private func fill(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let configurations = (0..<6).map { index in
            SourceConfiguration(url: "https://s\(index).example/feed.xml", name: "S\(index)",
                                tags: index % 2 == 0 ? ["even"] : ["odd"])
        }
        var fetches: [(source: Int, cards: [Card], now: Timestamp)] = []
        for round in 0..<3 {
            for source in configurations.indices {
                let cards = (0..<Int.random(in: 4...14, using: &random)).map { n -> Card in
                    let date = Int.random(in: 0...4, using: &random) > 0 ? t(Int.random(in: 0...3, using: &random)) : nil
                    return Card(id: "c\(Int.random(in: 0...25, using: &random))",
                                title: Int.random(in: 0...6, using: &random) == 0 ? nil : sentence(&random, 1...5),
                                description: "<p>\(sentence(&random, 0...30))</p>", link: "https://s.example/\(n)",
                                published: date, author: Self.authors.randomElement(using: &random)!)
                }
                fetches.append((source, cards, t(round, source)))
            }
        }
        for store in stores {
            let ids = try store.upsertSources(configurations, now: t(0))
            for fetch in fetches {
                try store.saveFetch(sourceID: ids[fetch.source], feed: FeedInfo(), cards: fetch.cards,
                                    validators: CacheValidators(), now: fetch.now, nextDue: nil)
            }
            XCTAssertTrue(try store.removeSource(ids[5]))
            _ = try store.setRead(true, .source(ids[1]))
        }
    }

    /// Queries of every kind the language has, and hostile ones.
    private static let writtenQueries: [String] = [
        "news", "zeppelin", "pumpkin", "\"heat pump\"", "\"pump heat\"", "pum*", "\"heat pu\"*", "tea OR coffee",
        "tea NOT green", "(tea OR coffee) NOT green", "tea coffee", "tea AND coffee", "news NOT news", "cafe", "CAFÉ",
        "café", "strasse", "Straße", "file", "ﬁle", "feed", "ＦＥＥＤ", "istanbul", "İstanbul", "ete", "été", "ijssel",
        "title:news", "author:ann", "author:zoe", "description:tea", "title:\"heat pump\"", "title:pum*", "heat-pump",
        "node.js", "node", "js", "don't", "c++", "50%", "日本語", "ελλαδα", "МОСКВА", "v1.2", "42", "x*", "n*",
        // hostile
        "\"", "\"unbalanced", "tea \"green", "\\", "tea\\", "\\\"", ":", "title:", ":tea", "foo:bar", "tea:*", "()", "(", ")",
        "((tea)", "tea)", "(tea OR", "&|!<->:*", "tea & green", "!tea", "tea | coffee", "tea <-> green", "'", "''", "'tea'",
        "tea'", "AND", "OR tea", "tea NOT", "NOT tea", "tea OR OR coffee", "NEAR(tea green)", "^tea", "-tea", "tea -green",
        "*", "**", "tea**", "\"tea\"*", "\"\"", "\u{0}", "tea\u{0}green", "🧪", "tea 🧪", "\u{202E}tea", " ", "\t\n",
        "title:title:tea", "TITLE:tea", "Title:\"tea\"", "author:", "(((((tea)))))",
        String(repeating: "(", count: 150) + "tea" + String(repeating: ")", count: 150),
        String(repeating: "x", count: 10_000), String(repeating: "tea ", count: 2_500),
        "\"" + String(repeating: "news ", count: 2_000) + "\"", String(repeating: "tea OR ", count: 1_400) + "news",
        String(repeating: "é", count: 1_100), String(repeating: "\\'\":*&|!()<-> ", count: 700),
    ]

    /// Queries generated from pieces: words, operators, quotes, PostgreSQL's and FTS5's syntax.
    private static func generatedQueries(count: Int, seed: UInt64) -> [String] {
        let pieces = ["tea", "news", "pump", "café", "heat", "\"", "(", ")", "OR", "AND", "NOT", "*", ":", "title:", "author:",
                      "'", "\\", "&", "|", "!", "<->", ":*", "-", "^", "Ｆ", "ß", "e\u{301}", " ", " ", " "]
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
    }

    private func comparable(_ cards: [StoredCard]) -> [String] {
        cards.map { "\($0.sourceName)|\($0.key.rawValue)|\($0.card.title ?? "-")|\($0.sortDate)" }
    }

    private func source(_ store: any UpdateStore, _ index: Int) throws -> SourceID {
        try XCTUnwrap(try store.source(url: "https://s\(index).example/feed.xml")?.id)
    }

    /// What a search gave: its listing, or its error.
    private enum Outcome: Equatable {
        case cards([String])
        case refused(String)
    }

    private func outcome(_ body: () throws -> [StoredCard]) -> Outcome {
        do {
            return .cards(comparable(try body()))
        } catch let StorageError.badSearchQuery(_, reason) {
            return .refused(reason)
        } catch {
            return .refused("untyped: \(error)")
        }
    }

    func testEveryQueryMatchesTheSameCardsOnBothBackendsUnderEveryFilterAndOrder() throws {
        try fill(seed: 1)
        let generated = Self.generatedQueries(count: 150, seed: 7)
        let queries = Self.writtenQueries + generated
        var matched = 0
        var refused = 0
        for text in queries {
            // Every filter and order for the written queries; the generated ones (mostly hostile
            // syntax) and the 10 KB ones (seconds each: FTS5 and ts_rank over thousands of terms)
            // without filters and with all of them, in two orders.
            let written = Self.writtenQueries.contains(text) && text.utf8.count < 1_000
            for filter in written ? Array(0..<6) : [0, 5] {
                for order in written ? CardOrder.all : [.newest, .relevance] {
                    var outcomes: [Outcome] = []
                    for store in stores {
                        let query: CardQuery
                        switch filter {
                        case 1: query = CardQuery(sourceID: try source(store, 2))
                        case 2: query = CardQuery(tag: "even")
                        case 3: query = CardQuery(unreadOnly: true)
                        case 4: query = CardQuery(since: t(2))
                        case 5: query = CardQuery(tag: "odd", unreadOnly: true, limit: 5)
                        default: query = CardQuery()
                        }
                        var found = outcome { try store.search(text, query: query, order: order) }
                        if order == .relevance, case .cards(let listing) = found { found = .cards(listing.sorted()) }
                        outcomes.append(found)
                        if case .cards = found, order == .newest {
                            var limitless = query
                            limitless.limit = nil
                            let all = try store.search(text, query: limitless, order: .newest).count
                            XCTAssertEqual(try store.searchCount(text, query: query), all, "count of \(text.prefix(60)) on \(type(of: store))")
                        }
                    }
                    let what = "query \(text.prefix(80).debugDescription) filter \(filter) order \(order)"
                    if order == .relevance, filter == 5 {
                        // A limit over different scores may cut at different cards: each
                        // backend's limited listing is the start of its unlimited one (below).
                        if case .refused = outcomes[0] { XCTAssertEqual(outcomes[0], outcomes[1], what) }
                        continue
                    }
                    XCTAssertEqual(outcomes[0], outcomes[1], what)
                    if case .cards(let listing) = outcomes[0] { matched += listing.count } else { refused += 1 }
                }
            }
        }
        // Counts on both backends, every query, no filter.
        for text in queries {
            let counts = stores.map { store -> Outcome in
                do { return .cards([String(try store.searchCount(text, query: CardQuery()))]) } catch let StorageError.badSearchQuery(_, reason) {
                    return .refused(reason)
                } catch { return .refused("untyped: \(error)") }
            }
            XCTAssertEqual(counts[0], counts[1], "count of \(text.prefix(80).debugDescription)")
        }
        XCTAssertGreaterThan(matched, 5_000, "the searches found too little to compare")
        XCTAssertGreaterThan(refused, 100, "the hostile queries were all read")
    }

    /// Relevance lists the matches, each once, best score first, equal scores in the `newest`
    /// order (undated last, sort date, then id, descending); a limit lists the start of it.
    func testRelevanceIsAPermutationOfTheMatchesWithTiesInNewestOrder() throws {
        try fill(seed: 2)
        for text in ["news", "tea OR coffee", "pum*", "title:news", "cafe", "news NOT tea", "\"heat pump\" OR x"] {
            for store in stores {
                let ranked = try store.search(text, query: CardQuery(), order: .relevance)
                let newest = try store.search(text, query: CardQuery(), order: .newest)
                XCTAssertEqual(Set(ranked.map(\.id)), Set(newest.map(\.id)), text)
                XCTAssertEqual(ranked.count, newest.count, text)
                XCTAssertGreaterThan(ranked.count, 0, text)
                let scores = try self.scores(text, store)
                for (a, b) in zip(ranked, ranked.dropFirst()) {
                    let (sa, sb) = (try XCTUnwrap(scores[a.id]), try XCTUnwrap(scores[b.id]))
                    XCTAssertGreaterThanOrEqual(sa, sb, "\(text) on \(type(of: store)): better first")
                    if sa == sb {
                        let undated = (a.card.published == nil && a.card.updated == nil, b.card.published == nil && b.card.updated == nil)
                        let inOrder = (!undated.0 && undated.1)
                            || (undated.0 == undated.1 && (a.sortDate > b.sortDate || (a.sortDate == b.sortDate && a.id.rawValue > b.id.rawValue)))
                        XCTAssertTrue(inOrder, "\(text) on \(type(of: store)): a tie in newest order")
                    }
                }
                XCTAssertTrue(ranked.count > 1 && Set(ranked.map { scores[$0.id]! }).count < ranked.count,
                              "\(text): no tie to check on \(type(of: store))")
                let limited = try store.search(text, query: CardQuery(limit: 4), order: .relevance)
                XCTAssertEqual(limited.map(\.id), Array(ranked.prefix(4).map(\.id)), text)
                XCTAssertEqual(try store.searchListing(text, query: CardQuery(), order: .relevance), ranked.map(\.id), text)
            }
        }
    }

    /// Each card's score, higher is better (bm25 is negated: lower is better there).
    private func scores(_ text: String, _ store: any CardSearchStore) throws -> [CardID: Double] {
        var scores: [CardID: Double] = [:]
        if let sqlite = store as? FeedStore {
            try sqlite.refreshSearchIndex()
            let rows = try sqlite.db.prepare("SELECT rowid, rank FROM \(FeedStore.searchTable) WHERE card_search MATCH ?1")
                .query([.text(try SearchQuery.fts5(text))]) { (CardID(rawValue: $0.int64(0)), -$0.double(1)) }
            for (id, score) in rows { scores[id] = score }
        } else if let postgres = store as? PostgresStore {
            let result = try postgres.connection.execute("""
                SELECT card_id, ts_rank('\(PostgresSearchText.rankWeights)', words, $1::tsquery)::float8 FROM card_search WHERE words @@ $1::tsquery
                """, [.text(try PostgresSearchText.tsquery(text, words: postgres.searchWords()))], context: "test")
            for row in 0..<result.rowCount {
                scores[CardID(rawValue: try result.int64(row, 0))] = Double(result.string(row, 1) ?? "") ?? .nan
            }
        }
        return scores
    }

    /// The relevance window ranks the same newest matches on both backends.
    func testTheRelevanceWindowHoldsTheSameNewestMatchesOnBothBackends() throws {
        try fill(seed: 3)
        for text in ["news", "tea OR heat", "x*"] {
            for query in [CardQuery(), CardQuery(tag: "even"), CardQuery(unreadOnly: true)] {
                let windows = [comparable(try sqlite.search(text, query: query, order: .relevance, window: 9)).sorted(),
                               comparable(try postgres.search(text, query: query, order: .relevance, window: 9)).sorted()]
                XCTAssertEqual(windows[0], windows[1], text)
                // The newest by save order: the last nine ids of the matches.
                let newestIDs = try postgres.searchListing(text, query: query, order: .newest).sorted { $0.rawValue > $1.rawValue }.prefix(9)
                XCTAssertEqual(windows[0].count, newestIDs.count, text)
                XCTAssertGreaterThan(newestIDs.count, 3, text)
                XCTAssertEqual(Set(try postgres.searchListing(text, query: query, order: .relevance, window: 9)), Set(newestIDs), text)
            }
        }
    }

    /// Saving keeps the index current on PostgreSQL: a changed card is found by its new words
    /// only, a removed one no more, a copied database searches as the original.
    func testChangedRemovedAndCopiedCardsAreSearchedAsOnSQLite() throws {
        for store in stores {
            let id = try store.upsertSource(SourceConfiguration(url: "https://change.example/feed.xml"), now: t(0))
            try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [Card(id: "a", title: "old walrus"), Card(id: "b", title: "kept")],
                                validators: CacheValidators(), now: t(1), nextDue: nil)
            XCTAssertEqual(try store.search("walrus", query: CardQuery(), order: .newest).count, 1)
            try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [Card(id: "a", title: "new narwhal"), Card(id: "b", title: "kept")],
                                validators: CacheValidators(), now: t(2), nextDue: nil)
            XCTAssertEqual(try store.search("walrus", query: CardQuery(), order: .newest).count, 0, "\(type(of: store))")
            XCTAssertEqual(try store.search("narwhal", query: CardQuery(), order: .newest).map(\.card.title), ["new narwhal"])
            XCTAssertEqual(try store.searchCount("kept", query: CardQuery()), 1)
            XCTAssertTrue(try store.removeSource(id))
            XCTAssertEqual(try store.searchCount("narwhal OR kept", query: CardQuery()), 0, "\(type(of: store))")
        }
        let rows = try postgres.connection.execute("SELECT count(*) FROM card_search", context: "test")
        XCTAssertEqual(try rows.int(0, 0), 0, "the removed cards' search rows went with them")

        try fill(seed: 4)
        let copy = try PostgresStore(address: try server().makeDatabase())
        _ = try StoreCopy.copy(from: sqlite, to: copy)
        for text in ["news", "\"heat pump\"", "cafe", "author:ann", "pum* NOT tea"] {
            XCTAssertEqual(comparable(try copy.search(text, query: CardQuery(), order: .title)),
                           comparable(try sqlite.search(text, query: CardQuery(), order: .title)), text)
        }
    }

    /// A database with cards from before migration 4 gets their words when it is migrated.
    func testCardsFromBeforeTheSearchIndexAreIndexedWhenMigrated() throws {
        try fill(seed: 5)
        let expected = comparable(try postgres.search("news OR tea", query: CardQuery(), order: .oldest))
        XCTAssertFalse(expected.isEmpty)
        // Back to version 3: what migration 4 and every later one made goes (a later migration
        // adds its own objects here), so opening applies 4 and the rest again.
        try postgres.connection.executeScript("""
            DROP TABLE card_search;
            DROP TABLE cached_images; DROP TABLE page_previews; DROP FUNCTION feeds_text_digest(text);
            DROP INDEX cards_stamps; DROP STATISTICS cards_days;
            DROP TABLE card_changes; DROP FUNCTION feeds_note_card_change() CASCADE;
            ALTER TABLE sources DROP COLUMN lease_takeovers; DROP FUNCTION feeds_take_host_slot;
            DELETE FROM feeds_schema WHERE version > 3
            """, context: "test")
        postgres = try PostgresStore(address: databaseURL)
        XCTAssertEqual(try postgres.databaseSchemaVersion(), PostgresStore.schemaVersion)
        XCTAssertEqual(comparable(try postgres.search("news OR tea", query: CardQuery(), order: .oldest)), expected)
    }

    /// The matches come from the GIN index, under every filter, in relevance and other orders.
    func testSearchesUseTheGINIndex() throws {
        try fill(seed: 6)
        // Enough other cards that a rare word's few matches are worth an index.
        let other = try postgres.upsertSource(SourceConfiguration(url: "https://other.example/feed.xml", tags: ["even"]), now: t(0))
        try postgres.saveFetch(sourceID: other, feed: FeedInfo(), cards: (0..<1_000).map { Card(id: "o\($0)", title: "other \($0) lorem") },
                               validators: CacheValidators(), now: t(3), nextDue: nil)
        try postgres.connection.execute("ANALYZE", context: "test")
        // A table this small is read whole (or walked by id) cheaper than through the GIN
        // index: what matters is that the GIN index can serve the search at all (no function
        // around the column, the tsquery a constant), so the other ways are priced out.
        try postgres.connection.executeScript("SET enable_seqscan = off; SET enable_indexscan = off", context: "test")
        for order in [CardOrder.relevance, .newest, .title] {
            for query in [CardQuery(), CardQuery(unreadOnly: true), CardQuery(tag: "even", limit: 3)] {
                let (sql, values) = try postgres.searchSQL("zeppelin OR \"heat pump\"", query: query, order: order, window: 5_000, columns: "c.id")
                let plan = try postgres.connection.execute("EXPLAIN " + sql, values, context: "test")
                let text = try plan.rows { plan.string($0, 0) ?? "" }.joined(separator: "\n")
                XCTAssertTrue(text.contains("Bitmap Index Scan on card_search_words"), "\(order): \(text)")
            }
        }
    }

}
