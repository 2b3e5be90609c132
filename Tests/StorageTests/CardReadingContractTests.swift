import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Reading cards on PostgreSQL lists exactly what SQLite lists: the same generated cards saved
/// into both, every order under every filter compared card for card (ids aside: each backend
/// numbers its own), and read state changed the same way on both.
final class CardReadingContractTests: TwoBackendsTestCase {
    /// Both stores, as the interface.
    private var stores: [any UpdateStore & CardReadingStore] { [sqlite, postgres] }

    /// Names and titles that sort awkwardly: case, leading blanks, non-ASCII (lower-cased by
    /// neither backend), equal names, none.
    private static let names: [String?] = ["apple", "Apple", " banana", "Émile", "zebra", nil, "apple"]
    private static let titles: [String?] = ["alpha", "Alpha", "  beta", "", nil, "Été", "été", "zulu", "a", "A"]

    /// The same sources and fetches, from one seed, into every store.
    private func fill(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let configurations = Self.names.enumerated().map { index, name in
            SourceConfiguration(url: "https://s\(index).example/feed.xml", name: name,
                                tags: index % 2 == 0 ? ["even", "Mixed"] : ["odd"])
        }
        var fetches: [(source: Int, feed: FeedInfo, cards: [Card], now: Timestamp)] = []
        for round in 0..<3 {
            for source in configurations.indices {
                let count = Int.random(in: 0...12, using: &random)
                let cards = (0..<count).map { n -> Card in
                    // Few distinct dates, so ties are common; some undated.
                    let date = Bool.random(using: &random) ? t(Int.random(in: 0...4, using: &random)) : nil
                    let updated = Int.random(in: 0...3, using: &random) == 0 ? t(Int.random(in: 0...4, using: &random)) : nil
                    let enclosures = Int.random(in: 0...4, using: &random) == 0
                        ? [Enclosure(url: "https://s.example/\(n).mp3", type: "audio/mpeg", length: 123), Enclosure(url: "https://s.example/\(n).ogg")]
                        : []
                    return Card(id: "r\(Int.random(in: 0...20, using: &random))", title: Self.titles.randomElement(using: &random)!,
                                description: "<p>\(n)</p>", link: "https://s.example/\(n)", published: date, updated: updated,
                                enclosures: enclosures)
                }
                fetches.append((source, FeedInfo(title: "Feed \(source % 3)"), cards, t(round, source)))
            }
        }
        for store in stores {
            let ids = try store.upsertSources(configurations, now: t(0))
            for fetch in fetches {
                try store.saveFetch(sourceID: ids[fetch.source], feed: fetch.feed, cards: fetch.cards,
                                    validators: CacheValidators(), now: fetch.now, nextDue: nil)
            }
        }
    }

    /// A listing without the ids each backend gives.
    private func comparable(_ cards: [StoredCard]) -> [String] {
        cards.map { c in
            "\(c.sourceName)|\(c.key.rawValue)|\(c.card)|\(c.isRead)|\(c.firstSeenAt)|\(c.changedAt)|\(c.lastSeenAt)|\(c.sortDate)"
        }
    }

    private func source(_ store: any UpdateStore, _ index: Int) throws -> SourceID {
        try XCTUnwrap(try store.source(url: "https://s\(index).example/feed.xml")?.id)
    }

    /// Every order under every combination of filters (`full`), or under the read filter alone.
    private func assertSameListings(_ label: String, full: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        var checked = 0
        for order in CardOrder.all {
            for unread in [false, true] {
                for sourceIndex in (full ? [nil, 0, 3] : [nil]) as [Int?] {
                    for tag in (full ? [nil, "mixed", "odd"] : [nil]) as [String?] {
                        for since in (full ? [nil, t(2)] : [nil]) as [Timestamp?] {
                            for limit in (full ? [nil, 7] : [nil]) as [Int?] {
                                var listings: [[String]] = []
                                var counts: [Int] = []
                                for store in stores {
                                    let query = CardQuery(sourceID: try sourceIndex.map { try source(store, $0) }, tag: tag,
                                                          unreadOnly: unread, since: since, limit: limit)
                                    listings.append(comparable(try store.cards(query, order: order)))
                                    counts.append(try store.cardCount(query))
                                }
                                let what = "\(label): \(order) unread=\(unread) source=\(String(describing: sourceIndex)) tag=\(tag ?? "-") since=\(since.map(String.init(describing:)) ?? "-") limit=\(limit ?? -1)"
                                XCTAssertEqual(listings[0], listings[1], what, file: file, line: line)
                                XCTAssertEqual(counts[0], counts[1], what, file: file, line: line)
                                checked += listings[0].count
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, full ? 1000 : 100, "the listings are too small to compare", file: file, line: line)
    }

    func testEveryOrderAndFilterListsTheSameCardsOnBothBackends() throws {
        for seed: UInt64 in [1, 2] {
            if seed > 1 { try setUpWithError() }
            try fill(seed: seed)
            try assertSameListings("seed \(seed)")
        }
    }

    func testReadStateChangesTheSameWayOnBothBackends() throws {
        try fill(seed: 3)
        let selections: [(String, (any UpdateStore & CardReadingStore) throws -> CardSelection, Bool)] = [
            ("a source", { .source(try self.source($0, 2)) }, true),
            ("before a date", { _ in .before(self.t(2)) }, true),
            ("dated since", { _ in .dated(since: self.t(3), before: nil) }, false),
            ("dated between", { _ in .dated(since: self.t(1), before: self.t(3)) }, true),
            ("the first five of a listing", { try .cards(Array($0.cards(CardQuery(), order: .title).prefix(5).map(\.id))) }, false),
            ("all", { _ in .all }, false),
        ]
        for (label, selection, read) in selections {
            let changed = try stores.map { try $0.setRead(read, selection($0)) }
            XCTAssertEqual(changed[0], changed[1], label)
            try assertSameListings("after marking \(label)", full: false)
        }
        XCTAssertEqual(try postgres.cardCount(CardQuery(unreadOnly: true)), try sqlite.cardCount(CardQuery()))
    }

    func testCardsByIdComeInTheOrderAsked() throws {
        try fill(seed: 4)
        for store in stores {
            let listed = try store.cards(CardQuery(limit: 6), order: .oldest).map(\.id)
            XCTAssertEqual(listed.count, 6)
            let asked = listed.reversed() + [CardID(rawValue: 999_999)]
            XCTAssertEqual(try store.cards(ids: Array(asked)).map(\.id), Array(listed.reversed()))
            XCTAssertEqual(try store.card(id: listed[0])?.id, listed[0])
            XCTAssertNil(try store.card(id: CardID(rawValue: 999_999)))
            XCTAssertEqual(try store.cards(ids: []), [])
        }
    }

    func testEveryOrderIsAnIndexScanOnPostgreSQL() throws {
        try fill(seed: 5)
        // Planner statistics of a small table favour a sort; what matters is that an index can
        // serve the order at all, so sorting is priced out.
        try postgres.connection.execute("ANALYZE", context: "test")
        try postgres.connection.execute("SET enable_sort = off", context: "test")
        for order in CardOrder.all where order != .relevance {
            for query in [CardQuery(), CardQuery(unreadOnly: true)] {
                let filter = PostgresStore.cardFilter(query)
                let plan = try postgres.connection.execute("""
                    EXPLAIN SELECT c.id FROM cards c JOIN sources s ON s.id = c.source_id
                    \(filter.whereClause) ORDER BY \(PostgresStore.orderBy(order)) LIMIT 20
                    """, filter.values, context: "test")
                let text = try plan.rows { plan.string($0, 0) ?? "" }.joined(separator: "\n")
                XCTAssertFalse(text.contains("Sort  (") && !text.contains("Incremental Sort"), "\(order): \(text)")
                XCTAssertTrue(text.contains("Index"), "\(order) unread=\(query.unreadOnly): \(text)")
            }
        }
    }

    /// Awkward text in every field of a card comes back as it went in (NUL aside: PostgreSQL
    /// keeps it as U+FFFD), on both backends: quoting of the arrays a fetch is bound as,
    /// placeholders, braces, the word NULL, unicode, long text.
    func testAwkwardCardFieldsRoundTripOnBothBackends() throws {
        let texts = ["NULL", "null", "", " ", "{1,2}", "{\"a\",NULL}", "\"", "\\", "\\\"", "'; DROP TABLE cards; --", "$1 ?1 %s",
                     "a,b", "tab\tnew\nline", "emoji 🧪", "e\u{301}", "\u{202E}rtl", String(repeating: "long ", count: 20_000)]
        let cards = texts.enumerated().map { index, text in
            Card(id: text, title: text, description: text, link: text, image: text, published: t(index), updated: t(index, 1),
                 author: text, enclosures: [Enclosure(url: text, type: text, length: Int64(index))])
        }
        // Distinct keys although some texts repeat after folding: one key per card.
        let keys = texts.indices.map { CardKey(rawValue: "key-\($0)") }
        for store in stores {
            let id = try store.upsertSource(SourceConfiguration(url: "https://awkward.example/feed.xml"), now: t(0))
            XCTAssertEqual(try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: cards, keys: keys, validators: CacheValidators(),
                                               now: t(1), nextDue: nil).new, texts.count)
            let read = try store.cards(CardQuery(), order: .oldest)
            // Titles as both stores keep them (`StoredBounds`: the 100 KB one cut to 1,000 bytes).
            let kept = cards.map { card in
                var card = card
                card.title = StoredBounds.title(card.title)
                return card
            }
            XCTAssertEqual(read.map(\.card), kept, "\(type(of: store))")
            XCTAssertEqual(read.map(\.key), keys)
            // Saved again unchanged: the hashes of what was read back equal those of what was sent.
            XCTAssertEqual(try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: read.map(\.card), keys: keys,
                                               validators: CacheValidators(), now: t(2), nextDue: nil).unchanged, texts.count)
        }
    }
}
