import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// `feeds browse`'s windows of a listing (`BrowseStore`) give the same cards in the same order
/// with the same places on PostgreSQL as on SQLite: the same generated cards saved into both,
/// then under every order and filter each window compared with the whole listing of its own
/// backend (`cards(_:order:)`) and with the other backend's: slices, counts, places, the cards
/// around a card, the next and previous unread card, search listings and their unread jumps;
/// and each backend's data version changing after another connection's commit, and only then.
final class BrowseStoreContractTests: TwoBackendsTestCase {
    private var stores: [any UpdateStore & BrowseStore & CardSearchStore] { [sqlite, postgres] }

    /// Names and titles that sort awkwardly (case, blanks, non-ASCII, equal, none); few dates,
    /// so ties are common; some cards undated.
    private static let names: [String?] = ["apple", "Apple", " banana", "Émile", nil, "apple"]
    private static let titles: [String?] = ["alpha", "Alpha", "  beta", "", nil, "Été", "zulu", "a"]
    private static let words = ["news", "tea", "coffee", "pump", "pumpkin", "zeppelin", "green", "heat"]

    private func fill(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let configurations = Self.names.enumerated().map { index, name in
            SourceConfiguration(url: "https://s\(index).example/feed.xml", name: name, tags: index % 2 == 0 ? ["even"] : ["odd"])
        }
        var fetches: [(source: Int, cards: [Card], now: Timestamp)] = []
        for round in 0..<2 {
            for source in configurations.indices {
                let cards = (0..<Int.random(in: 3...11, using: &random)).map { n -> Card in
                    let date = Int.random(in: 0...3, using: &random) > 0 ? t(Int.random(in: 0...3, using: &random)) : nil
                    let text = (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
                    return Card(id: "b\(Int.random(in: 0...16, using: &random))", title: Self.titles.randomElement(using: &random)!,
                                description: "<p>\(text.joined(separator: " "))</p>", link: "https://s.example/\(n)", published: date)
                }
                fetches.append((source, cards, t(round, source)))
            }
        }
        for store in stores {
            let ids = try store.upsertSources(configurations, now: t(0))
            for fetch in fetches {
                try store.saveFetch(sourceID: ids[fetch.source], feed: FeedInfo(title: "Feed \(fetch.source % 2)"), cards: fetch.cards,
                                    validators: CacheValidators(), now: fetch.now, nextDue: nil)
            }
            // Every third card of the oldest order read (the same cards on both: same order).
            let all = try store.cards(CardQuery(), order: .oldest)
            try store.setRead(true, .cards(all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.id)))
        }
    }

    private func comparable(_ cards: [StoredCard]) -> [String] {
        cards.map { "\($0.sourceName)|\($0.key.rawValue)|\($0.card.title ?? "-")|\($0.sortDate)|\($0.isRead)" }
    }

    private func source(_ store: any UpdateStore, _ index: Int) throws -> SourceID {
        try XCTUnwrap(try store.source(url: "https://s\(index).example/feed.xml")?.id)
    }

    /// The filters of a listing, by number (the same on both backends).
    private func query(_ filter: Int, _ store: any UpdateStore) throws -> CardQuery {
        switch filter {
        case 1: return CardQuery(sourceID: try source(store, 2))
        case 2: return CardQuery(tag: "EVEN")
        case 3: return CardQuery(unreadOnly: true)
        case 4: return CardQuery(since: t(2))
        case 5: return CardQuery(tag: "odd", unreadOnly: true, since: t(1))
        default: return CardQuery()
        }
    }

    private static let filters = 0...5

    /// Everything a window reads of one listing, from one backend, in comparable form.
    private func windows(_ store: any UpdateStore & BrowseStore, _ query: CardQuery, _ order: CardOrder,
                         file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let listing = try store.cards(query, order: order)
        let what = "\(type(of: store)) \(order) \(query)"
        var seen: [String] = ["count \(try store.listingCount(query))"]
        XCTAssertEqual(try store.listingCount(query), listing.count, what, file: file, line: line)
        for offset in [0, 1, 5, 17, max(0, listing.count - 3), listing.count, listing.count + 4] {
            let slice = try store.listingWindow(query, order: order, offset: offset, limit: 7)
            XCTAssertEqual(slice.map(\.id), Array(listing.dropFirst(offset).prefix(7)).map(\.id), "\(what) slice at \(offset)", file: file, line: line)
            seen.append("slice \(offset): " + comparable(slice).joined(separator: ", "))
        }
        // Every other card (and the last): each a place, a window around it, two unread jumps.
        for (index, card) in listing.enumerated() where index % 2 == 0 || index == listing.count - 1 {
            let place = try store.listingPlace(of: card.id, query, order: order, counting: true)
            XCTAssertEqual(place?.position, index, "\(what) place of \(index)", file: file, line: line)
            XCTAssertEqual(place?.total, listing.count, "\(what) total at \(index)", file: file, line: line)
            XCTAssertEqual(try store.listingPlace(of: card.id, query, order: order, counting: false)?.position, index, what, file: file, line: line)
            let around = try store.listingAround(card.id, query, order: order, before: 3, after: 4)
            XCTAssertEqual(around.map(\.id), Array(listing[max(0, index - 3)..<min(listing.count, index + 5)]).map(\.id),
                           "\(what) around \(index)", file: file, line: line)
            for forward in [true, false] {
                let expected = forward ? listing.indices.dropFirst(index + 1).first { !listing[$0].isRead }
                                       : listing.indices.prefix(index).last { !listing[$0].isRead }
                XCTAssertEqual(try store.unreadPosition(from: card.id, forward: forward, query, order: order), expected,
                               "\(what) unread \(forward ? "after" : "before") \(index)", file: file, line: line)
            }
            seen.append("\(index): " + comparable(around).joined(separator: ", "))
        }
        // A card the listing leaves out has no place and nothing around it.
        let all = try store.cards(CardQuery(), order: order)
        if let outside = all.first(where: { card in !listing.contains { $0.id == card.id } }) {
            XCTAssertNil(try store.listingPlace(of: outside.id, query, order: order, counting: true), what, file: file, line: line)
            XCTAssertEqual(try store.listingAround(outside.id, query, order: order, before: 2, after: 2), [], what, file: file, line: line)
        }
        XCTAssertNil(try store.listingPlace(of: CardID(rawValue: 999_999), query, order: order, counting: true), what, file: file, line: line)
        return seen
    }

    func testEveryWindowOfEveryOrderAndFilterIsTheSameOnBothBackends() throws {
        try fill(seed: 1)
        var compared = 0
        // Relevance without a search lists as newest: browse never asks a window of it.
        for order in CardOrder.all where order != .relevance {
            for filter in Self.filters {
                let seen = try stores.map { try windows($0, try query(filter, $0), order) }
                XCTAssertEqual(seen[0], seen[1], "\(order) filter \(filter)")
                compared += seen[0].count
            }
        }
        XCTAssertGreaterThan(compared, 400, "the listings are too small to compare")
    }

    /// A search's listing as browse pages through it: the same ids as `searchListing` (the
    /// matches, in order; relevance the same set, ties in the newest order), read by range, each
    /// id's place, and the first unread card of each range from either end.
    func testSearchListingWindowsAreTheSameOnBothBackends() throws {
        try fill(seed: 2)
        var compared = 0
        for text in ["news", "tea OR coffee", "pum*", "zeppelin NOT green", "heat"] {
            for order in CardOrder.all {
                for filter in Self.filters {
                    var listings: [[String]] = []
                    for store in stores {
                        let query = try query(filter, store)
                        let window = try store.searchListingWindow(text, query: query, order: order)
                        let ids = try window.ids(0..<window.count)
                        let what = "\(type(of: store)) \(text) \(order) filter \(filter)"
                        XCTAssertEqual(ids, try store.searchListing(text, query: query, order: order), what)
                        XCTAssertEqual(try window.ids(2..<6), Array(ids.dropFirst(2).prefix(4)), what)
                        XCTAssertEqual(try window.ids(window.count - 1..<window.count + 9), Array(ids.suffix(1)), what)
                        for (index, id) in ids.enumerated() { XCTAssertEqual(try window.position(of: id), index, what) }
                        XCTAssertNil(try window.position(of: CardID(rawValue: 999_999)), what)
                        let cards = try store.cards(ids: ids)
                        for start in stride(from: 0, to: cards.count, by: 3) {
                            let range = start..<min(cards.count, start + 5)
                            XCTAssertEqual(try store.firstUnread(among: ids[range], last: false), range.first { !cards[$0].isRead }, what)
                            XCTAssertEqual(try store.firstUnread(among: ids[range], last: true), range.last { !cards[$0].isRead }, what)
                        }
                        // bm25 and ts_rank order the same matches differently: the set compared.
                        listings.append(order == .relevance ? comparable(cards).sorted() : comparable(cards))
                    }
                    XCTAssertEqual(listings[0], listings[1], "\(text) \(order) filter \(filter)")
                    compared += listings[0].count
                }
            }
        }
        XCTAssertGreaterThan(compared, 1_000, "the searches found too little to compare")
        for store in stores { XCTAssertNil(try store.firstUnread(among: [], last: false)) }
    }

    /// The version another connection sees: changed by this one's commits, not by reads, not
    /// by its own writes, not by a transaction still open (PostgreSQL) or rolled back.
    func testDataVersionChangesAfterAnotherConnectionsCommitAndNotOtherwise() throws {
        try fill(seed: 3)
        let second: [any UpdateStore & BrowseStore] = [try FeedStore(path: directory.file("feeds.db").path),
                                                        try PostgresStore(address: databaseURL)]
        for (reader, writer) in zip(stores, second) {
            let what = "\(type(of: reader))"
            let card = try XCTUnwrap(try reader.cards(CardQuery(unreadOnly: true), order: .newest).first)
            let start = try reader.dataVersion()
            XCTAssertEqual(try reader.dataVersion(), start, "\(what): a read changes nothing")
            _ = try reader.listingWindow(CardQuery(), order: .title, offset: 0, limit: 10)
            XCTAssertEqual(try reader.dataVersion(), start, what)

            // Its own writes leave it (browse marking a card must not make it list anew).
            try reader.setRead(true, .cards([card.id]))
            try reader.setRead(false, .cards([card.id]))
            XCTAssertEqual(try reader.dataVersion(), start, "\(what): its own marks leave it")

            // Another connection's commit changes it; the writer's own version stays.
            let writerStart = try writer.dataVersion()
            try writer.setRead(true, .cards([card.id]))
            XCTAssertEqual(try writer.dataVersion(), writerStart, "\(what): the writer's own write leaves its version")
            let afterMark = try reader.dataVersion()
            XCTAssertNotEqual(afterMark, start, "\(what): another connection's mark is seen")
            XCTAssertEqual(try reader.dataVersion(), afterMark, what)

            // New cards saved by the other connection.
            let id = try writer.upsertSource(SourceConfiguration(url: "https://new.example/feed.xml"), now: t(5))
            let afterSource = try reader.dataVersion()
            try writer.saveFetch(sourceID: id, feed: FeedInfo(), cards: [Card(id: "n1", title: "new")], validators: CacheValidators(),
                                 now: t(5), nextDue: nil)
            let afterSave = try reader.dataVersion()
            XCTAssertNotEqual(afterSave, afterSource, "\(what): new cards are seen")
            // A renamed source changes the listing's names.
            try writer.upsertSources([SourceConfiguration(url: "https://new.example/feed.xml", name: "Renamed")], now: t(5))
            XCTAssertNotEqual(try reader.dataVersion(), afterSave, "\(what): a renamed source is seen")
        }

        // PostgreSQL: only commits that change a listing count, when they commit.
        let reader = postgres!, writer = second[1] as! PostgresStore
        let card = try XCTUnwrap(try reader.cards(CardQuery(), order: .newest).first)
        var version = try reader.dataVersion()
        let writerVersion = try writer.dataVersion()
        try writer.connection.execute("BEGIN", context: "test")
        try writer.connection.execute("UPDATE cards SET is_read = NOT is_read WHERE id = $1", [.integer(card.id.rawValue)], context: "test")
        // Fired now instead of at the commit: the bump and the own count both undone below.
        try writer.connection.execute("SET CONSTRAINTS ALL IMMEDIATE", context: "test")
        XCTAssertEqual(try reader.dataVersion(), version, "a transaction still open is not seen")
        try writer.connection.execute("ROLLBACK", context: "test")
        XCTAssertEqual(try reader.dataVersion(), version, "nor one rolled back")
        XCTAssertEqual(try writer.dataVersion(), writerVersion, "and the writer's own count is undone with it")
        try writer.connection.execute("BEGIN", context: "test")
        try writer.connection.execute("UPDATE cards SET is_read = NOT is_read", context: "test")
        try writer.connection.execute("UPDATE cards SET title = title || '!'", context: "test")
        XCTAssertEqual(try reader.dataVersion(), version, "not before the commit")
        try writer.connection.execute("COMMIT", context: "test")
        XCTAssertEqual(try reader.dataVersion(), version + 1, "one commit, one change, however many statements and rows")
        XCTAssertEqual(try writer.dataVersion(), writerVersion, "the writer's own commit leaves its version")
        version += 1
        // A fetch that finds the same cards (only `last_seen_at`) and fetch state change nothing listed.
        let source = try XCTUnwrap(try writer.source(url: "https://new.example/feed.xml")?.id)
        try writer.saveFetch(sourceID: source, feed: FeedInfo(), cards: [Card(id: "n1", title: "new")], validators: CacheValidators(),
                             now: t(6), nextDue: t(7))
        try writer.markReading(sourceID: source, now: t(6))
        XCTAssertEqual(try reader.dataVersion(), version, "unchanged cards and fetch state are not a change")
        try writer.saveFetch(sourceID: source, feed: FeedInfo(), cards: [Card(id: "n1", title: "changed")], validators: CacheValidators(),
                             now: t(7), nextDue: nil)
        XCTAssertEqual(try reader.dataVersion(), version + 1, "a changed card is")
        XCTAssertTrue(try writer.removeSource(source))
        XCTAssertEqual(try reader.dataVersion(), version + 2, "and a removed source's cards")
    }

    /// The windows' statements walk the order's index on PostgreSQL, under the filters browse
    /// has, never a sort of the listing.
    func testEveryWindowIsAnIndexScanOnPostgreSQL() throws {
        try fill(seed: 4)
        try postgres.connection.execute("ANALYZE", context: "test")
        // A small table favours a sort or reading it whole; what matters is that an index can
        // serve each statement at all, so the other ways are priced out.
        try postgres.connection.executeScript("SET enable_sort = off; SET enable_seqscan = off", context: "test")
        func plan(_ sql: String, _ values: [SQLValue]) throws -> String {
            let plan = try postgres.connection.execute("EXPLAIN " + sql, values, context: "test")
            return try plan.rows { plan.string($0, 0) ?? "" }.joined(separator: "\n")
        }
        let card = try XCTUnwrap(try postgres.cards(CardQuery(), order: .newest).dropFirst(20).first)
        for order in CardOrder.all where order != .relevance {
            for query in [CardQuery(), CardQuery(unreadOnly: true)] {
                let what = "\(order) unread=\(query.unreadOnly)"
                let window = postgres.windowSQL(query, order: order, offset: 30, limit: 10)
                let windowPlan = try plan(window.sql, window.values)
                XCTAssertTrue(windowPlan.contains("Index"), "\(what): \(windowPlan)")
                XCTAssertFalse(windowPlan.contains("Sort  (") && !windowPlan.contains("Incremental Sort"), "\(what): \(windowPlan)")
                let key = PGListingKey(order)
                let values = try XCTUnwrap(try postgres.listedKey(of: card.id, CardQuery(), key))
                let place = postgres.placeSQL(query, key: key, values: values, counting: true)
                let placePlan = try plan(place.sql, place.values)
                XCTAssertTrue(placePlan.contains("Index"), "\(what): \(placePlan)")
                XCTAssertFalse(placePlan.contains("Seq Scan"), "\(what): \(placePlan)")
                for forward in [true, false] {
                    for range in postgres.rangeSQL(query, key: key, values: values, forward: forward) {
                        let rangePlan = try plan(range.sql, range.values + [.integer(5)])
                        XCTAssertTrue(rangePlan.contains("Index"), "\(what): \(rangePlan)")
                        XCTAssertFalse(rangePlan.contains("Sort  (") && !rangePlan.contains("Incremental Sort"), "\(what): \(rangePlan)")
                    }
                }
            }
        }
    }
}
